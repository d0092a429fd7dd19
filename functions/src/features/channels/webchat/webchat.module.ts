import { randomBytes } from "node:crypto";
import type { Message } from "@atende/shared/domain/messages/message";
import type { FeatureModule } from "../../../platform/modules/feature-module";
import type { Db } from "../../../platform/db/client";
import type { AttemptLimiter } from "../../../platform/limits/attempt-limiter";
import { chatOfEvent, type InboundQueue } from "../../../platform/queues/inbound-queue.port";
import type { MediaStore } from "../../../platform/storage/media-store.port";
import type { SocketSender } from "../../../platform/realtime/sender.port";
import type { Logger } from "../../../platform/logger";
import { createWebchatChannel } from "../../../platform/channels/webchat/webchat-channel.adapter";
import { webchatFieldsSchema } from "@atende/shared/domain/channels/webchat";
import type { ChannelFeature } from "../channel-feature";
import { createWebchatRepository, type WebchatSettings } from "./webchat.repository";
import { createWebchatService, normalizeOrigin, type WEBCHAT_LIMITS } from "./webchat.service";
import { webchatRoutes } from "./webchat.routes";
import { createWebchatAccess } from "./webchat-access";
import { createWebchatSockets } from "./webchat-sockets";
import { noMetrics, recordMessageOut, type Metrics } from "../../../platform/metrics";

/** What the connection's form sets (the public key is made once and kept). */
export type WebchatConfigInput = Omit<WebchatSettings, "companyId" | "whatsappId" | "publicKey">;

/**
 * The company's own website chat (issue 31 item 3, docs/adr/0092): the public visitor API under /api/webchat,
 * its channel (sending = telling the visitor), and the connection's settings.
 */
export const createWebchatModule = (deps: {
  db: Db;
  inbound: InboundQueue;
  media: MediaStore;
  limiter: AttemptLimiter;
  clock: () => Date;
  /** posts to sockets (the visitor's realtime, docs/adr/0096) */
  sender: SocketSender;
  logger: Logger;
  /** a contact's conversation, newest first (read when a visitor asks; the inbox is built after this module) */
  conversation: (companyId: number, jid: string, limit: number) => Promise<Message[]>;
  limits?: typeof WEBCHAT_LIMITS;
  metrics?: Metrics;
}) => {
  const repo = createWebchatRepository(deps.db);
  const service = createWebchatService({ ...deps, repo });
  const sockets = createWebchatSockets({ repo, access: createWebchatAccess({ repo, clock: deps.clock }), limiter: deps.limiter, sender: deps.sender, clock: deps.clock, logger: deps.logger });
  const channel = createWebchatChannel({
    report: (event) => deps.inbound.put(event, chatOfEvent(event)),
    // the reply goes to the visitor's open widget at once; a failed push is only logged (the widget also reads)
    push: async (command) => {
      const message = { id: command.messageId, fromMe: true, body: command.body, mediaType: command.media?.kind ?? "chat", mediaName: command.media?.filename ?? null, createdAt: deps.clock().toISOString() };
      recordMessageOut(deps.metrics ?? noMetrics, "webchat");
      await sockets.push(command.companyId, command.chatJid, message).catch((err: unknown) => deps.logger.warn("webchat push failed", { companyId: command.companyId, err: String(err) }));
    },
  });
  const mod: FeatureModule<typeof service> = { service, routes: [{ path: "/webchat", app: webchatRoutes(service) }] };
  /** Saves a connection's website chat settings; answers its public key (made on first save). */
  const configure = async (companyId: number, whatsappId: number, input: WebchatConfigInput): Promise<WebchatSettings> => {
      const existing = await repo.byConnection(companyId, whatsappId);
      const settings: WebchatSettings = {
        ...input,
        allowedOrigins: [...new Set(input.allowedOrigins.map(normalizeOrigin))],
        companyId,
        whatsappId,
        publicKey: existing?.publicKey ?? `wk_${randomBytes(16).toString("hex")}`,
      };
      await repo.put(settings);
      return settings;
  };
  /** What POST/PUT/GET/DELETE /whatsapp call for provider "webchat" (docs/adr/0088); no secret of its own. */
  const connections: ChannelFeature["connections"] = {
    parseFields: async (input) => webchatFieldsSchema.parse(input),
    configure: (companyId, whatsappId, fields) => {
      const f = fields as ReturnType<typeof webchatFieldsSchema.parse>;
      return configure(companyId, whatsappId, { allowedOrigins: f.allowedOrigins, greeting: f.greeting, color: f.color, ask: { name: f.askName, email: f.askEmail, phone: f.askPhone } });
    },
    check: async (companyId, whatsappId) => {
      const s = await repo.byConnection(companyId, whatsappId);
      return s ? { ok: true, number: s.allowedOrigins[0]?.replace(/^https?:\/\//, "") ?? "" } : { ok: false, error: "ERR_NO_WAPP_FOUND" };
    },
    view: async (companyId, whatsappId, origin) => {
      const s = await repo.byConnection(companyId, whatsappId);
      if (!s) return null;
      const snippet = `<script src="${origin}/webchat.js" data-key="${s.publicKey}" async></script>`;
      return { provider: "webchat", publicKey: s.publicKey, allowedOrigins: s.allowedOrigins, greeting: s.greeting, color: s.color, askName: s.ask.name, askEmail: s.ask.email, askPhone: s.ask.phone, snippet };
    },
    remove: (companyId, whatsappId) => repo.remove(companyId, whatsappId),
  };
  const feature: ChannelFeature = { provider: "webchat", connections, channel, module: mod };
  return { ...mod, repo, channel, sockets, configure, connections, feature };
};
export type WebchatModule = ReturnType<typeof createWebchatModule>;
