import { createHash, randomUUID } from "node:crypto";
import type { InboundEvent, WaMessage } from "@atende/shared/contracts/queue-messages";
import { defaultFilename, mediaKey, type MediaStore } from "../media/media-store.port";
import type { Logger } from "../platform/logger";
import type { ProviderEvents, SessionIdentity } from "../providers/provider.port";
import type { InboundPublisher } from "../queues/inbound-publisher";

/**
 * Turns one session's provider events into inbound.fifo events. Each handler resolves only once its event is
 * on the queue (media stored first), so the provider acknowledges nothing that could still be lost.
 */
export const createEventEmitter = (deps: {
  identity: SessionIdentity;
  publisher: InboundPublisher;
  media: MediaStore;
  logger: Logger;
  /** false once this host lost the connection or was killed: nothing more is published for it */
  alive: () => boolean;
  onConnection?: (status: InboundEvent & { type: "connection" }) => void;
}): ProviderEvents => {
  const { identity, publisher, media, logger } = deps;
  const base = { companyId: identity.companyId, whatsappId: identity.whatsappId };
  const publish = async (event: InboundEvent, chatJid?: string) => {
    if (!deps.alive()) throw new Error("session no longer held by this host");
    await publisher.publish(event, chatJid);
  };
  const short = (text: string) => createHash("sha1").update(text).digest("hex").slice(0, 12);

  return {
    async connection(state) {
      const event: InboundEvent = {
        ...base,
        eventId: randomUUID(),
        type: "connection",
        status: state.status,
        qrcode: state.qrcode ?? "",
        number: state.number,
        retries: state.retries ?? 0,
        loggedOut: state.loggedOut,
      };
      deps.onConnection?.(event);
      await publish(event);
    },
    async message(m) {
      let ref: WaMessage["media"];
      if (m.media) {
        try {
          const bytes = await m.media.download();
          const filename = m.media.filename || defaultFilename(m.media.mimetype, m.type);
          const key = mediaKey(identity.companyId, filename);
          await media.put(key, bytes, m.media.mimetype);
          ref = { key, mimetype: m.media.mimetype, filename, size: bytes.length };
        } catch (err) {
          // The message still reaches the ticket; the media is marked missing rather than blocking the chat forever.
          logger.warn("media download failed", { ...base, messageId: m.id, err: String(err) });
        }
      }
      const message: WaMessage = { ...m, media: ref };
      await publish({ ...base, eventId: m.id, type: "message", message }, m.chatJid);
    },
    async messageUpdate(u) {
      const what = u.isDeleted ? "del" : u.body !== undefined ? `edit-${short(u.body)}` : `ack${u.ack ?? 0}`;
      await publish({ ...base, eventId: `${u.messageId}:${what}`, type: "message.update", ...u }, u.chatJid);
    },
    async presence(p) {
      await publish({ ...base, eventId: randomUUID(), type: "presence", ...p }, p.chatJid);
    },
    async call(c) {
      await publish({ ...base, eventId: `call:${c.callId}`, type: "call", ...c }, c.from);
    },
  };
};
