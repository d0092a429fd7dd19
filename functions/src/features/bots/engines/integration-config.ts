import type { QueueIntegration } from "../../queue-integrations/queue-integrations.repository";
import type { BotKind } from "../bot-engine.port";
import type { DialogflowConfig } from "./dialogflow.engine";
import type { TypebotConfig } from "./typebot.engine";
import type { WebhookConfig } from "./webhook.engine";

/**
 * A stored queue integration as its engine's config (the binding the runner hands the engine): the kind, and the
 * fields that kind reads, with the webhook signing secret opened (it is stored sealed). Types other than the four
 * flows do not exist; an n8n/webhook integration saved before secrets existed has none (its engine refuses to send
 * unsigned: rotating the secret fixes it).
 */
export type IntegrationEngineConfig =
  | { kind: "typebot"; config: TypebotConfig }
  | { kind: "n8n" | "webhook"; config: WebhookConfig }
  | { kind: "dialogflow"; config: DialogflowConfig };

export const integrationEngineConfig = async (
  i: QueueIntegration & { webhookSecret?: string | null },
  open: (sealed: string) => Promise<string>,
): Promise<IntegrationEngineConfig & { kind: BotKind }> => {
  switch (i.type) {
    case "typebot":
      return {
        kind: "typebot",
        config: {
          urlN8N: i.urlN8N,
          typebotSlug: i.typebotSlug,
          typebotExpires: i.typebotExpires,
          typebotDelayMessage: i.typebotDelayMessage,
          typebotKeywordFinish: i.typebotKeywordFinish,
          typebotKeywordRestart: i.typebotKeywordRestart,
          typebotUnknownMessage: i.typebotUnknownMessage,
          typebotRestartMessage: i.typebotRestartMessage,
        },
      };
    case "n8n":
    case "webhook":
      return { kind: i.type, config: { id: i.id, name: i.name, type: i.type, urlN8N: i.urlN8N, secret: i.webhookSecret ? await open(i.webhookSecret) : "" } };
    case "dialogflow":
      return { kind: "dialogflow", config: { projectName: i.projectName, jsonContent: i.jsonContent, language: i.language } };
  }
};
