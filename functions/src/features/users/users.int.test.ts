import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
});

let seq = 0;
const body = (over: Record<string, unknown> = {}) => ({ name: "Maria Souza", email: `maria${++seq}-${Date.now()}@teste.com`, password: "segredo1", ...over });

describe("GET /users/", () => {
  it("pages by 20 with hasMore, searches from 3 characters, never shows hashes", async () => {
    const c = await createTenant(t, { plan: { users: 50 } });
    for (let i = 0; i < 21; i++) {
      await t.call("POST", "/users", { token: c.adminToken, body: body({ name: `Pessoa ${String(i).padStart(2, "0")}` }) });
    }
    const p1 = await t.call("GET", "/users/?pageNumber=1", { token: c.adminToken });
    expect(p1.status).toBe(200);
    expect(p1.body.users).toHaveLength(20);
    expect(p1.body.hasMore).toBe(true);
    expect(p1.body.users[0].passwordHash).toBeUndefined();
    const p2 = await t.call("GET", "/users/?pageNumber=2", { token: c.adminToken });
    expect(p2.body.users).toHaveLength(3);
    expect(p2.body.hasMore).toBe(false);
    const found = await t.call("GET", "/users/?searchParam=pessoa%2007", { token: c.adminToken });
    expect(found.body.users.map((u: { name: string }) => u.name)).toEqual(["Pessoa 07"]);
    const short = await t.call("GET", "/users/?searchParam=pe", { token: c.adminToken });
    expect(short.body.count).toBe(23);
  });
  it("shows only the caller's company", async () => {
    const res = await t.call("GET", "/users/", { token: b.userToken });
    expect(res.body.users.every((u: { companyId: number }) => u.companyId === b.company.id)).toBe(true);
  });
  it("rejects a bad page number", async () => {
    expect((await t.call("GET", "/users/?pageNumber=0", { token: a.adminToken })).body.error).toBe("ERR_VALIDATION");
  });
});

