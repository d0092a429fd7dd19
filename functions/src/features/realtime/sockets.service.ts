import { clientFrameSchema, type ClientFrame } from "@atende/shared/contracts/ws-events";
import type { Logger } from "../../platform/logger";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { SocketSender } from "../../platform/realtime/sender.port";
import type { AuthService } from "../auth/auth.service";
import type { UserPresence } from "../users/users.ports";
import type { ConnectionsRepository, SocketConnection } from "./connections.repository";
import type { PresenceService } from "./presence.service";
import {
  ackPacket,
  connectAckPacket,
  connectErrorPacket,
  eventPacket,
  isServedNamespace,
  isSocketIoHandshake,
  isSupportedHandshake,
  openPacket,
  parseClientPacket,
  pingPacket,
  pongPacket,
  SOCKET_IO_PING_INTERVAL_MS,
} from "./socket-io.protocol";

export type WsResult = { statusCode: number; body?: string };
/** Told when a user's socket was registered or removed (docs/adr/0044: the agent status follows the sockets). */
export type SocketListener = (companyId: number, userId: number) => Promise<unknown>;

/** Feature jobs (jobs queue) of the Socket.IO protocol: the open packet after $connect, and the heartbeat. */
export const SOCKET_OPEN_JOB = "realtime.socketOpen";
export const SOCKET_PING_JOB = "realtime.socketPing";
export type SocketJobPayload = { connectionId: string; seq?: number };

/**
 * API Gateway refuses posts to a socket until its $connect has answered (GoneException): the open packet's job
 * retries for about 6 s in all, then gives up (the client's own connect timeout reconnects it).
 */
const OPEN_RETRY_MS = [50, 100, 200, 400, 800, 1600, 3000];

/** Socket.IO's session id for namespace "/": stable per socket, not the connection id itself. */
const socketIoSid = (connectionId: string) => `s${Buffer.from(connectionId).toString("base64url").slice(0, 20)}`;

/** Room of a join/leave frame, as our own protocol names them. */
const roomOf = (frame: ClientFrame): string | null => {
  switch (frame.action) {
    case "joinNotification":
    case "leaveNotification":
      return "notification";
    case "joinTickets":
    case "leaveTickets":
      return `tickets:${frame.data}`;
    case "joinChatBox":
    case "leaveChatBox":
      return `ticket:${frame.data}`;
    default:
      return null;
  }
};

