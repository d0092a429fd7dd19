import { createHash, randomUUID } from "node:crypto";
import type { InboundEvent, WaMessage } from "@atende/shared/contracts/queue-messages";
import { messageKindOf, sniffMedia, withDeclaredAv } from "@atende/shared/domain/media/media-sniff";
import { createMessageSequencer, type MessageSequencer } from "@atende/shared/domain/messages/message-order";
import { mediaSlots } from "../media/media-slots";
import { defaultFilename, mediaKey, type MediaStore } from "../media/media-store.port";
import { byteCounter, peek } from "../media/media-stream";
import type { Logger } from "../platform/logger";
import { MediaTooLargeError, type ProviderEvents, type ProviderMessage, type SessionIdentity } from "../providers/provider.port";
import type { InboundPublisher } from "../queues/inbound-publisher";
import type { EventSpill } from "./event-spill";

/** how long a failed replay waits before trying again */
const REPLAY_RETRY_MS = 2_000;
/** the host's message sequence (docs/adr/0066): one hybrid clock for every session of this process */
const hostSequence = createMessageSequencer();

/**
 * Turns one session's provider events into inbound.fifo events. Each handler resolves only once its event is
 * durable (media stored first): on the queue, or, when the queue fails or this host lost the lease, in the
 * connection's spill in the table. WhatsApp considers a message delivered as soon as Baileys acknowledged it,
 * so nothing it handed us may be dropped. While anything is spilled, later events are spilled behind it, and
 * `replay` publishes them in order (the holder of the connection replays at start and after a failure).
 */