describe("POST /users", () => {
  it("creates a user with queues, default connection and allTicket, and tells the admins live", async () => {
    await t.container.services.sockets.connect("admin-sock", a.adminToken);
    const before = t.sender.frames.length;
    const res = await t.call("POST", "/users", {
      token: a.adminToken,
      body: body({ profile: "admin", queueIds: [a.queues[1]!.id, 99999], whatsappId: a.whatsapp.id, allTicket: "enabled" }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ profile: "admin", queueIds: [a.queues[1]!.id], whatsappId: a.whatsapp.id, allTicket: "enabled", online: false });
    expect(res.body.whatsapp).toEqual({ id: a.whatsapp.id, name: "Simulador" });
    const frames = t.sender.frames.slice(before).filter((f) => f.connectionId === "admin-sock");
    expect(frames).toContainEqual(expect.objectContaining({ frame: expect.objectContaining({ channel: `company-${a.company.id}-user`, data: expect.objectContaining({ action: "create" }) }) }));
    // the new user can log in
    expect((await t.call("POST", "/auth/login", { body: { email: res.body.email, password: "segredo1" } })).status).toBe(200);
  });
  it("refuses an email in use anywhere on the platform", async () => {
    const res = await t.call("POST", "/users", { token: a.adminToken, body: body({ email: b.user.email }) });
    expect(res).toMatchObject({ status: 409, body: { error: "ERR_EMAIL_ALREADY_EXISTS" } });
  });
  it("refuses beyond the plan's number of users", async () => {
    const c = await createTenant(t, { plan: { users: 2 } });
    const res = await t.call("POST", "/users", { token: c.adminToken, body: body() });
    expect(res).toMatchObject({ status: 403, body: { error: "ERR_PLAN_LIMIT_USERS" } });
  });
  it("is for admins; attendants get ERR_NO_PERMISSION", async () => {
    expect((await t.call("POST", "/users", { token: a.userToken, body: body() })).status).toBe(403);
  });
  it("rejects bad input and stores nothing", async () => {
    const email = `bad-${Date.now()}@teste.com`;
    for (const b2 of [body({ name: "A", email }), body({ email: "não-é-email" }), body({ email, password: "1234" }), body({ email, profile: "root" })]) {
      expect((await t.call("POST", "/users", { token: a.adminToken, body: b2 })).body.error).toBe("ERR_VALIDATION");
    }
    expect(await t.container.repos.users.findByEmail(email)).toBeNull();
  });
  it("ignores another company's connection and queues", async () => {
    const res = await t.call("POST", "/users", { token: b.adminToken, body: body({ queueIds: [a.queues[0]!.id + 1000], whatsappId: 4242 }) });
    expect(res.body).toMatchObject({ queueIds: [], whatsappId: null });
  });
});

describe("PUT /users/{id}", () => {
  it("moves the email: the old one is free, the new one logs in", async () => {
    const created = await t.call("POST", "/users", { token: a.adminToken, body: body() });
    const oldEmail = created.body.email;
    const newEmail = `novo-${Date.now()}@teste.com`;
    const res = await t.call("PUT", `/users/${created.body.id}`, { token: a.adminToken, body: { email: newEmail, name: "Maria S." } });
    expect(res.body).toMatchObject({ email: newEmail, name: "Maria S." });
    expect(await t.container.repos.users.findByEmail(oldEmail)).toBeNull();
    expect((await t.call("POST", "/auth/login", { body: { email: newEmail, password: "segredo1" } })).status).toBe(200);
    const clash = await t.call("PUT", `/users/${created.body.id}`, { token: a.adminToken, body: { email: b.admin.email } });
    expect(clash).toMatchObject({ status: 409, body: { error: "ERR_EMAIL_ALREADY_EXISTS" } });
    expect((await t.container.repos.users.findByEmail(newEmail))?.id).toBe(created.body.id);
  });
  it("an attendant edits only their own name and password", async () => {
    const c = await createTenant(t);
    const other = await t.call("PUT", `/users/${c.admin.id}`, { token: c.userToken, body: { name: "Hacker" } });
    expect(other).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    const self = await t.call("PUT", `/users/${c.user.id}`, {
      token: c.userToken,
      body: { name: "Atendente Novo", profile: "admin", queueIds: c.queues.map((q) => q.id), email: "outro@teste.com", password: "novasenha" },
    });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ name: "Atendente Novo", profile: "user", email: c.user.email, queueIds: [c.queues[0]!.id] });
    expect((await t.call("POST", "/auth/login", { body: { email: c.user.email, password: "novasenha" } })).status).toBe(200);
  });
  it("another company's admin cannot edit, read or delete (cross-tenant)", async () => {
    const d = await createTenant(t);
    const target = await t.call("POST", "/users", { token: a.adminToken, body: body() });
    const id = target.body.id; // a high id d does not have
    expect((await t.call("GET", `/users/${id}`, { token: d.adminToken })).status).toBe(404);
    expect((await t.call("PUT", `/users/${id}`, { token: d.adminToken, body: { name: "Invasor" } })).status).toBe(404);
    expect((await t.call("DELETE", `/users/${id}`, { token: d.adminToken })).status).toBe(404);
    expect((await t.call("GET", `/users/${id}`, { token: a.adminToken })).body.name).toBe("Maria Souza");
  });
});

describe("DELETE /users/{id}", () => {
  it("deletes the user, ends their session and frees the email", async () => {
    const c = await createTenant(t);
    expect((await t.call("GET", "/auth/me", { token: c.userToken })).status).toBe(200);
    const res = await t.call("DELETE", `/users/${c.user.id}`, { token: c.adminToken });
    expect(res.status).toBe(200);
    expect((await t.call("GET", "/auth/me", { token: c.userToken })).status).toBe(401);
    expect((await t.call("POST", "/auth/refresh_token", { cookie: c.userSession!.cookie })).status).toBe(401);
    const again = await t.call("POST", "/users", { token: c.adminToken, body: body({ email: c.user.email }) });
    expect(again.status).toBe(201);
  });
  it("an admin cannot delete themselves; an attendant cannot delete", async () => {
    expect((await t.call("DELETE", `/users/${a.admin.id}`, { token: a.adminToken })).status).toBe(403);
    expect((await t.call("DELETE", `/users/${a.admin.id}`, { token: a.userToken })).status).toBe(403);
  });
});

describe("GET /users/list", () => {
  it("lists the company's users; companyId is ignored for non-operators", async () => {
    const res = await t.call("GET", `/users/list?companyId=${b.company.id}`, { token: a.userToken });
    expect(res.status).toBe(200);
    expect(res.body.every((u: { companyId: number }) => u.companyId === a.company.id)).toBe(true);
  });
});
