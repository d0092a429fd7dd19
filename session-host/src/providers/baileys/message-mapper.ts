import type { Readable } from "node:stream";
import type { proto, WAMessage } from "baileys";
import type { InboundMedia, MessageUpdate, ProviderMessage } from "../provider.port";

/**
 * Baileys message -> our waMessage (or a message update for edits and deletes).
 * Pure: media bytes are fetched through the `download` callback the provider supplies.
 */
export type Mapped = { kind: "message"; message: ProviderMessage } | { kind: "update"; update: MessageUpdate } | { kind: "ignore"; reason: string };

type Content = proto.IMessage;

/** Wrappers WhatsApp puts around the real content (disappearing, view once, captioned documents, edits). */
const WRAPPERS = [
  "ephemeralMessage",
  "viewOnceMessage",
  "viewOnceMessageV2",
  "viewOnceMessageV2Extension",
  "documentWithCaptionMessage",
  "editedMessage",
] as const;

export const unwrap = (content: Content | null | undefined): Content | undefined => {
  let c = content ?? undefined;
  for (let depth = 0; c && depth < 5; depth++) {
    const wrapper = WRAPPERS.find((w) => c?.[w]?.message);
    if (!wrapper) break;
    c = c[wrapper]?.message ?? undefined;
  }
  return c;
};

const toNumber = (v: unknown): number => {
  if (typeof v === "number") return v;
  if (v && typeof v === "object" && "toNumber" in v && typeof (v as { toNumber: unknown }).toNumber === "function") return (v as { toNumber(): number }).toNumber();
  return Number(v ?? 0);
};

const userOf = (jid: string | null | undefined) => (jid ?? "").split("@")[0]?.split(":")[0] ?? "";
const isLid = (jid: string | null | undefined) => Boolean(jid?.endsWith("@lid"));
const isPn = (jid: string | null | undefined) => Boolean(jid?.endsWith("@s.whatsapp.net") || jid?.endsWith("@c.us"));

/**
 * Who wrote it, with both identities when WhatsApp gave them (v7 addressing: a LID and its phone number in
 * `*Alt`), so the functions resolve one person to one contact.
 */
export const senderOf = (msg: WAMessage) => {
  const key = msg.key;
  const group = Boolean(key.remoteJid?.endsWith("@g.us"));
  const jid = (group ? key.participant : key.remoteJid) ?? "";
  const alt = group ? key.participantAlt : key.remoteJidAlt;
  const lid = isLid(jid) ? jid : isLid(alt) ? alt : undefined;
  const pn = isPn(jid) ? jid : isPn(alt) ? alt : undefined;
  return { jid, number: pn ? userOf(pn) : undefined, lid: lid ?? undefined, pushName: msg.pushName ?? undefined };
};

const contextOf = (c: Content) => {
  const inner =
    c.extendedTextMessage ??
    c.imageMessage ??
    c.videoMessage ??
    c.ptvMessage ??
    c.audioMessage ??
    c.documentMessage ??
    c.stickerMessage ??
    c.locationMessage ??
    c.contactMessage ??
    c.pollCreationMessage ??
    c.pollCreationMessageV2 ??
    c.pollCreationMessageV3;
  return (inner as { contextInfo?: proto.IContextInfo | null } | null | undefined)?.contextInfo ?? undefined;
};

const MEDIA_FIELDS = [
  ["imageMessage", "image"],
  ["videoMessage", "video"],
  ["audioMessage", "audio"],
  ["documentMessage", "document"],
  ["stickerMessage", "sticker"],
  // round video notes ("PTV"): a video for the ticket
  ["ptvMessage", "video"],
] as const;

