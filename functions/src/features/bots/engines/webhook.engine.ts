import {
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_STATE_MAX_BYTES,
  webhookAnswerSchema,
  type WebhookPayload,
} from "@atende/shared/domain/bots/webhook-bot";
import type { UrlGuard } from "../../../platform/net/public-url-guard";
import type { BotAction, BotEngine, BotOutMessage } from "../bot-engine.port";
import { engineRequest, NOT_JSON, type EngineFetch } from "./engine-http";
import { signWebhookBody } from "./webhook-signature";

/**
 * n8n and webhook integrations (issue 11 item 5): one signed POST per customer message to `urlN8N`, the JSON
 * answer's messages and actions handed to the runner. Both kinds share this engine; only `kind` differs.
 * The contract, with examples and how to verify the signature: docs/integrations.md.
 */
export type WebhookConfig = {
  id: number;
  name: string;
  type: "n8n" | "webhook";
  urlN8N: string;
  /** the integration's signing secret, opened (never stored in plain text) */
  secret: string;
};

const label = (type: WebhookConfig["type"]) => (type === "n8n" ? "n8n" : "Webhook");

/** The delivery id: stable for one message and integration, so the one retry after a failure carries the same. */
export const webhookDeliveryId = (integrationId: number, messageId: string) => `${integrationId}-${messageId}`;

export const createWebhookEngine = (kind: "n8n" | "webhook", deps: { fetch?: EngineFetch; guard?: UrlGuard } = {}): BotEngine<WebhookConfig> => {
  const fetchFn = deps.fetch ?? fetch;
  const guard = deps.guard ?? (async () => undefined);
  return {
    kind,
    async turn(config, input) {
      if (!config.secret) throw new Error(`${label(config.type)}: the integration has no signing secret (rotate it on the integration)`);
      await guard(config.urlN8N);
      const m = input.message;
      const payload: WebhookPayload = {
        version: 1,
        event: "message",
        deliveryId: webhookDeliveryId(config.id, m.id),
        sentAt: input.now.toISOString(),
        integration: { id: config.id, name: config.name, type: config.type },
        company: input.company,
        connection: input.connection,
        queue: input.queue,
        ticket: input.ticket,
        contact: { id: input.contact.id, name: input.contact.name, number: input.contact.number, email: input.contact.email || null },
        message: { id: m.id, body: m.body, mediaType: m.mediaType ?? null, mediaUrl: m.mediaUrl ?? null, transcript: m.transcript ?? null, createdAt: m.createdAt },
        state: input.state,
      };
      const raw = JSON.stringify(payload);
      const res = await engineRequest(fetchFn, label(config.type), config.urlN8N, {
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "user-agent": "Atende-Webhook/1",
          [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(config.secret, raw),
          [WEBHOOK_EVENT_HEADER]: "message",
          [WEBHOOK_DELIVERY_HEADER]: payload.deliveryId,
        },
        body: raw,
        signal: input.signal,
      });
      // an empty body (or 204): no messages, no actions; the runner counts that as silence and hands over
      if (res.json === undefined) return { messages: [], actions: [], state: input.state };
      if (res.json === NOT_JSON) throw new Error(`${label(config.type)}: the answer is not JSON`);
      const json = Array.isArray(res.json) ? (res.json[0] ?? {}) : res.json;
      const parsed = webhookAnswerSchema.safeParse(json);
      if (!parsed.success) {
        const where = parsed.error.issues[0];
        throw new Error(`${label(config.type)}: the answer does not follow the contract (${where?.path.join(".") || "body"}: ${where?.message ?? "invalid"})`);
      }
      const answer = parsed.data;
      const messages: BotOutMessage[] = answer.messages.map((msg) =>
        msg.type === "text" ? { kind: "text", body: msg.body } : { kind: "media", mediaType: msg.type, url: msg.url, ...(msg.caption ? { caption: msg.caption } : {}), ...(msg.filename ? { filename: msg.filename } : {}) },
      );
      const actions: BotAction[] = answer.actions.map((a) =>
        a.type === "handover" ? { type: "handover", reason: a.reason || `o ${label(config.type)} pediu um atendente`, ...(a.note ? { note: a.note } : {}) } : a,
      );
      let state = answer.state === undefined ? input.state : answer.state;
      if (state && Buffer.byteLength(JSON.stringify(state)) > WEBHOOK_STATE_MAX_BYTES) throw new Error(`${label(config.type)}: the answer's state is over ${WEBHOOK_STATE_MAX_BYTES} bytes`);
      state ??= null;
      return { messages, actions, state, ...(answer.delayMs !== undefined ? { delayMs: answer.delayMs } : {}) };
    },
  };
};
