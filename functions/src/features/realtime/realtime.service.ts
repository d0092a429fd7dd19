import type { RealtimeEvent, ServerFrame } from "@atende/shared/contracts/ws-events";
import { companyChannel } from "@atende/shared/contracts/ws-events";
import { canSeeTicket, type TicketScope } from "@atende/shared/domain/tickets/visibility";
import type { Logger } from "../../platform/logger";
import type { SocketSender } from "../../platform/realtime/sender.port";
import { inUnitOfWork } from "../../platform/unit-of-work";
import type { ConnectionsRepository, SocketConnection, SocketPermissions } from "./connections.repository";
import { disconnectPacket, eventPacket, SOCKET_IO_NAMESPACES, socketIoEventNames } from "./socket-io.protocol";

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

/**
 * $connect registers a socket before it answers, and API Gateway answers GoneException to posts to the connection
 * until the handshake is complete (its $connect integration waits at most 29 s): a socket younger than this that
 * answers "gone" may still be being accepted, so it keeps its record (the frame is lost, as any frame before the
 * socket opened). Older, it is gone and forgotten; a socket that opened and went away is removed by its $disconnect.
 */
export const CONNECT_WINDOW_MS = 30_000;

/**
 * The namespaces a Socket.IO socket's packets go on: the one it connected, or, before its connect packet arrived,
 * every namespace served: the client buffers a namespace's events until that namespace connects and drops the
 * other's, so nothing published in that window is lost (ADR 0068).
 */
const namespacesOf = (conn: SocketConnection): readonly string[] => (conn.namespace ? [conn.namespace] : SOCKET_IO_NAMESPACES);

export const createRealtimeService = (deps: { connections: ConnectionsRepository; sender: SocketSender; logger: Logger; clock: () => Date }) => {
  const { connections, sender, logger, clock } = deps;

  /** Our own protocol gets one `{channel, event, data}` frame; a Socket.IO socket one packet per spec event name. */
  const framesFor = <T>(conn: SocketConnection, companyId: number, event: RealtimeEvent, data: T): unknown[] => {
    if (conn.protocol === "socketio") {
      const names = socketIoEventNames(companyId, event, data, conn.userId);
      return namespacesOf(conn).flatMap((ns) => names.map((name) => eventPacket(name, data, ns)));
    }
    const frame: ServerFrame<T> = { channel: companyChannel(companyId, event), event, data };
    return [frame];
  };

  const userSockets = async (companyId: number, userId: number) =>
    (await connections.listByCompany(companyId)).filter((c) => c.companyId === companyId && c.userId === userId);

  return {
    /**
     * Starts the read `publish` will make (the company's open sockets, memoised inside a unit of work, ADR 0058), so
     * it shares the caller's first round trip; a failure is left to `publish`'s own read. Outside a unit of work: nothing.
     */
    readEarly(companyId: number): void {
      if (inUnitOfWork()) void connections.listByCompany(companyId).catch(() => undefined);
    },

    async publish<T>(companyId: number, event: RealtimeEvent, data: T, audience: Audience = { kind: "company" }): Promise<number> {
      const targets = (await connections.listByCompany(companyId)).filter((c) => c.companyId === companyId && matches(c, audience));
      let delivered = 0;
      await Promise.all(
        targets.map(async (conn) => {
          try {
            for (const frame of framesFor(conn, companyId, event, data)) {
              const result = await sender.post(conn.connectionId, frame);
              if (result === "gone") {
                // a record whose connectedAt cannot be read (NaN) counts as old
                const accepting = clock().getTime() - Date.parse(conn.connectedAt) < CONNECT_WINDOW_MS;
                if (!accepting) await connections.remove(companyId, conn.connectionId);
                return;
              }
            }
            delivered++;
          } catch (err) {
            logger.warn("realtime post failed", { companyId, connectionId: conn.connectionId, err: String(err) });
          }
        }),
      );
      return delivered;
    },

    /**
     * Logout, password change, deletion: the user's sockets are closed (DeleteConnection) and forgotten at once,
     * so no event reaches them even before API Gateway's $disconnect arrives. A Socket.IO client is told first
     * (disconnect packet) so it does not reconnect on its own. Returns how many sockets were closed.
     * `olderThan`: only the sockets of sessions before that token version (a new sign-in closes the older session's).
     */
    async closeUserSockets(companyId: number, userId: number, opts: { olderThan?: number } = {}): Promise<number> {
      const sockets = (await userSockets(companyId, userId)).filter((c) => opts.olderThan === undefined || c.tokenVersion < opts.olderThan);
      await Promise.all(
        sockets.map(async (conn) => {
          await connections.remove(companyId, conn.connectionId);
          try {
            if (conn.protocol === "socketio") for (const ns of namespacesOf(conn)) await sender.post(conn.connectionId, disconnectPacket(ns));
            await sender.disconnect(conn.connectionId);
          } catch (err) {
            logger.warn("realtime disconnect failed", { companyId, connectionId: conn.connectionId, err: String(err) });
          }
        }),
      );
      return sockets.length;
    },

    /** A profile or queue change: the user's open sockets receive only what the new permissions allow, from now on. */
    async refreshUserSockets(companyId: number, userId: number, permissions: SocketPermissions): Promise<void> {
      const sockets = await userSockets(companyId, userId);
      await Promise.all(
        sockets.map((conn) =>
          connections.setPermissions(companyId, conn.connectionId, {
            profile: permissions.profile,
            super: permissions.super,
            queueIds: permissions.queueIds ?? [],
            allTicket: permissions.allTicket,
          }),
        ),
      );
    },
  };
};
export type RealtimeService = ReturnType<typeof createRealtimeService>;
