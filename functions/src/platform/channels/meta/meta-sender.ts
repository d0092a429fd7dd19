import { METRIC } from "@atende/shared/contracts/metric-names";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { Logger } from "../../logger";
import { noMetrics, recordSendFailure, type Metrics } from "../../metrics";
import type { MediaStore } from "../../storage/media-store.port";
import type { ChannelCommand } from "../channel.port";
import { failureText, GraphApiError } from "../cloud-api/graph-api-errors";
import { messagingWindow, sendTypeFields } from "./messaging-window";
import type { MetaProvider } from "./meta-webhook.mapper";
import type { SendApiClient } from "./send-api.client";

/** A connection's Messenger / Instagram settings with the token opened (never logged, never answered). */
export type MetaSettings = { companyId: number; whatsappId: number; provider: MetaProvider; pageId: string; pageAccessToken: string; graphApiUrl: string };

export type MetaSenderDeps = {
  settings(companyId: number, whatsappId: number): Promise<MetaSettings | null>;
  client(settings: MetaSettings): SendApiClient;
  /** when the customer of this chat last wrote (ISO), or null */
  lastInboundAt(companyId: number, whatsappId: number, chatJid: string): Promise<string | null>;
  media: MediaStore;
  /** puts a `command.result` on the inbound path, as the session host does */
  report(event: InboundEvent): Promise<void>;
  clock: () => Date;
  logger: Logger;
  metrics?: Metrics;
};

const scopedId = (jid: string) => jid.split("@")[0]!;

/**
 * Sends channel commands to Meta's Send API for Messenger and Instagram (docs/adr/0090). Each send first asks the
 * messaging window (messaging-window.ts): within 24 h `RESPONSE`, up to 7 days `MESSAGE_TAG` + `HUMAN_AGENT`, and
 * after that it is not sent and reported failed with ERR_WINDOW_CLOSED (the inbox refuses it earlier, this is the
 * last guard). Outcomes come back as `command.result` events; a failure carries Meta's code and title.
 */
export const createMetaSender = (deps: MetaSenderDeps) => {
  const metrics = deps.metrics ?? noMetrics;
  const result = (c: ChannelCommand & { type: "send" }, ok: boolean, error?: string) =>
    deps.report({ type: "command.result", eventId: `meta:${c.commandId}:${ok ? "ok" : "failed"}`, companyId: c.companyId, whatsappId: c.whatsappId, commandId: c.commandId, messageId: c.messageId, ok, ...(error ? { error } : {}) });
  const fail = (c: ChannelCommand & { type: "send" }, error: string, code = error) => {
    recordSendFailure(metrics, code, c.chatJid.endsWith("@instagram") ? "instagram" : "messenger");
    return result(c, false, error);
  };
  return {
    async run(c: ChannelCommand): Promise<void> {
      if (c.type !== "send") {
        // reactions, read marks, edits ... are not offered for these channels (capabilities): dropped
        deps.logger.info("meta: unsupported command dropped", { companyId: c.companyId, type: c.type });
        return;
      }
      const s = await deps.settings(c.companyId, c.whatsappId);
      if (!s) return fail(c, "ERR_NO_WAPP_FOUND");
      const type = sendTypeFields(messagingWindow(await deps.lastInboundAt(c.companyId, c.whatsappId, c.chatJid), deps.clock()));
      if (!type) return fail(c, "ERR_WINDOW_CLOSED");
      const client = deps.client(s);
      const to = scopedId(c.chatJid);
      try {
        if (c.media) {
          const obj = await deps.media.get(c.media.key);
          if (!obj) return fail(c, "ERR_WAPP_DOWNLOAD_MEDIA");
          await client.sendAttachment(s.pageId, to, { bytes: obj.body, mimetype: c.media.mimetype || obj.mimetype, filename: c.media.filename ?? "file" }, type);
          // Meta has no captions: the text goes as its own message after the file
          if (c.body) await client.sendText(s.pageId, to, c.body, type);
        } else {
          await client.sendText(s.pageId, to, c.body, type);
        }
        metrics.count(METRIC.messagesOut, 1, { provider: s.provider });
        await result(c, true);
      } catch (err) {
        if (err instanceof GraphApiError) return fail(c, failureText(err.code, err.title), String(err.code));
        deps.logger.warn("meta: send outcome unknown", { companyId: c.companyId, whatsappId: c.whatsappId, err: String(err) });
        return fail(c, "ERR_SENDING_WAPP_MSG");
      }
    },
  };
};
export type MetaSender = ReturnType<typeof createMetaSender>;