/** The WebSocket routes ($connect, $disconnect, $default) in API Gateway's contract, for both protocols (ADR 0004, 0013). */
export const createSocketsService = (deps: {
  connections: ConnectionsRepository;
  users: Pick<UserPresence, "findById">;
  presence: PresenceService;
  auth: Pick<AuthService, "authenticateSession">;
  jobs: JobQueue;
  sender: SocketSender;
  clock: () => Date;
  logger: Logger;
  sleep?: (ms: number) => Promise<void>;
  /** after a socket was accepted, and after one went away ($disconnect); a failure is logged, never answered */
  onConnected?: SocketListener[];
  onDisconnected?: SocketListener[];
}) => {
  const { connections, users, presence, auth, jobs, sender, clock, logger } = deps;
  const tell = async (listeners: SocketListener[] | undefined, companyId: number, userId: number) => {
    for (const fn of listeners ?? []) {
      try {
        await fn(companyId, userId);
      } catch (err) {
        logger.error("socket listener failed", { companyId, err: String(err) });
      }
    }
  };
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  /** A client frame of either protocol, once decoded: rooms and presence are the same for both. */
  const apply = async (conn: SocketConnection, frame: ClientFrame) => {
    const room = roomOf(frame);
    if (room && frame.action.startsWith("join")) {
      if (!conn.rooms.includes(room)) await connections.addRoom(conn.companyId, conn.connectionId, room);
    } else if (room) {
      await connections.removeRoom(conn.companyId, conn.connectionId, room);
    } else if (frame.action === "userStatus") {
      await presence.ping(conn.companyId, conn.userId);
    }
    logger.debug("ws frame", { companyId: conn.companyId, action: frame.action });
  };

  /** Socket.IO frames: Engine.IO heartbeat, namespace connect, and the spec's events (`42["joinTickets","open"]`). */
  const socketIoMessage = async (conn: SocketConnection, body: string | null | undefined): Promise<WsResult> => {
    const packet = parseClientPacket(body);
    switch (packet.kind) {
      case "pong":
      case "noop":
      case "disconnect":
        return { statusCode: 200 };
      case "ping":
        await sender.post(conn.connectionId, pongPacket());
        return { statusCode: 200 };
      case "close":
        await sender.disconnect(conn.connectionId);
        return { statusCode: 200 };
      case "connect":
        if (!isServedNamespace(packet.namespace)) {
          await sender.post(conn.connectionId, connectErrorPacket(packet.namespace, "Invalid namespace"));
          return { statusCode: 200 };
        }
        // the namespace first, so every event published after the client's `connect` goes on it (ADR 0068)
        if (conn.namespace !== packet.namespace) await connections.setNamespace(conn.companyId, conn.connectionId, packet.namespace);
        await sender.post(conn.connectionId, connectAckPacket(socketIoSid(conn.connectionId), packet.namespace));
        // the spec's clients send their joins when they hear `ready`, as the backends they were written for say it
        await sender.post(conn.connectionId, eventPacket("ready", undefined, packet.namespace));
        return { statusCode: 200 };
      case "invalid":
        return { statusCode: 400 };
      case "event": {
        if (!isServedNamespace(packet.namespace)) return { statusCode: 400 };
        const [arg] = packet.args;
        // The spec's client sends ticket ids as numbers or strings; an event we do not serve is ignored, as Socket.IO does.
        const parsed = clientFrameSchema.safeParse(arg === undefined || arg === null ? { action: packet.name } : { action: packet.name, data: typeof arg === "number" ? String(arg) : arg });
        if (parsed.success) await apply(conn, parsed.data);
        if (packet.ackId !== undefined) await sender.post(conn.connectionId, ackPacket(packet.ackId, [], packet.namespace));
        return { statusCode: 200 };
      }
    }
  };

  return {
    async connect(connectionId: string, token: string | undefined, query: Record<string, string | undefined> = {}): Promise<WsResult> {
      const socketIo = isSocketIoHandshake(query);
      if (socketIo && !isSupportedHandshake(query)) return { statusCode: 400, body: "Unsupported transport" };
      try {
        const {
          auth: { user },
          tokenVersion,
        } = await auth.authenticateSession(token);
        const conn: SocketConnection = {
          connectionId,
          companyId: user.companyId,
          userId: user.id,
          profile: user.profile,
          super: user.super,
          queueIds: user.queueIds,
          allTicket: user.allTicket,
          tokenVersion,
          rooms: [],
          connectedAt: clock().toISOString(),
          protocol: socketIo ? "socketio" : "atende",
          ...(socketIo ? { pingSeq: 0 } : {}),
        };
        await connections.register(conn, clock());
        // A logout, deletion or permission change between authenticate and register did not see this socket:
        // read the user again now that the socket is listed (ADR 0013).
        const now = await users.findById(user.companyId, user.id);
        if (!now || now.tokenVersion !== tokenVersion) {
          await connections.remove(user.companyId, connectionId);
          return { statusCode: 401, body: "Unauthorized" };
        }
        if (now.profile !== user.profile || now.super !== user.super || now.allTicket !== user.allTicket || now.queueIds.join() !== user.queueIds.join()) {
          await connections.setPermissions(user.companyId, connectionId, { profile: now.profile, super: now.super, queueIds: now.queueIds, allTicket: now.allTicket });
        }
        if (socketIo) await jobs.enqueue({ type: "feature", companyId: user.companyId, name: SOCKET_OPEN_JOB, payload: { connectionId } });
        await tell(deps.onConnected, user.companyId, user.id);
        return { statusCode: 200 };
      } catch (e) {
        const status = (e as { status?: number }).status;
        if (status === undefined) logger.error("ws connect failed", { err: String(e) });
        return { statusCode: status === 403 ? 403 : 401, body: "Unauthorized" };
      }
    },

    async disconnect(connectionId: string): Promise<WsResult> {
      const conn = await connections.findById(connectionId);
      if (conn) {
        await connections.remove(conn.companyId, connectionId);
        await tell(deps.onDisconnected, conn.companyId, conn.userId);
      }
      return { statusCode: 200 };
    },

    async message(connectionId: string, body: string | undefined | null): Promise<WsResult> {
      const conn = await connections.findById(connectionId);
      if (!conn) return { statusCode: 410 };
      if (conn.protocol === "socketio") return socketIoMessage(conn, body);
      let parsed;
      try {
        parsed = clientFrameSchema.safeParse(JSON.parse(body ?? ""));
      } catch {
        return { statusCode: 400 };
      }
      if (!parsed.success) return { statusCode: 400 };
      await apply(conn, parsed.data);
      return { statusCode: 200 };
    },

    /**
     * Job after a Socket.IO $connect: the Engine.IO open packet (API Gateway cannot post during $connect), then
     * the first heartbeat job. Retries while the socket is still being accepted; stops if it went away.
     */
    async sendOpen(companyId: number, connectionId: string): Promise<void> {
      for (const wait of [0, ...OPEN_RETRY_MS]) {
        if (wait) await sleep(wait);
        const conn = await connections.findById(connectionId);
        if (!conn || conn.companyId !== companyId) return;
        if ((await sender.post(connectionId, openPacket(socketIoSid(connectionId)))) === "ok") {
          await jobs.enqueue({ type: "feature", companyId, name: SOCKET_PING_JOB, payload: { connectionId, seq: 0 } }, SOCKET_IO_PING_INTERVAL_MS / 1000);
          return;
        }
      }
      logger.warn("socket.io open packet not delivered", { companyId, connectionId });
      const conn = await connections.findById(connectionId);
      await connections.remove(companyId, connectionId);
      if (conn) await tell(deps.onDisconnected, companyId, conn.userId);
    },

    /**
     * The heartbeat: one ping per socket every SOCKET_IO_PING_INTERVAL_MS, each job scheduling the next. The
     * sequence number on the socket drops a duplicate delivery (SQS is at-least-once), so a socket has one chain.
     */
    async sendPing(companyId: number, connectionId: string, seq: number): Promise<void> {
      const conn = await connections.findById(connectionId);
      if (!conn || conn.companyId !== companyId || conn.pingSeq !== seq) return;
      if ((await sender.post(connectionId, pingPacket())) === "gone") {
        await connections.remove(companyId, connectionId);
        await tell(deps.onDisconnected, companyId, conn.userId);
        return;
      }
      // A failed post throws before the sequence moves, so SQS's retry of this job pings again.
      if (!(await connections.advancePing(companyId, connectionId, seq))) return;
      await jobs.enqueue({ type: "feature", companyId, name: SOCKET_PING_JOB, payload: { connectionId, seq: seq + 1 } }, SOCKET_IO_PING_INTERVAL_MS / 1000);
    },
  };
};
export type SocketsService = ReturnType<typeof createSocketsService>;
