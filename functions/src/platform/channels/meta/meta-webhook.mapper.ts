import type { InboundEvent, WaMessage } from "@atende/shared/contracts/queue-messages";
import { createMessageSequencer, type MessageSequencer } from "@atende/shared/domain/messages/message-order";

/**
 * Meta's Messenger (object "page") and Instagram Direct (object "instagram") webhooks → our inbound events, the
 * same contract as the WhatsApp providers (docs/adr/0020, 0090). Each `entry` is one page / Instagram account: only
 * entries whose id is the connection's own `pageId` are read (another page's payload, maybe another company's,
 * produces nothing). The customer is identified by the page-scoped id (PSID) or Instagram-scoped id (IGSID): its
 * chat id is `<id>@messenger` / `<id>@instagram` (`metaJid`). Echoes of our own sends are skipped (we store our
 * messages when we send them). Attachments stay a `remoteMedia` URL here: the consumer downloads them through the
 * outbound guard before the message is stored.
 */
export type MetaProvider = "messenger" | "instagram";
export type MetaConnectionRef = { companyId: number; whatsappId: number; provider: MetaProvider; pageId: string };

type MetaAttachment = { type?: string; payload?: { url?: string; title?: string; sticker_id?: number } | null };
export type MetaMessagingEvent = {
  sender?: { id?: string };
  recipient?: { id?: string };
  timestamp?: number;
  message?: {
    mid?: string;
    text?: string;
    is_echo?: boolean;
    is_deleted?: boolean;
    attachments?: MetaAttachment[];
    reply_to?: { mid?: string; story?: { url?: string; id?: string } };
  };
  reaction?: { mid?: string; action?: "react" | "unreact"; reaction?: string; emoji?: string };
};
export type MetaMessagingWebhook = { object?: string; entry?: { id?: string; time?: number; messaging?: MetaMessagingEvent[] }[] };

export type MappedMessaging = { events: InboundEvent[]; skipped: { id: string; type: string }[]; foreign: number };

export const OBJECT_OF: Record<MetaProvider, string> = { messenger: "page", instagram: "instagram" };

/** The chat id of a Messenger / Instagram customer (PSID / IGSID); never a phone number. */
export const metaJid = (provider: MetaProvider, scopedId: string) => `${scopedId.replace(/[^\w-]/g, "")}@${provider}`;

const KIND: Record<string, { type: WaMessage["type"]; mimetype: string }> = {
  image: { type: "image", mimetype: "image/jpeg" },
  audio: { type: "audio", mimetype: "audio/mp4" },
  video: { type: "video", mimetype: "video/mp4" },
  file: { type: "document", mimetype: "application/octet-stream" },
  ig_reel: { type: "video", mimetype: "video/mp4" },
  reel: { type: "video", mimetype: "video/mp4" },
  // Instagram: the customer mentioned the account in a story (the story's media, valid for 24 h)
  story_mention: { type: "image", mimetype: "image/jpeg" },
};

const sequence0 = createMessageSequencer();

/** Maps one verified webhook body for one connection. Never throws on odd input: unknown parts are skipped. */
export const mapMessagingWebhook = (payload: MetaMessagingWebhook, conn: MetaConnectionRef, sequence: MessageSequencer = sequence0): MappedMessaging => {
  const out: MappedMessaging = { events: [], skipped: [], foreign: 0 };
  if (payload?.object !== OBJECT_OF[conn.provider]) return out;
  const base = { companyId: conn.companyId, whatsappId: conn.whatsappId };
  for (const entry of payload.entry ?? []) {
    if (entry.id !== conn.pageId) {
      out.foreign++;
      continue;
    }
    for (const ev of entry.messaging ?? []) {
      const from = ev.sender?.id;
      if (!from || from === conn.pageId) continue;
      const jid = metaJid(conn.provider, from);
      const timestamp = Math.floor((ev.timestamp ?? Date.now()) / 1000);
      const common = { chatJid: jid, fromMe: false, isGroup: false, sender: { jid }, isForwarded: false, timestamp };
      if (ev.reaction?.mid) {
        const emoji = ev.reaction.action === "unreact" ? "" : (ev.reaction.emoji ?? "");
        const id = `${ev.reaction.mid}:reaction:${from}:${ev.timestamp ?? 0}`;
        const message: WaMessage = { ...common, id, type: "reactionMessage", body: emoji, reaction: { targetId: ev.reaction.mid, emoji }, seq: sequence.next() };
        out.events.push({ ...base, type: "message", eventId: id, message });
        continue;
      }
      const m = ev.message;
      if (!m?.mid || m.is_echo || m.is_deleted) continue;
      const story = m.reply_to?.story;
      const quoted = m.reply_to?.mid ? { quotedId: m.reply_to.mid } : {};
      const texts: string[] = [];
      if (story?.url) texts.push(story.url);
      if (m.text) texts.push(m.text);
      const attachments = m.attachments ?? [];
      if (attachments.length === 0) {
        if (!m.text) {
          out.skipped.push({ id: m.mid, type: "empty" });
          continue;
        }
        const message: WaMessage = { ...common, id: m.mid, type: "chat", body: texts.join("\n"), ...quoted, seq: sequence.next() };
        out.events.push({ ...base, type: "message", eventId: m.mid, message });
        continue;
      }
      attachments.forEach((a, i) => {
        const id = i === 0 ? m.mid! : `${m.mid}:${i}`;
        const kind = KIND[a.type ?? ""];
        const url = a.payload?.url;
        if (!kind || !url) {
          // share, fallback, template ...: their link or title as text, so nothing the customer sent is lost
          const body = [a.payload?.title, url].filter(Boolean).join("\n");
          if (!body) return void out.skipped.push({ id, type: a.type ?? "unknown" });
          const message: WaMessage = { ...common, id, type: "chat", body, ...quoted, seq: sequence.next() };
          return void out.events.push({ ...base, type: "message", eventId: id, message });
        }
        const message: WaMessage = {
          ...common,
          id,
          type: a.payload?.sticker_id ? "sticker" : kind.type,
          body: i === 0 ? texts.join("\n") : "",
          ...quoted,
          remoteMedia: { provider: "meta", id, mimetype: kind.mimetype, url },
          seq: sequence.next(),
        };
        out.events.push({ ...base, type: "message", eventId: id, message });
      });
    }
  }
  return out;
};
