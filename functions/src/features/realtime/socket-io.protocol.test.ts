import { describe, expect, it } from "vitest";
import {
  ackPacket,
  connectAckPacket,
  connectErrorPacket,
  eventPacket,
  isSocketIoHandshake,
  isSupportedHandshake,
  openPacket,
  parseClientPacket,
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

  it("decodes what a socket.io-client sends", () => {
    expect(parseClientPacket("3")).toEqual({ kind: "pong" });
    expect(parseClientPacket("2")).toEqual({ kind: "ping" });
    expect(parseClientPacket("1")).toEqual({ kind: "close" });
    expect(parseClientPacket("40")).toEqual({ kind: "connect", namespace: "/" });
    expect(parseClientPacket('40{"token":"x"}')).toEqual({ kind: "connect", namespace: "/" });
    expect(parseClientPacket("40/admin,")).toEqual({ kind: "connect", namespace: "/admin" });
    expect(parseClientPacket("41")).toEqual({ kind: "disconnect" });
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