export const mapBaileysMessage = (msg: WAMessage, download: (msg: WAMessage) => Promise<Buffer>, stream?: (msg: WAMessage) => Promise<Readable>): Mapped => {
  const chatJid = msg.key.remoteJid ?? "";
  const id = msg.key.id ?? "";
  if (!chatJid || !id) return { kind: "ignore", reason: "no key" };
  if (chatJid === "status@broadcast" || chatJid.endsWith("@newsletter") || chatJid.endsWith("@broadcast")) return { kind: "ignore", reason: "status/broadcast" };
  const raw = msg.message;
  if (!raw) return { kind: "ignore", reason: msg.messageStubType ? "stub" : "empty" };

  // Edits arrive as editedMessage{ protocolMessage{ type: MESSAGE_EDIT } } or a bare protocolMessage.
  const proto = raw.protocolMessage ?? raw.editedMessage?.message?.protocolMessage ?? unwrap(raw)?.protocolMessage;
  if (proto) {
    const target = proto.key?.id ?? "";
    // proto.Message.ProtocolMessage.Type: REVOKE = 0, MESSAGE_EDIT = 14
    if (proto.type === 0 && target) return { kind: "update", update: { messageId: target, chatJid, isDeleted: true } };
    if (proto.type === 14 && target) {
      const edited = unwrap(proto.editedMessage);
      const body = edited?.conversation ?? edited?.extendedTextMessage?.text ?? edited?.imageMessage?.caption ?? edited?.videoMessage?.caption ?? "";
      return { kind: "update", update: { messageId: target, chatJid, body } };
    }
    return { kind: "ignore", reason: "protocol" };
  }

  const c = unwrap(raw);
  if (!c) return { kind: "ignore", reason: "empty" };
  const ctx = contextOf(c);
  const base = {
    id,
    chatJid,
    fromMe: Boolean(msg.key.fromMe),
    isGroup: chatJid.endsWith("@g.us"),
    sender: senderOf(msg),
    quotedId: ctx?.stanzaId ?? undefined,
    isForwarded: Boolean(ctx?.isForwarded),
    timestamp: toNumber(msg.messageTimestamp),
  };

  if (c.reactionMessage) {
    const targetId = c.reactionMessage.key?.id ?? "";
    const emoji = c.reactionMessage.text ?? "";
    return { kind: "message", message: { ...base, type: "reactionMessage", body: emoji, reaction: { targetId, emoji } } };
  }
  if (c.conversation !== undefined && c.conversation !== null) return { kind: "message", message: { ...base, type: "chat", body: c.conversation } };
  if (c.extendedTextMessage) return { kind: "message", message: { ...base, type: "chat", body: c.extendedTextMessage.text ?? "" } };

  for (const [field, type] of MEDIA_FIELDS) {
    const m = c[field] as (proto.Message.IImageMessage & proto.Message.IDocumentMessage & proto.Message.IAudioMessage) | null | undefined;
    if (!m) continue;
    const mimetype = (m.mimetype ?? (type === "sticker" ? "image/webp" : "application/octet-stream")).split(";")[0]?.trim() ?? "";
    const media: InboundMedia = { mimetype, filename: m.fileName ?? undefined, download: () => download(msg), ...(stream ? { stream: () => stream(msg) } : {}) };
    const body = m.caption ?? (type === "document" ? (m.fileName ?? "") : "");
    return { kind: "message", message: { ...base, type, body, media } };
  }

  const loc = c.locationMessage ?? c.liveLocationMessage;
  if (loc) {
    const thumb = loc.jpegThumbnail ? `data:image/jpeg;base64,${Buffer.from(loc.jpegThumbnail).toString("base64")}` : "";
    const link = `https://maps.google.com/maps?q=${loc.degreesLatitude}%2C${loc.degreesLongitude}&z=17&hl=pt-BR`;
    const description = (c.locationMessage?.name ?? c.locationMessage?.address ?? c.liveLocationMessage?.caption ?? "") || "";
    return { kind: "message", message: { ...base, type: "locationMessage", body: `${thumb}|${link}|${description}` } };
  }
  if (c.contactMessage) return { kind: "message", message: { ...base, type: "contactMessage", body: c.contactMessage.vcard ?? "" } };
  if (c.contactsArrayMessage) {
    const body = (c.contactsArrayMessage.contacts ?? []).map((x) => x.vcard ?? "").join("\n");
    return { kind: "message", message: { ...base, type: "contactMessage", body } };
  }
  const poll = c.pollCreationMessage ?? c.pollCreationMessageV2 ?? c.pollCreationMessageV3;
  if (poll) {
    // a poll reads as its question and options; votes arrive encrypted (pollUpdateMessage) and are not shown
    const options = (poll.options ?? []).map((o) => `• ${o.optionName ?? ""}`);
    return { kind: "message", message: { ...base, type: "chat", body: [`📊 ${poll.name ?? ""}`, ...options].join("\n") } };
  }
  if (c.pollUpdateMessage) return { kind: "ignore", reason: "poll vote" };
  const buttons = c.buttonsResponseMessage?.selectedDisplayText ?? c.listResponseMessage?.title ?? c.templateButtonReplyMessage?.selectedDisplayText;
  if (buttons) return { kind: "message", message: { ...base, type: "chat", body: buttons } };
  return { kind: "ignore", reason: "unsupported content" };
};

/** Baileys message-update status -> our ack (1 sent, 2 server, 3 delivered, 4 read, 5 played). */
export const ackOf = (status: number | null | undefined): number | undefined => {
  // proto.WebMessageInfo.Status: ERROR 0, PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5
  if (status === null || status === undefined) return undefined;
  return Math.max(0, Math.min(5, status));
};
