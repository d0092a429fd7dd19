import { describe, expect, it } from "vitest";
import { checkFrame, eventOfSocketIoName } from "./checked-sender";

const user = {
  id: 3,
  name: "Ana",
  email: "ana@x.com",
  profile: "user",
  super: false,
  online: true,
  companyId: 1,
  whatsappId: null,
  allTicket: "desabled",
  queueIds: [2],
  queues: [{ id: 2, name: "Vendas", color: "#111111" }],
  whatsapp: null,
  createdAt: "2026-01-01T00:00:00.000Z",
};

describe("the realtime payload check of the tests' frames (ADR 0068)", () => {
  it("reads the event of the spec's Socket.IO names back", () => {
    expect(eventOfSocketIoName("company-7-user")).toBe("user");
    expect(eventOfSocketIoName("company7-quickemessage")).toBe("quickmessage");
    expect(eventOfSocketIoName("company7-schedule")).toBe("schedule");
    expect(eventOfSocketIoName("company-announcement")).toBe("announcement");
    expect(eventOfSocketIoName("company-7-ContactListItem-3")).toBe("ContactListItem");
    expect(eventOfSocketIoName("company-7-chat-user-2")).toBe("chat");
  });

  it("passes a whole user and refuses the fragment presence used to send (issue 28)", () => {
    expect(checkFrame({ channel: "company-1-user", event: "user", data: { action: "update", user } })).toBeNull();
    expect(checkFrame(`42/api,${JSON.stringify(["company-1-user", { action: "update", user }])}`)).toBeNull();
    expect(checkFrame({ channel: "company-1-user", event: "user", data: { action: "update", user: { id: 3, online: true } } })).toMatch(/^user: .*queues/s);
    expect(checkFrame(`42${JSON.stringify(["company-1-user", { action: "update", user: { id: 3, online: false } }])}`)).toMatch(/^user:/);
  });

  it("ignores protocol packets and checks a ticket delete's id", () => {
    for (const packet of ["2", "3", '40/api,{"sid":"s"}', '42/api,["ready"]', "41/api,"]) expect(checkFrame(packet)).toBeNull();
    expect(checkFrame('42["company-1-ticket",{"action":"delete","ticketId":9}]')).toBeNull();
    expect(checkFrame('42["company-1-ticket",{"action":"delete","id":9}]')).toMatch(/^ticket:/);
  });
});
