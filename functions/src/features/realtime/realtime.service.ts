import type { RealtimeEvent, ServerFrame } from "@atende/shared/contracts/ws-events";
import { companyChannel } from "@atende/shared/contracts/ws-events";
import { canSeeTicket, type TicketScope } from "@atende/shared/domain/tickets/visibility";
import type { Logger } from "../../platform/logger";
import type { SocketSender } from "../../platform/realtime/sender.port";
import type { ConnectionsRepository, SocketConnection } from "./connections.repository";

/** Who in the company receives an event. Nothing ever leaves the company's own sockets. */
export type Audience =
  | { kind: "company" }
  | { kind: "admins" }
  | { kind: "users"; userIds: number[] }
  | { kind: "ticket"; ticket: TicketScope }
  | { kind: "olderSessions"; userId: number; tokenVersion: number }
  | { kind: "room"; room: string };

const matches = (conn: SocketConnection, audience: Audience): boolean => {
  switch (audience.kind) {
    case "company":
      return true;
    case "admins":
      return conn.profile === "admin";
    case "users":
      return audience.userIds.includes(conn.userId);
    case "ticket":
      return canSeeTicket(conn, audience.ticket);
    case "olderSessions":
      return conn.userId === audience.userId && conn.tokenVersion < audience.tokenVersion;
    case "room":
      return conn.rooms.includes(audience.room);
  }
};

export const createRealtimeService = (deps: { connections: ConnectionsRepository; sender: SocketSender; logger: Logger }) => {
  const { connections, sender, logger } = deps;
  return {
    async publish<T>(companyId: number, event: RealtimeEvent, data: T, audience: Audience = { kind: "company" }): Promise<number> {
      const frame: ServerFrame<T> = { channel: companyChannel(companyId, event), event, data };
      const targets = (await connections.listByCompany(companyId)).filter((c) => c.companyId === companyId && matches(c, audience));
      let delivered = 0;
      await Promise.all(
        targets.map(async (conn) => {
          try {
            const result = await sender.post(conn.connectionId, frame);
            if (result === "gone") await connections.remove(companyId, conn.connectionId);
            else delivered++;
          } catch (err) {
            logger.warn("realtime post failed", { companyId, connectionId: conn.connectionId, err: String(err) });
          }
        }),
      );
      return delivered;
    },
  };
};
export type RealtimeService = ReturnType<typeof createRealtimeService>;
