import { randomUUID } from "node:crypto";
import { dialogflowCredentialsProblem } from "@atende/shared/domain/queue-integrations/queue-integration";
import {
  DialogflowError,
  dialogflowAnswerText,
  dialogflowEndsConversation,
  type DialogflowFulfillmentMessage,
  type DialogflowRest,
  type DialogflowServiceAccount,
} from "../../../platform/dialogflow/dialogflow-rest.adapter";
import { BotTransientError, type BotAction, type BotEngine, type BotOutMessage } from "../bot-engine.port";
import { customerText } from "./engine-http";

/**
 * DialogFlow (issue 11 item 6): detectIntent for each customer message on one DialogFlow session per bot session
 * (its id in the turn state), with the service account in `jsonContent`, the agent's `projectName` and `language`.
 * The agent's text and image messages go back to the customer; an intent marked "end of conversation" (or a live
 * agent handoff) hands the ticket over after its messages. A message without text (a photo, a sticker) is not sent
 * to the agent: the turn is silent, so the runner hands over (an agent reads text only).
 */
export type DialogflowConfig = { projectName: string; jsonContent: string; language: string | null };
export type DialogflowState = { sessionId: string };

const imagesOf = (messages: DialogflowFulfillmentMessage[] | undefined): BotOutMessage[] =>
  (messages ?? [])
    .filter((m) => (!m.platform || m.platform === "PLATFORM_UNSPECIFIED") && m.image?.imageUri && /^https?:\/\//i.test(m.image.imageUri))
    .map((m) => ({ kind: "media", mediaType: "image", url: m.image!.imageUri!, ...(m.image?.accessibilityText ? { caption: m.image.accessibilityText } : {}) }));

const quickRepliesOf = (messages: DialogflowFulfillmentMessage[] | undefined): BotOutMessage[] =>
  (messages ?? [])
    .filter((m) => (!m.platform || m.platform === "PLATFORM_UNSPECIFIED") && m.quickReplies?.quickReplies?.length)
    .map((m) => ({ kind: "text", body: [m.quickReplies!.title, ...m.quickReplies!.quickReplies!.map((q) => `• ${q}`)].filter(Boolean).join("\n") }));

export const createDialogflowEngine = (deps: { rest: DialogflowRest }): BotEngine<DialogflowConfig> => ({
  kind: "dialogflow",
  async turn(config, input) {
    const problem = dialogflowCredentialsProblem(config.jsonContent, config.projectName);
    if (problem) throw new Error(`DialogFlow: the integration's service account is not usable (${problem})`);
    const text = customerText(input.message);
    const state = typeof input.state?.sessionId === "string" && input.state.sessionId ? (input.state as DialogflowState) : { sessionId: randomUUID() };
    if (!text) return { messages: [], actions: [], state };
    const credentials = JSON.parse(config.jsonContent) as DialogflowServiceAccount;
    let result;
    try {
      result = await deps.rest.detectIntent({ credentials, projectName: config.projectName, sessionId: state.sessionId, text, languageCode: config.language || "pt-BR", signal: input.signal });
    } catch (e) {
      if (e instanceof DialogflowError && e.kind === "unreachable") throw new BotTransientError(e.message, { cause: e });
      throw e;
    }
    const messages: BotOutMessage[] = [
      ...dialogflowAnswerText(result).map((body): BotOutMessage => ({ kind: "text", body })),
      ...quickRepliesOf(result.fulfillmentMessages),
      ...imagesOf(result.fulfillmentMessages),
    ];
    if (dialogflowEndsConversation(result)) {
      const intent = result.intent?.displayName ?? "end of conversation";
      const actions: BotAction[] = [{ type: "handover", reason: `o DialogFlow encerrou a conversa (intenção "${intent}")` }];
      return { messages, actions, state: null };
    }
    return { messages, actions: [], state };
  },
});
