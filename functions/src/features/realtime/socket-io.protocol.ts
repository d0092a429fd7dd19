import type { RealtimeEvent } from "@atende/shared/contracts/ws-events";

/**
 * The Socket.IO protocol (Engine.IO v4 framing, websocket transport only) that the spec's clients speak,
 * served beside our own `{channel, event, data}` frames on the same WebSocket API (ADR 0013).
 * Pure encoding and decoding; the sockets service and the realtime fan-out use it.
 */

/**
 * Heartbeat we advertise in the open packet. The platform sends a ping every PING_INTERVAL (a delayed job per
 * socket); the client answers with a pong, which is the client traffic that keeps API Gateway's 10-minute idle
 * timeout from closing the socket. A client gives up after PING_INTERVAL + PING_TIMEOUT without a ping, so one
 * late job (SQS retry, cold start) is tolerated and the worst gap between pongs (6 min) stays under 10 min.
 */
export const SOCKET_IO_PING_INTERVAL_MS = 240_000;
export const SOCKET_IO_PING_TIMEOUT_MS = 120_000;
/** API Gateway's largest WebSocket message. */
export const SOCKET_IO_MAX_PAYLOAD = 128 * 1024;

/** Engine.IO packet types (first character of every frame). */
const EIO = { open: "0", close: "1", ping: "2", pong: "3", message: "4", upgrade: "5", noop: "6" } as const;
/** Socket.IO packet types (the character after Engine.IO's "4"). */
const SIO = { connect: "0", disconnect: "1", event: "2", ack: "3", connectError: "4" } as const;

/** The query of a Socket.IO handshake carries `EIO`; our own protocol never does (API Gateway shows no path at $connect). */
export const isSocketIoHandshake = (query: Record<string, string | undefined> | undefined) => query?.EIO !== undefined;

/** Only Engine.IO v4 over websocket: polling needs HTTP long-poll endpoints API Gateway's WebSocket API has not. */
export const isSupportedHandshake = (query: Record<string, string | undefined>) => query.EIO === "4" && (query.transport ?? "websocket") === "websocket";

export const openPacket = (sid: string) =>
  EIO.open +
  JSON.stringify({ sid, upgrades: [], pingInterval: SOCKET_IO_PING_INTERVAL_MS, pingTimeout: SOCKET_IO_PING_TIMEOUT_MS, maxPayload: SOCKET_IO_MAX_PAYLOAD });

/**
 * The namespaces a client may open (ADR 0068): "/" and the API's base path. Socket.IO takes the namespace from the
 * path of the URL it is given, so a client configured with the backend URL `<origin>/api` opens "/api" (its
 * transport path stays `/socket.io/`). Both carry the same auth, rooms and events.
 */
export const SOCKET_IO_NAMESPACES = ["/", "/api"] as const;
export type SocketIoNamespace = (typeof SOCKET_IO_NAMESPACES)[number];
export const isServedNamespace = (namespace: string): namespace is SocketIoNamespace => (SOCKET_IO_NAMESPACES as readonly string[]).includes(namespace);
/** The prefix a packet of namespace `ns` carries after its type ("" for "/", `/api,` otherwise). */
const nsp = (namespace: string) => (namespace === "/" ? "" : `${namespace},`);

export const pingPacket = () => EIO.ping;
export const pongPacket = () => EIO.pong;
/** A namespace connected: the client emits `connect` and flushes the events it buffered for it. */
export const connectAckPacket = (sid: string, namespace: string = "/") => `${EIO.message}${SIO.connect}${nsp(namespace)}${JSON.stringify({ sid })}`;
export const connectErrorPacket = (namespace: string, message: string) => `${EIO.message}${SIO.connectError}${nsp(namespace)}${JSON.stringify({ message })}`;
/** The server ends the session: the client does not reconnect on its own ("io server disconnect"). */
export const disconnectPacket = (namespace: string = "/") => `${EIO.message}${SIO.disconnect}${nsp(namespace)}`;
/** An event; `data` undefined sends the name alone (`42/api,["ready"]`). */
export const eventPacket = (name: string, data: unknown, namespace: string = "/") =>
  `${EIO.message}${SIO.event}${nsp(namespace)}${JSON.stringify(data === undefined ? [name] : [name, data])}`;
