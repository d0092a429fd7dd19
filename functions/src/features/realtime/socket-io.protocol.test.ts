import { describe, expect, it } from "vitest";
import {
  ackPacket,
  connectAckPacket,
  connectErrorPacket,
  disconnectPacket,
  eventPacket,
  isServedNamespace,
  isSocketIoHandshake,
  isSupportedHandshake,
  openPacket,
  parseClientPacket,
  SOCKET_IO_NAMESPACES,
  socketIoEventNames,
} from "./socket-io.protocol";

describe("Socket.IO framing (Engine.IO v4)", () => {
  it("encodes the open packet, the namespace ack, events, acks and connect errors", () => {
    const open = openPacket("abc");
    expect(open[0]).toBe("0");
    expect(JSON.parse(open.slice(1))).toEqual({ sid: "abc", upgrades: [], pingInterval: 240_000, pingTimeout: 120_000, maxPayload: 131_072 });
    expect(connectAckPacket("s1")).toBe('40{"sid":"s1"}');
    expect(eventPacket("company-1-ticket", { action: "update" })).toBe('42["company-1-ticket",{"action":"update"}]');
    expect(ackPacket(7)).toBe("437[]");
    expect(connectErrorPacket("/admin", "Invalid namespace")).toBe('44/admin,{"message":"Invalid namespace"}');
  });

  it("puts the namespace of a client configured with <origin>/api on every packet (ADR 0068)", () => {
    expect(connectAckPacket("s1", "/api")).toBe('40/api,{"sid":"s1"}');
    expect(eventPacket("ready", undefined, "/api")).toBe('42/api,["ready"]');
    expect(eventPacket("ready", undefined)).toBe('42["ready"]');
    expect(eventPacket("company-1-ticket", { action: "delete", ticketId: 3 }, "/api")).toBe('42/api,["company-1-ticket",{"action":"delete","ticketId":3}]');
    expect(ackPacket(7, [], "/api")).toBe("43/api,7[]");
    expect(disconnectPacket("/api")).toBe("41/api,");
    expect(disconnectPacket()).toBe("41");
    expect(SOCKET_IO_NAMESPACES.filter(isServedNamespace)).toEqual(["/", "/api"]);
    expect(isServedNamespace("/admin")).toBe(false);
    expect(parseClientPacket("40/api,")).toEqual({ kind: "connect", namespace: "/api" });
    expect(parseClientPacket('42/api,["joinTickets","open"]')).toEqual({ kind: "event", namespace: "/api", name: "joinTickets", args: ["open"] });
  });

  it("decodes what a socket.io-client sends", () => {
    expect(parseClientPacket("3")).toEqual({ kind: "pong" });
    expect(parseClientPacket("2")).toEqual({ kind: "ping" });
    expect(parseClientPacket("1")).toEqual({ kind: "close" });
    expect(parseClientPacket("40")).toEqual({ kind: "connect", namespace: "/" });
    expect(parseClientPacket('40{"token":"x"}')).toEqual({ kind: "connect", namespace: "/" });
    expect(parseClientPacket("40/admin,")).toEqual({ kind: "connect", namespace: "/admin" });
    expect(parseClientPacket("41")).toEqual({ kind: "disconnect", namespace: "/" });
    expect(parseClientPacket('42["joinTickets","open"]')).toEqual({ kind: "event", namespace: "/", name: "joinTickets", args: ["open"] });
    expect(parseClientPacket('4212["joinChatBox",5]')).toEqual({ kind: "event", namespace: "/", name: "joinChatBox", args: [5], ackId: 12 });
    expect(parseClientPacket('42/admin,["x"]')).toMatchObject({ kind: "event", namespace: "/admin", name: "x" });
  });

  it("refuses what is not a Socket.IO text packet", () => {
    for (const bad of ["", "9", "42", "42{}", "42[1]", "42[not json", '{"action":"joinTickets"}', "45[]"]) {
      expect(parseClientPacket(bad)).toEqual({ kind: "invalid" });
    }
  });

  it("tells a Socket.IO handshake by its EIO query, and serves only v4 over websocket", () => {
    expect(isSocketIoHandshake({ token: "t" })).toBe(false);
    expect(isSocketIoHandshake({ token: "t", EIO: "4" })).toBe(true);
    expect(isSupportedHandshake({ EIO: "4", transport: "websocket" })).toBe(true);
    expect(isSupportedHandshake({ EIO: "4", transport: "polling" })).toBe(false);
    expect(isSupportedHandshake({ EIO: "3", transport: "websocket" })).toBe(false);
  });
});

describe("the spec's event names", () => {
  it("uses company-{id}-{event} and the spec's own spellings", () => {
    expect(socketIoEventNames(7, "ticket", {}, 1)).toEqual(["company-7-ticket"]);
    expect(socketIoEventNames(7, "appMessage", {}, 1)).toEqual(["company-7-appMessage"]);
    expect(socketIoEventNames(7, "quickmessage", {}, 1)).toEqual(["company7-quickemessage"]);
    expect(socketIoEventNames(7, "schedule", {}, 1)).toEqual(["company7-schedule"]);
    expect(socketIoEventNames(7, "announcement", {}, 1)).toEqual(["company-announcement"]);
    expect(socketIoEventNames(7, "queueIntegration", {}, 1)).toEqual(["company-7-queueIntegration"]);
  });

  it("adds the per-list, per-user and per-chat names the spec's pages listen on", () => {
    expect(socketIoEventNames(7, "ContactListItem", { action: "reload", contactListId: 3 }, 1)).toEqual(["company-7-ContactListItem", "company-7-ContactListItem-3"]);
    expect(socketIoEventNames(7, "ContactListItem", { action: "create", record: { contactListId: 4 } }, 1)).toEqual([
      "company-7-ContactListItem",
      "company-7-ContactListItem-4",
    ]);
    expect(socketIoEventNames(7, "chat", { action: "create", chat: { id: 9 } }, 2)).toEqual(["company-7-chat", "company-7-chat-user-2"]);
    expect(socketIoEventNames(7, "chat", { action: "new-message", chat: { id: 9 } }, 2)).toEqual(["company-7-chat", "company-7-chat-9"]);
  });
});
