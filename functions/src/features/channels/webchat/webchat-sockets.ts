import type { Logger } from "../../../platform/logger";
import type { AttemptLimiter } from "../../../platform/limits/attempt-limiter";
import type { SocketSender } from "../../../platform/realtime/sender.port";
import type { WebchatAccess } from "./webchat-access";
import { visitorIdOf } from "./webchat-identity";
import type { WebchatRepository } from "./webchat.repository";
import type { VisitorMessage } from "./webchat.service";

/** The query of a visitor's socket: `?webchat=<publicKey>&token=<visitor token>` (docs/adr/0096). */
export const isVisitorHandshake = (query: Record<string, string | undefined> | undefined) => Boolean(query?.webchat);
/** The widget's keep-alive frame (API Gateway closes a socket idle for 10 minutes); answered by nothing. */
export const VISITOR_PING = '{"action":"webchat.ping"}';
/**
 * What a visitor socket receives: only their own conversation's messages the company sent. Its own small protocol,
 * not the agents' `{ channel, event, data }` realtime events (shared/src/contracts/ws-events.ts).
 */
export type VisitorFrame = { type: "message"; message: VisitorMessage };

/**
 * Socket opens per visitor session (the one limiter, docs/adr/0064): the widget's backoff opens a few a minute at
 * most. Per address they are bounded by the sessions an address may make (20 an hour, WEBCHAT_LIMITS) times this;
 * the WebSocket event's source address is CloudFront's edge, not the visitor's, so no address rule is keyed on it.
 */
export const SOCKET_OPENS_PER_SESSION = { limit: 20, windowSeconds: 60 };

const header = (headers: Record<string, string | undefined> | undefined, name: string) =>
  Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];

/**
 * The website chat visitor's realtime (docs/adr/0096): a socket opened with the visitor's token, from one of the
 * connection's allowed origins, is registered under that company's and visitor's key and nothing else, so it can
 * only ever receive that visitor's own messages; the company's events (tickets, notes, other conversations) go to
 * agents' sockets, a list this one is never on.
 */
export const createWebchatSockets = (deps: { repo: WebchatRepository; access: WebchatAccess; limiter: AttemptLimiter; sender: SocketSender; clock: () => Date; logger: Logger }) => {
  const { repo, access, sender, clock, logger } = deps;
  return {
    /** $connect: 200 for a valid token from an allowed origin; 403 for another origin; 401 for a bad token; 429 over the limit. */
    async connect(connectionId: string, query: Record<string, string | undefined>, headers: Record<string, string | undefined> | undefined) {
      try {
        const { settings, session } = await access.visitor(query.webchat ?? "", header(headers, "origin"), query.token);
        await deps.limiter.take(`webchat:socket:${session.visitorId}`, SOCKET_OPENS_PER_SESSION);
        await repo.putSocket({ connectionId, companyId: settings.companyId, whatsappId: settings.whatsappId, visitorId: session.visitorId }, clock());
        return { statusCode: 200 };
      } catch (e) {
        const status = (e as { status?: number }).status;
        if (status === undefined) logger.error("webchat socket connect failed", { err: String(e) });
        if (status === 403 || status === 429) return { statusCode: status, body: status === 403 ? "Forbidden" : "Too Many Requests" };
        return { statusCode: 401, body: "Unauthorized" };
      }
    },
    /** $disconnect: true when it was a visitor's socket (then removed). */
    async disconnect(connectionId: string): Promise<boolean> {
      const socket = await repo.socket(connectionId);
      if (!socket) return false;
      await repo.removeSocket(socket);
      return true;
    },
    /** A message the company sent to a visitor, pushed to that visitor's open sockets (a closed one is forgotten). */
    async push(companyId: number, chatJid: string, message: VisitorMessage): Promise<void> {
      const visitorId = visitorIdOf(chatJid);
      if (!visitorId) return;
      const frame: VisitorFrame = { type: "message", message };
      for (const socket of await repo.socketsOf(companyId, visitorId)) {
        if ((await sender.post(socket.connectionId, frame)) === "gone") await repo.removeSocket(socket);
      }
    },
  };
};
export type WebchatSockets = ReturnType<typeof createWebchatSockets>;