export const ackPacket = (ackId: number, args: unknown[] = [], namespace: string = "/") => `${EIO.message}${SIO.ack}${nsp(namespace)}${ackId}${JSON.stringify(args)}`;

export type ClientPacket =
  | { kind: "ping" | "pong" | "close" | "noop" }
  | { kind: "connect" | "disconnect"; namespace: string }
  | { kind: "event"; namespace: string; name: string; args: unknown[]; ackId?: number }
  | { kind: "invalid" };

/** Decodes one text frame from a Socket.IO client (binary attachments are not part of the spec's events). */
export const parseClientPacket = (body: string | null | undefined): ClientPacket => {
  if (!body) return { kind: "invalid" };
  switch (body[0]) {
    case EIO.ping:
      return { kind: "ping" };
    case EIO.pong:
      return { kind: "pong" };
    case EIO.close:
      return { kind: "close" };
    case EIO.noop:
      return { kind: "noop" };
    case EIO.message:
      break;
    default:
      return { kind: "invalid" };
  }
  const type = body[1];
  let rest = body.slice(2);
  let namespace = "/";
  if (rest.startsWith("/")) {
    const comma = rest.indexOf(",");
    namespace = comma === -1 ? rest : rest.slice(0, comma);
    rest = comma === -1 ? "" : rest.slice(comma + 1);
  }
  if (type === SIO.connect) return { kind: "connect", namespace };
  if (type === SIO.disconnect) return { kind: "disconnect", namespace };
  if (type !== SIO.event) return { kind: "invalid" };
  const ack = /^\d+/.exec(rest);
  const ackId = ack ? Number(ack[0]) : undefined;
  if (ack) rest = rest.slice(ack[0].length);
  let payload: unknown;
  try {
    payload = JSON.parse(rest);
  } catch {
    return { kind: "invalid" };
  }
  if (!Array.isArray(payload) || typeof payload[0] !== "string") return { kind: "invalid" };
  const [name, ...args] = payload as [string, ...unknown[]];
  return { kind: "event", namespace, name, args, ...(ackId !== undefined ? { ackId } : {}) };
};

/**
 * The spec's event names (spec 1 section 7, spec 2, spec 3 "Realtime channels") for one of our events: mostly
 * `company-{id}-{event}`, with the spec's own spellings (`company{id}-quickemessage`, `company{id}-schedule`,
 * `company-announcement`) and the extra per-list / per-user / per-chat names its pages listen on.
 */
export const socketIoEventNames = (companyId: number, event: RealtimeEvent, data: unknown, userId: number): string[] => {
  const d = (data ?? {}) as Record<string, unknown>;
  switch (event) {
    case "quickmessage":
      return [`company${companyId}-quickemessage`];
    case "schedule":
      return [`company${companyId}-schedule`];
    case "announcement":
      return ["company-announcement"];
    case "ContactListItem": {
      const listId = d.contactListId ?? (d.record as { contactListId?: number } | undefined)?.contactListId;
      return [`company-${companyId}-ContactListItem`, ...(listId !== undefined ? [`company-${companyId}-ContactListItem-${String(listId)}`] : [])];
    }
    case "chat": {
      const chat = d.chat as { id?: number } | undefined;
      const names = [`company-${companyId}-chat`];
      // the chat list listens per user; an open conversation per chat
      if (d.action !== "new-message") names.push(`company-${companyId}-chat-user-${userId}`);
      else if (chat?.id !== undefined) names.push(`company-${companyId}-chat-${chat.id}`);
      return names;
    }
    default:
      return [`company-${companyId}-${event}`];
  }
};
