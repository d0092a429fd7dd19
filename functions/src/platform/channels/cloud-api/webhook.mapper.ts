import type { InboundEvent, WaMessage } from "@atende/shared/contracts/queue-messages";
import { createMessageSequencer, type MessageSequencer } from "@atende/shared/domain/messages/message-order";
import { failureText } from "./graph-api-errors";

/**
 * Meta's `messages` webhook (object "whatsapp_business_account") → our inbound events, the same contract the QR
 * session host speaks (docs/adr/0020-channel-port.md): each customer message becomes a `message` event whose id is
 * the wamid (the inbox deduplicates by message id; the queue's dedup id is the wamid too), each status a
 * `message.update` (our acks: sent 2, delivered 3, read 4, played 5; 1 is "accepted", from the send) or, when failed, a `command.result` carrying Meta's code
 * and title. Only entries for the connection's own phone number id are read: a payload for another number (another
 * connection, maybe another company's) produces nothing. Media stays a `remoteMedia` reference here: the consumer
 * downloads it before the message is stored.
 *
 * Status and reaction/context ids are Meta's wamids; for messages we sent they are translated to our message ids
 * by `translateIds` (the adapter stores wamid ↔ our id when Meta accepts a send).
 */
export type CloudApiConnectionRef = { companyId: number; whatsappId: number; phoneNumberId: string };

type MetaMedia = { id?: string; mime_type?: string; caption?: string; filename?: string; voice?: boolean; animated?: boolean };
type MetaContactCard = {
  name?: { formatted_name?: string; first_name?: string; last_name?: string };
  phones?: { phone?: string; wa_id?: string; type?: string }[];
  emails?: { email?: string; type?: string }[];
  org?: { company?: string };
};
export type MetaMessage = {
  from?: string;
  id?: string;
  timestamp?: string;
  type?: string;
  context?: { from?: string; id?: string; forwarded?: boolean; frequently_forwarded?: boolean };
  text?: { body?: string };
  image?: MetaMedia;
  audio?: MetaMedia;
  video?: MetaMedia;
  document?: MetaMedia;
  sticker?: MetaMedia;
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: MetaContactCard[];
  reaction?: { message_id?: string; emoji?: string };
  button?: { payload?: string; text?: string };
  interactive?: { type?: string; button_reply?: { id?: string; title?: string }; list_reply?: { id?: string; title?: string; description?: string } };
};
export type MetaStatus = {
  id?: string;
  status?: string;
  timestamp?: string;
  recipient_id?: string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
};
export type MetaWebhook = {
  object?: string;
  entry?: {
    id?: string;
    changes?: {
      field?: string;
      value?: {
        messaging_product?: string;
        metadata?: { display_phone_number?: string; phone_number_id?: string };
        contacts?: { profile?: { name?: string }; wa_id?: string }[];
        messages?: MetaMessage[];
        statuses?: MetaStatus[];
      };
    }[];
  }[];
};

export type MappedWebhook = {
  events: InboundEvent[];
  /** messages we do not map (unsupported, order, system ...): logged, never stored */
  skipped: { id: string; type: string }[];
  /** entries for another phone number id than the connection's: ignored */
  foreign: number;
};

const ACKS: Record<string, number> = { sent: 2, delivered: 3, read: 4, played: 5 };
const MEDIA_TYPES = ["image", "audio", "video", "document", "sticker"] as const;

export const jidOf = (waId: string) => `${waId.replace(/\D/g, "")}@s.whatsapp.net`;

const vcardOf = (c: MetaContactCard) => {
  const name = c.name?.formatted_name ?? [c.name?.first_name, c.name?.last_name].filter(Boolean).join(" ");
  const lines = ["BEGIN:VCARD", "VERSION:3.0", `FN:${name ?? ""}`];
  if (c.org?.company) lines.push(`ORG:${c.org.company}`);
  for (const p of c.phones ?? []) lines.push(p.wa_id ? `TEL;type=${p.type ?? "CELL"};waid=${p.wa_id}:${p.phone ?? p.wa_id}` : `TEL;type=${p.type ?? "CELL"}:${p.phone ?? ""}`);
  for (const e of c.emails ?? []) if (e.email) lines.push(`EMAIL;type=${e.type ?? "INTERNET"}:${e.email}`);
  lines.push("END:VCARD");
  return lines.join("\n");
};

