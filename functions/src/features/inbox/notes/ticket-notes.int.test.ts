import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../../testing/inbox-fixtures";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
});

const ticketInVendas = async (number: string) => {
  await deliver(t, customerMessage(a, { number, body: "oi" }));
  await deliver(t, customerMessage(a, { number, body: "1" }));
  return (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
};

describe("ticket notes", () => {
  it("adds, lists and deletes internal notes of a ticket", async () => {
    const tk = await ticketInVendas("5511988880001");
    const created = await t.call("POST", "/ticket-notes", { token: a.userToken, body: { note: "Cliente VIP", ticketId: tk.id, contactId: tk.contact.id } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ note: "Cliente VIP", ticketId: tk.id, contactId: tk.contact.id, user: { id: a.user.id } });
    const list = await t.call("GET", `/ticket-notes/list?ticketId=${tk.id}&contactId=${tk.contact.id}`, { token: a.userToken });
    expect(list.body.map((x: { note: string }) => x.note)).toEqual(["Cliente VIP"]);
    expect((await t.call("DELETE", `/ticket-notes/${created.body.id}`, { token: a.userToken })).status).toBe(200);
    expect((await t.call("GET", `/ticket-notes/list?ticketId=${tk.id}`, { token: a.userToken })).body).toEqual([]);
  });

  it("requires at least 2 characters and a ticket the user may see", async () => {
    const tk = await ticketInVendas("5511988880002");
    expect((await t.call("POST", "/ticket-notes", { token: a.userToken, body: { note: "x", ticketId: tk.id } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/ticket-notes", { token: a.userToken, body: { ticketId: tk.id } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", `/ticket-notes/list?ticketId=${tk.id}`, { token: a.userToken })).body).toEqual([]);
    expect((await t.call("GET", "/ticket-notes/list", { token: a.userToken })).body.error).toBe("ERR_VALIDATION");
  });

  it("lets only the author or an admin delete a note; company B sees nothing", async () => {
    const tk = await ticketInVendas("5511988880003");
    const byAdmin = await t.call("POST", "/ticket-notes", { token: a.adminToken, body: { note: "nota do admin", ticketId: tk.id } });
    expect((await t.call("DELETE", `/ticket-notes/${byAdmin.body.id}`, { token: a.userToken })).body.error).toBe("ERR_NO_PERMISSION");
    expect((await t.call("DELETE", `/ticket-notes/${byAdmin.body.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("GET", `/ticket-notes/list?ticketId=${tk.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("GET", `/ticket-notes/list?ticketId=${tk.id}`, { token: a.adminToken })).body).toHaveLength(1);
  });
});
