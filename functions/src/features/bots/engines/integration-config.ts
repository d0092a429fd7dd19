import type { QueueIntegration } from "@atende/shared/domain/queue-integrations/queue-integration";
import type { DialogflowConfig } from "./dialogflow.engine";
import type { TypebotConfig } from "./typebot.engine";
import type { WebhookConfig } from "./webhook.engine";

/**
 * A stored queue integration as its engine's config (the resolver's `integrationConfig` hook, ADR 0026/0027): the
 * fields its kind reads, with the secrets opened (the webhook signing secret and DialogFlow's private key are
 * stored sealed). An n8n/webhook integration saved before secrets existed has none: its engine refuses to send
 * unsigned (rotating the secret fixes it).
 */
export type StoredFlowIntegration = QueueIntegration & { webhookSecret?: string | null };

export const integrationEngineConfig = async (i: StoredFlowIntegration, open: (stored: string) => Promise<string>): Promise<TypebotConfig | WebhookConfig | DialogflowConfig> => {
  switch (i.type) {
    case "typebot":
      return {
        urlN8N: i.urlN8N,
        typebotSlug: i.typebotSlug,
        typebotExpires: i.typebotExpires,
        typebotDelayMessage: i.typebotDelayMessage,
        typebotKeywordFinish: i.typebotKeywordFinish,
        typebotKeywordRestart: i.typebotKeywordRestart,
        typebotUnknownMessage: i.typebotUnknownMessage,
        typebotRestartMessage: i.typebotRestartMessage,
      };
    case "n8n":
    case "webhook":
      return { id: i.id, name: i.name, type: i.type, urlN8N: i.urlN8N, secret: i.webhookSecret ? await open(i.webhookSecret) : "" };
    case "dialogflow":
      return { projectName: i.projectName, jsonContent: await openServiceAccountKey(i.jsonContent, open), language: i.language };
  }
};

/** The service-account JSON with its private key opened (stored sealed; a key stored before sealing is used as is). */
export const openServiceAccountKey = async (jsonContent: string, open: (stored: string) => Promise<string>) => {
  try {
    const c = JSON.parse(jsonContent) as Record<string, unknown>;
    if (typeof c.private_key !== "string" || !c.private_key) return jsonContent;
    const key = await open(c.private_key);
    return key === c.private_key ? jsonContent : JSON.stringify({ ...c, private_key: key });
  } catch {
    return jsonContent;
  }
};