export const createEventEmitter = (deps: {
  identity: SessionIdentity;
  publisher: InboundPublisher;
  media: MediaStore;
  logger: Logger;
  /** false once this host lost the connection: events are kept in the spill for the new holder */
  alive: () => boolean;
  /** true once this host crashed (tests): nothing more is published nor kept, as for a dead process */
  crashed?: () => boolean;
  spill?: EventSpill;
  onConnection?: (status: InboundEvent & { type: "connection" }) => void;
  /** a message was published (fromMe: sent from this number, ours or from the phone): metrics */
  onMessage?: (fromMe: boolean) => void;
  /** gives each message its `seq` (docs/adr/0066); one per host process is enough: it grows per chat too */
  sequence?: MessageSequencer;
}): ProviderEvents & { replay(): Promise<void>; close(): void } => {
  const { identity, publisher, media, logger } = deps;
  const base = { companyId: identity.companyId, whatsappId: identity.whatsappId };
  // until a first replay finds the spill empty, a previous holder's events may still be in it: queue behind them
  let spilled = Boolean(deps.spill);
  let spilling = 0;
  let replaying: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const keep = async (event: InboundEvent, chatJid?: string) => {
    if (!deps.spill) throw new Error("event not published and no spill to keep it");
    spilled = true;
    spilling++;
    try {
      await deps.spill.put(event, chatJid);
    } finally {
      spilling--;
    }
    scheduleReplay(0);
  };
  const publish = async (event: InboundEvent, chatJid?: string) => {
    if (deps.crashed?.()) throw new Error("host stopped");
    if (!deps.alive()) return keep(event, chatJid);
    if (!spilled) {
      try {
        await publisher.publish(event, chatJid);
        return;
      } catch (err) {
        logger.warn("event not published: kept in the spill", { ...base, eventId: event.eventId, err: String(err) });
      }
    }
    await keep(event, chatJid);
  };
  const drain = async () => {
    if (!deps.spill) return;
    for (;;) {
      if (closed || !deps.alive() || deps.crashed?.()) return;
      const batch = await deps.spill.oldest();
      if (batch.length === 0) {
        // nothing stored and nothing on its way to the store: new events may go straight to the queue again
        if (spilling === 0) spilled = false;
        if (spilling === 0) return;
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      spilled = true;
      for (const item of batch) {
        await publisher.publish(item.event, item.chatJid);
        await deps.spill.remove([item.sk]);
      }
    }
  };
  const replay = (): Promise<void> =>
    (replaying ??= drain()
      .catch((err) => {
        logger.warn("spilled events not replayed yet", { ...base, err: String(err) });
        scheduleReplay(REPLAY_RETRY_MS);
      })
      .finally(() => (replaying = undefined)));
  function scheduleReplay(ms: number) {
    if (retry || closed) return;
    retry = setTimeout(() => {
      retry = undefined;
      void replay();
    }, ms);
  }
  const short = (text: string) => createHash("sha1").update(text).digest("hex").slice(0, 12);
  const sequence = deps.sequence ?? hostSequence;
  /**
   * Per chat, the turn of the last message given a `seq`: a message is published only after the one before it in its
   * chat was handed to the publisher, so a media download never lets a later message of the chat overtake it on the
   * queue (the simulator hands a window of deliveries over at once; Baileys already waits per chat).
   */
  const turns = new Map<string, Promise<void>>();

  /** Stores the message's media, then publishes it with its `seq` once the chat's previous message was handed over. */
  const handle = async (m: ProviderMessage, seq: number, before: Promise<void> | undefined, handedOver: () => void) => {
    let ref: WaMessage["media"];
    let mediaRefused: WaMessage["mediaRefused"];
    let type = m.type;
    if (m.media) {
      try {
        const inbound = m.media;
        // one of the process's media slots for the whole transfer (download, decryption, store)
        ref = await mediaSlots().run(async () => {
          const store = (bytes: Uint8Array) => {
            // the customer is an untrusted sender: the type is what the bytes are, never what the message declared,
            // and anything a browser would not show inline (an "image" that is an SVG) becomes a document
            const sniffed = withDeclaredAv(sniffMedia(bytes, inbound.filename), inbound.mimetype);
            if ((type === "image" || type === "sticker" || type === "audio" || type === "video") && messageKindOf(sniffed) === "document") type = "document";
            const filename = inbound.filename || defaultFilename(sniffed.mime, m.type);
            return { sniffed, filename, key: mediaKey(identity.companyId, filename) };
          };
          if (inbound.stream && media.putStream) {
            // decrypted straight into the store; only the first bytes are held, to sniff the type
            const { head, stream } = await peek(await inbound.stream());
            const { sniffed, filename, key } = store(head);
            const counted = byteCounter(Number.MAX_SAFE_INTEGER, () => new Error("unreachable"));
            stream.on("error", (err) => counted.destroy(err));
            await media.putStream(key, stream.pipe(counted), sniffed.mime);
            return { key, mimetype: sniffed.mime, filename, size: counted.bytes() };
          }
          const bytes = await inbound.download();
          const { sniffed, filename, key } = store(bytes);
          await media.put(key, bytes, sniffed.mime);
          return { key, mimetype: sniffed.mime, filename, size: bytes.length };
        });
      } catch (err) {
        // The message still reaches the ticket; the media is marked missing rather than blocking the chat forever.
        if (err instanceof MediaTooLargeError) mediaRefused = { reason: "tooLarge", size: err.size, limit: err.limit };
        logger.warn(err instanceof MediaTooLargeError ? "media over the size limit: not stored" : "media download failed", { ...base, messageId: m.id, err: String(err) });
      }
    }
    const message: WaMessage = { ...m, type, media: ref, ...(mediaRefused ? { mediaRefused } : {}), seq };
    await before;
    // publishing puts the event in the publisher's (or the spill's) order at once; the next message may follow
    const published = publish({ ...base, eventId: m.id, type: "message", message }, m.chatJid);
    handedOver();
    await published;
    deps.onMessage?.(Boolean(m.fromMe));
  };

  return {
    replay,
    close() {
      closed = true;
      if (retry) clearTimeout(retry);
    },
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
        reason: state.reason,
        ...(state.pairingCode ? { pairingCode: state.pairingCode } : {}),
      };
      deps.onConnection?.(event);
      await publish(event);
    },
    async message(m) {
      // the provider's order within the chat, taken before anything is awaited (docs/adr/0066)
      const seq = sequence.next();
      const before = turns.get(m.chatJid);
      let handedOver!: () => void;
      const mine = new Promise<void>((r) => (handedOver = r));
      turns.set(m.chatJid, mine);
      try {
        await handle(m, seq, before, handedOver);
      } finally {
        handedOver();
        if (turns.get(m.chatJid) === mine) turns.delete(m.chatJid);
      }
    },
    async messageUpdate(u) {
      const what = u.isDeleted ? "del" : u.body !== undefined ? `edit-${short(u.body)}` : `ack${u.ack ?? 0}`;
      await publish({ ...base, eventId: `${u.messageId}:${what}`, type: "message.update", ...u }, u.chatJid);
    },
    async presence(p) {
      await publish({ ...base, eventId: randomUUID(), type: "presence", ...p }, p.chatJid);
    },
    async identity(link) {
      // ordered with the messages of the number's chat
      await publish({ ...base, eventId: `lid:${link.lid}:${link.number}`, type: "contact.identity", ...link }, `${link.number}@s.whatsapp.net`);
    },
    async picture(p) {
      // ordered after the message of that chat that created the contact
      await publish(
        { ...base, eventId: `pic:${p.chatJid}:${short(p.url)}`, type: "contact.picture", chatJid: p.chatJid, number: p.number, lid: p.lid, profilePicUrl: p.url },
        p.chatJid,
      );
    },
    async call(c) {
      await publish({ ...base, eventId: `call:${c.callId}`, type: "call", ...c }, c.from);
    },
  };
};
