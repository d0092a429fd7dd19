import { describe, expect, it } from "vitest";
import { shouldNotify, titleWithCount } from "./notification-rules";

const attendant = { id: 3, profile: "user" as const, allTicket: "desabled" as const, queues: [{ id: 1, name: "Vendas", color: "#000", UserQueue: { queueId: 1 } }] };

describe("who hears a new customer message", () => {
  it("rings for own tickets and pending tickets of the user's queues only", () => {
    expect(shouldNotify(attendant, { userId: 3, status: "open", queueId: 2 })).toBe(true);
    expect(shouldNotify(attendant, { userId: null, status: "pending", queueId: 1 })).toBe(true);
    expect(shouldNotify(attendant, { userId: null, status: "pending", queueId: 2 })).toBe(false);
    expect(shouldNotify(attendant, { userId: 7, status: "open", queueId: 1 })).toBe(false);
  });

  it("queue-less pending tickets only with allTicket enabled; admins hear every pending ticket", () => {
    expect(shouldNotify(attendant, { userId: null, status: "pending", queueId: null })).toBe(false);
    expect(shouldNotify({ ...attendant, allTicket: "enabled" }, { userId: null, status: "pending", queueId: null })).toBe(true);
    expect(shouldNotify({ ...attendant, profile: "admin" }, { userId: null, status: "pending", queueId: 9 })).toBe(true);
  });

  it("puts the unread count in the tab title", () => {
    expect(titleWithCount("Atende", 0)).toBe("Atende");
    expect(titleWithCount("Atende", 3)).toBe("(3) Atende");
  });
});
