import { clientFrameSchema } from "@atende/shared/contracts/ws-events";
import type { Logger } from "../../platform/logger";
import type { AuthService } from "../auth/auth.service";
import type { ConnectionsRepository } from "./connections.repository";
import type { PresenceService } from "./presence.service";

export type WsResult = { statusCode: number; body?: string };

/** The WebSocket routes ($connect, $disconnect, $default) in API Gateway's contract. */
export const createSocketsService = (deps: {
  connections: ConnectionsRepository;
  presence: PresenceService;
  auth: AuthService;
  clock: () => Date;
  logger: Logger;
}) => {
  const { connections, presence, auth, clock, logger } = deps;
  return {
    async connect(connectionId: string, token: string | undefined): Promise<WsResult> {
      try {
        const { user } = await auth.authenticate(token);
        await connections.register(
          {
            connectionId,
            companyId: user.companyId,
            userId: user.id,
            profile: user.profile,
            super: user.super,
            queueIds: user.queueIds,
            allTicket: user.allTicket,
            tokenVersion: user.tokenVersion,
            rooms: [],
            connectedAt: clock().toISOString(),
          },
          clock(),
        );
        return { statusCode: 200 };
      } catch (e) {
        const status = (e as { status?: number }).status;
        return { statusCode: status === 403 ? 403 : 401, body: "Unauthorized" };
      }
    },

    async disconnect(connectionId: string): Promise<WsResult> {
      const conn = await connections.findById(connectionId);
      if (conn) await connections.remove(conn.companyId, connectionId);
      return { statusCode: 200 };
    },

    async message(connectionId: string, body: string | undefined | null): Promise<WsResult> {
      let parsed;
      try {
        parsed = clientFrameSchema.safeParse(JSON.parse(body ?? ""));
      } catch {
        return { statusCode: 400 };
      }
      if (!parsed.success) return { statusCode: 400 };
      const frame = parsed.data;
      const conn = await connections.findById(connectionId);
      if (!conn) return { statusCode: 410 };

      const room = (() => {
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
      })();
      if (room && frame.action.startsWith("join")) {
        if (!conn.rooms.includes(room)) await connections.setRooms(conn.companyId, connectionId, [...conn.rooms, room]);
      } else if (room) {
        await connections.setRooms(conn.companyId, connectionId, conn.rooms.filter((r) => r !== room));
      } else if (frame.action === "userStatus") {
        await presence.ping(conn.companyId, conn.userId);
      }
      logger.debug("ws frame", { companyId: conn.companyId, action: frame.action });
      return { statusCode: 200 };
    },
  };
};
export type SocketsService = ReturnType<typeof createSocketsService>;
