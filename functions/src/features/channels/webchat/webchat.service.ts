import { randomBytes, randomUUID } from "node:crypto";
import type { Message } from "@atende/shared/domain/messages/message";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import { MAX_MESSAGE_MEDIA_BYTES } from "@atende/shared/constants/business";
import { AppError } from "../../../platform/errors";
import type { AttemptLimiter } from "../../../platform/limits/attempt-limiter";
import { checkAttachment } from "../../../platform/http/upload-check";
import type { UploadedFile } from "../../../platform/http/uploaded-file";
import { chatOfEvent, type InboundQueue } from "../../../platform/queues/inbound-queue.port";
import { mediaKeyFor, type MediaStore } from "../../../platform/storage/media-store.port";
import type { WebchatRepository, WebchatSession, WebchatSettings } from "./webchat.repository";
import { visitorJid } from "./webchat-identity";
import { createWebchatAccess, hashToken } from "./webchat-access";
import { noMetrics, recordMessageIn, type Metrics } from "../../../platform/metrics";

/** What a visitor sees of a message: never the agent's name, notes, errors or internal keys. */
export type VisitorMessage = { id: string; fromMe: boolean; body: string; mediaType: string; mediaName: string | null; createdAt: string };

/** Rate rules (docs/adr/0064 limiter): sessions per address, messages per session and per address. */
export const WEBCHAT_LIMITS = {
  sessionsPerAddress: { limit: 20, windowSeconds: 3600 },
  messagesPerSession: { limit: 30, windowSeconds: 60 },
  messagesPerAddress: { limit: 120, windowSeconds: 60 },
};

export { normalizeOrigin } from "./webchat-access";

export const createWebchatService = (deps: {
  repo: WebchatRepository;
  inbound: InboundQueue;
  media: MediaStore;
  limiter: AttemptLimiter;
  clock: () => Date;
  /** a contact's conversation, newest first (the inbox's messages) */
  conversation: (companyId: number, jid: string, limit: number) => Promise<Message[]>;
  limits?: typeof WEBCHAT_LIMITS;
  /** messages in, by provider (the channels' dashboard row and runbooks, docs/operations.md) */
  metrics?: Metrics;
}) => {
  const { repo, inbound, clock } = deps;
  const limits = deps.limits ?? WEBCHAT_LIMITS;

  const access = createWebchatAccess({ repo, clock });
  const { connection, sessionOf } = access;

  const enqueue = async (s: WebchatSettings, session: WebchatSession, body: string, media?: { key: string; mimetype: string; filename: string; size: number; kind: string }) => {
    const now = clock();
    const id = `WC${randomUUID().replace(/-/g, "").toUpperCase()}`;
    const jid = visitorJid(session.visitorId);
    const type = media ? (["image", "audio", "video"].includes(media.kind) ? (media.kind as "image") : "document") : "chat";
    const event: InboundEvent = {
      eventId: id,
      type: "message",
      companyId: s.companyId,
      whatsappId: s.whatsappId,
      message: {
        id,
        chatJid: jid,
        fromMe: false,
        isGroup: false,
        sender: { jid, pushName: session.name || session.email || session.phone || undefined },
        type,
        body,
        media: media ? { key: media.key, mimetype: media.mimetype, filename: media.filename, size: media.size } : undefined,
        isForwarded: false,
        timestamp: Math.floor(now.getTime() / 1000),
      },
    };
    await inbound.put(event, chatOfEvent(event));
    recordMessageIn(deps.metrics ?? noMetrics, "webchat");
    return { id };
  };

  return {
    connection,
    /** The widget's settings (colour, greeting, what to ask): public, for an allowed origin only. */
    async widgetConfig(publicKey: string, origin: string | undefined) {
      const s = await connection(publicKey, origin);
      return { greeting: s.greeting, color: s.color, ask: s.ask };
    },
    async createSession(publicKey: string, origin: string | undefined, address: string, who: { name?: string; email?: string; phone?: string }) {
      const s = await connection(publicKey, origin);
      await deps.limiter.take(`webchat:session:${address}`, limits.sessionsPerAddress);
      const token = randomBytes(32).toString("base64url");
      const visitorId = `wc${randomBytes(12).toString("hex")}`;
      await repo.putSession(hashToken(token), { companyId: s.companyId, whatsappId: s.whatsappId, publicKey, visitorId, ...who, createdAt: clock().toISOString() }, clock());
      return { token };
    },
    /** The visitor of a token on this connection (the socket's authentication, too). */
    async visitor(publicKey: string, origin: string | undefined, token: string | undefined) {
      const s = await connection(publicKey, origin);
      return { settings: s, session: await sessionOf(s, token) };
    },
    async send(publicKey: string, origin: string | undefined, token: string | undefined, address: string, input: { body?: string; file?: UploadedFile }) {
      const s = await connection(publicKey, origin);
      const session = await sessionOf(s, token);
      await deps.limiter.takeAll([
        { key: `webchat:msg:${session.visitorId}`, rule: limits.messagesPerSession },
        { key: `webchat:msgaddr:${address}`, rule: limits.messagesPerAddress },
      ]);
      const body = (input.body ?? "").slice(0, 4096);
      if (!input.file) {
        if (!body.trim()) throw new AppError("ERR_VALIDATION", { field: "body" });
        return enqueue(s, session, body);
      }
      if (input.file.bytes.byteLength > MAX_MESSAGE_MEDIA_BYTES) throw new AppError("ERR_WAPP_MEDIA_TOO_LARGE");
      const checked = checkAttachment(input.file);
      const filename = checked.name.replace(/[^\w.\- ]+/g, "_").slice(0, 120) || `file.${checked.sniffed.ext}`;
      const key = mediaKeyFor(s.companyId, `WCF${randomUUID().replace(/-/g, "")}`, filename);
      await deps.media.put(key, checked.bytes, checked.type);
      return enqueue(s, session, body, { key, mimetype: checked.type, filename, size: checked.bytes.byteLength, kind: checked.sniffed.kind });
    },
    /** The visitor's own conversation, oldest first (the last 100 messages). */
    async messages(publicKey: string, origin: string | undefined, token: string | undefined): Promise<VisitorMessage[]> {
      const s = await connection(publicKey, origin);
      const session = await sessionOf(s, token);
      const list = await deps.conversation(s.companyId, visitorJid(session.visitorId), 100);
      return list
        .filter((m) => !m.isDeleted)
        .reverse()
        .map((m) => ({ id: m.id, fromMe: m.fromMe, body: m.body, mediaType: m.mediaType, mediaName: m.mediaName, createdAt: (m as { createdAt?: string }).createdAt ?? "" }));
    },
  };
};
export type WebchatService = ReturnType<typeof createWebchatService>;