/** One Meta message → the fields of our WaMessage that depend on its type; null: not mapped. */
const content = (m: MetaMessage): Pick<WaMessage, "type" | "body"> & Partial<Pick<WaMessage, "reaction" | "remoteMedia" | "replyId">> | null => {
  switch (m.type) {
    case "text":
      return { type: "chat", body: m.text?.body ?? "" };
    case "image":
    case "audio":
    case "video":
    case "document":
    case "sticker": {
      const media = m[m.type];
      if (!media?.id) return null;
      const mimetype = (media.mime_type ?? (m.type === "sticker" ? "image/webp" : "application/octet-stream")).split(";")[0]!.trim();
      return {
        type: m.type,
        body: media.caption ?? (m.type === "document" ? (media.filename ?? "") : ""),
        remoteMedia: { provider: "cloudapi", id: media.id, mimetype, ...(media.filename ? { filename: media.filename } : {}) },
      };
    }
    case "location": {
      const l = m.location ?? {};
      const link = `https://maps.google.com/maps?q=${l.latitude}%2C${l.longitude}&z=17&hl=pt-BR`;
      const description = [l.name, l.address].filter(Boolean).join(" - ");
      return { type: "locationMessage", body: `|${link}|${description}` };
    }
    case "contacts":
      return { type: "contactMessage", body: (m.contacts ?? []).map(vcardOf).join("\n") };
    case "reaction":
      if (!m.reaction?.message_id) return null;
      return { type: "reactionMessage", body: m.reaction.emoji ?? "", reaction: { targetId: m.reaction.message_id, emoji: m.reaction.emoji ?? "" } };
    case "button":
      return { type: "chat", body: m.button?.text ?? m.button?.payload ?? "" };
    case "interactive": {
      const i = m.interactive;
      // the title is what the conversation shows; the id is the customer's choice a flow's menu reads (issue 30)
      const reply = i?.type === "button_reply" ? i.button_reply : i?.type === "list_reply" ? i.list_reply : undefined;
      const replyId = reply?.id ? { replyId: reply.id.slice(0, 256) } : {};
      if (i?.type === "button_reply") return { type: "chat", body: i.button_reply?.title ?? "", ...replyId };
      if (i?.type === "list_reply") return { type: "chat", body: [i.list_reply?.title, i.list_reply?.description].filter(Boolean).join("\n"), ...replyId };
      return null;
    }
    default:
      return null;
  }
};

export const isMediaType = (t: string): t is (typeof MEDIA_TYPES)[number] => (MEDIA_TYPES as readonly string[]).includes(t);

/** This instance's sequence of Cloud API messages (docs/adr/0066): increasing across its webhooks, in payload order within one. */
const webhookSequence = createMessageSequencer();

/**
 * Maps one verified webhook body for one connection. Never throws on odd input: unknown parts are skipped. Each
 * message gets the next `seq` of `sequence` in payload order: Meta's timestamps are whole seconds, and the
 * conversation orders one second's messages by it.
 */
export const mapWebhook = (payload: MetaWebhook, conn: CloudApiConnectionRef, sequence: MessageSequencer = webhookSequence): MappedWebhook => {
  const out: MappedWebhook = { events: [], skipped: [], foreign: 0 };
  if (payload?.object !== "whatsapp_business_account") return out;
  const base = { companyId: conn.companyId, whatsappId: conn.whatsappId };
  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      if (change.field !== "messages" || !change.value) continue;
      const v = change.value;
      if (v.metadata?.phone_number_id !== conn.phoneNumberId) {
        out.foreign++;
        continue;
      }
      const names = new Map((v.contacts ?? []).map((c) => [c.wa_id ?? "", c.profile?.name]));
      for (const m of v.messages ?? []) {
        if (!m.id || !m.from) continue;
        const c = content(m);
        if (!c) {
          out.skipped.push({ id: m.id, type: m.type ?? "unknown" });
          continue;
        }
        const number = m.from.replace(/\D/g, "");
        const message: WaMessage = {
          id: m.id,
          chatJid: jidOf(number),
          fromMe: false,
          isGroup: false,
          sender: { jid: jidOf(number), number, ...(names.get(m.from) ? { pushName: names.get(m.from) } : {}) },
          ...c,
          ...(m.context?.id && m.type !== "reaction" ? { quotedId: m.context.id } : {}),
          isForwarded: Boolean(m.context?.forwarded || m.context?.frequently_forwarded),
          timestamp: Number(m.timestamp) || Math.floor(Date.now() / 1000),
          seq: sequence.next(),
        };
        out.events.push({ ...base, type: "message", eventId: m.id, message });
      }
      for (const s of v.statuses ?? []) {
        if (!s.id || !s.status || !s.recipient_id) continue;
        const chatJid = jidOf(s.recipient_id);
        if (s.status === "failed") {
          const e = s.errors?.[0];
          const error = failureText(e?.code ?? 0, e?.title ?? e?.message);
          out.events.push({ ...base, type: "command.result", eventId: `${s.id}:failed`, commandId: s.id, messageId: s.id, ok: false, error });
        } else if (ACKS[s.status] !== undefined) {
          out.events.push({ ...base, type: "message.update", eventId: `${s.id}:${s.status}`, messageId: s.id, chatJid, ack: ACKS[s.status] });
        }
      }
    }
  }
  return out;
};

/**
 * Replaces Meta's wamids of messages WE sent with our message ids (statuses, reactions to and replies quoting our
 * messages). `lookup` answers our id for a wamid, or null (a customer's message: its id already is the wamid).
 */
export const translateIds = async (event: InboundEvent, lookup: (wamid: string) => Promise<string | null>): Promise<InboundEvent> => {
  const ours = async (id: string) => (await lookup(id)) ?? id;
  switch (event.type) {
    case "message.update":
      return { ...event, messageId: await ours(event.messageId) };
    case "command.result": {
      const id = await ours(event.messageId ?? event.commandId);
      return { ...event, commandId: id, messageId: id };
    }
    case "message": {
      const m = event.message;
      const quotedId = m.quotedId ? await ours(m.quotedId) : undefined;
      const reaction = m.reaction ? { ...m.reaction, targetId: await ours(m.reaction.targetId) } : undefined;
      return { ...event, message: { ...m, ...(quotedId ? { quotedId } : {}), ...(reaction ? { reaction } : {}) } };
    }
    default:
      return event;
  }
};
