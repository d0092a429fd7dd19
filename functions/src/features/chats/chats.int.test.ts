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

type Member = { userId: number; unreads: number; user: { name: string } };
const createChat = (token: string, body: unknown) => t.call("POST", "/chats", { token, body });
const send = (token: string, id: number | string, message: unknown) => t.call("POST", `/chats/${id}/messages`, { token, body: { message } });
const unreadsOf = (chat: { users: Member[] }, userId: number) => chat.users.find((u) => u.userId === userId)?.unreads;
const framesOf = (connectionId: string, mark: number) =>
  t.sender.frames
    .slice(mark)
    .filter((f) => f.connectionId === connectionId)
    .map((f) => f.frame as { channel: string; event: string; data: { action: string; id?: number; chat?: { id: number }; newMessage?: { message: string } } });

const extraUser = async (tenant: Tenant, name: string) => {
  const u = await t.container.repos.users.create(
    tenant.company.id,
    { name, email: `${name.toLowerCase()}-${tenant.company.id}-${Date.now()}@teste.com`, passwordHash: tenant.admin.passwordHash, profile: "user", super: false, whatsappId: null, allTicket: "desabled", queueIds: [] },
    t.clock.now,
  );
  return { user: u, token: (await tenant.login(u.email)).token };
};

describe("internal chat", () => {
  it("creates a chat with the owner as member; both members list it, with names", async () => {
    const made = await createChat(a.adminToken, { title: "Plantão de sábado", users: [{ id: a.user.id, name: "Atendente Teste" }] });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ title: "Plantão de sábado", ownerId: a.admin.id, lastMessage: "" });
    expect(made.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.body.users.map((u: Member) => u.userId).sort()).toEqual([a.admin.id, a.user.id].sort());
    expect(made.body.users.find((u: Member) => u.userId === a.user.id).user.name).toBe("Atendente Teste");

    const list = await t.call("GET", "/chats", { token: a.userToken });
    expect(list.body.records.map((c: { id: number }) => c.id)).toContain(made.body.id);
    // by uuid too (the /chats/{uuid} route)
    expect((await t.call("GET", `/chats/${made.body.uuid}`, { token: a.userToken })).body.id).toBe(made.body.id);
  });

  it("refuses a missing title or no users with a clear code, storing nothing", async () => {
    const c = await createTenant(t);
    expect(await createChat(c.adminToken, { title: "   ", users: [c.user.id] })).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect(await createChat(c.adminToken, { title: "Sem gente", users: [] })).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect(await createChat(c.adminToken, { title: "Sem gente" })).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect(await createChat(c.adminToken, { title: "Fantasma", users: [999] })).toMatchObject({ status: 404, body: { error: "ERR_NO_USER_FOUND" } });
    expect((await t.call("GET", "/chats", { token: c.adminToken })).body).toEqual({ records: [], hasMore: false });
  });

  it("lets only the owner edit and delete; members change with the edit", async () => {
    const c = await createTenant(t);
    const third = await extraUser(c, "Terceira");
    const made = await createChat(c.adminToken, { title: "Equipe", users: [c.user.id] });
    const id = made.body.id as number;

    expect(await t.call("PUT", `/chats/${id}`, { token: c.userToken, body: { title: "Tomada", users: [c.user.id] } })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect(await t.call("DELETE", `/chats/${id}`, { token: c.userToken })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    // a non-member does not see it at all
    expect((await t.call("PUT", `/chats/${id}`, { token: third.token, body: { title: "x", users: [third.user.id] } })).status).toBe(404);
    expect((await t.call("GET", `/chats/${id}`, { token: c.adminToken })).body.title).toBe("Equipe");

    // owner swaps the attendant for the third user; the owner always stays
    const edited = await t.call("PUT", `/chats/${id}`, { token: c.adminToken, body: { title: "Equipe nova", users: [third.user.id] } });
    expect(edited.body.title).toBe("Equipe nova");
    expect(edited.body.users.map((u: Member) => u.userId).sort()).toEqual([c.admin.id, third.user.id].sort());
    expect((await t.call("GET", `/chats/${id}`, { token: c.userToken })).status).toBe(404);
    expect((await t.call("GET", "/chats", { token: c.userToken })).body.records).toEqual([]);
    expect((await t.call("GET", "/chats?searchParam=NOVA", { token: third.token })).body.records.map((r: { id: number }) => r.id)).toEqual([id]);
    expect((await t.call("GET", "/chats?searchParam=outra", { token: third.token })).body.records).toEqual([]);
    expect((await t.call("PUT", `/chats/${id}`, { token: c.adminToken, body: { title: "", users: [third.user.id] } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", `/chats/${id}`, { token: c.adminToken })).body.title).toBe("Equipe nova");

    await send(c.adminToken, id, "antes de apagar");
    expect((await t.call("DELETE", `/chats/${id}`, { token: c.adminToken })).status).toBe(200);
    expect((await t.call("GET", `/chats/${id}`, { token: c.adminToken })).status).toBe(404);
    expect((await t.call("GET", `/chats/${id}/messages`, { token: third.token })).status).toBe(404);
    expect((await t.call("GET", "/chats", { token: third.token })).body.records).toEqual([]);
  });

  it("counts unread messages per member, clears them on read and orders chats by activity", async () => {
    const c = await createTenant(t);
    const first = await createChat(c.adminToken, { title: "Primeira", users: [c.user.id] });
    t.clock.advance(1000);
    const second = await createChat(c.adminToken, { title: "Segunda", users: [c.user.id] });
    t.clock.advance(1000);
    const ids = async (token: string) => (await t.call("GET", "/chats", { token })).body.records.map((r: { id: number }) => r.id);
    expect(await ids(c.userToken)).toEqual([second.body.id, first.body.id]);

    const sent = await send(c.adminToken, first.body.id, "Oi, tudo bem?");
    expect(sent.body).toMatchObject({ message: "Oi, tudo bem?", senderId: c.admin.id, sender: { name: "Admin Teste" }, chatId: first.body.id });
    t.clock.advance(1000);
    await send(c.adminToken, first.body.id, "Pode me ajudar?");
    expect(await ids(c.userToken)).toEqual([first.body.id, second.body.id]);

    const listed = (await t.call("GET", "/chats", { token: c.userToken })).body.records[0];
    expect(listed.lastMessage).toBe("Pode me ajudar?");
    expect(unreadsOf(listed, c.user.id)).toBe(2);
    expect(unreadsOf(listed, c.admin.id)).toBe(0);

    const read = await t.call("POST", `/chats/${first.body.id}/read`, { token: c.userToken, body: { userId: c.admin.id } });
    expect(read.status).toBe(200);
    const after = (await t.call("GET", `/chats/${first.body.id}`, { token: c.adminToken })).body;
    expect(unreadsOf(after, c.user.id)).toBe(0);
    expect(unreadsOf(after, c.admin.id)).toBe(0);

    await send(c.userToken, first.body.id, "Claro!");
    expect(unreadsOf((await t.call("GET", `/chats/${first.body.id}`, { token: c.adminToken })).body, c.admin.id)).toBe(1);
  });

  it("refuses empty or whitespace-only messages and stores nothing", async () => {
    const c = await createTenant(t);
    const made = await createChat(c.adminToken, { title: "Vazio", users: [c.user.id] });
    expect(await send(c.adminToken, made.body.id, "   ")).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect(await send(c.adminToken, made.body.id, "")).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect(await send(c.adminToken, made.body.id, 12)).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect((await t.call("GET", `/chats/${made.body.id}/messages`, { token: c.userToken })).body).toEqual({ records: [], hasMore: false });
    expect((await t.call("GET", `/chats/${made.body.id}`, { token: c.userToken })).body.users.every((u: Member) => u.unreads === 0)).toBe(true);
  });

  it("pages messages newest page first, each page oldest first, with hasMore", async () => {
    const c = await createTenant(t);
    const made = await createChat(c.adminToken, { title: "Muitas", users: [c.user.id] });
    for (let i = 1; i <= 45; i++) {
      t.clock.advance(10);
      await send(i % 2 ? c.adminToken : c.userToken, made.body.id, `m${i}`);
    }
    const page = async (n: number) => (await t.call("GET", `/chats/${made.body.id}/messages?pageNumber=${n}`, { token: c.userToken })).body;
    const p1 = await page(1);
    expect(p1.hasMore).toBe(true);
    expect(p1.records.map((m: { message: string }) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 26}`));
    const p2 = await page(2);
    expect(p2.records[0].message).toBe("m6");
    expect(p2.hasMore).toBe(true);
    const p3 = await page(3);
    expect(p3.records.map((m: { message: string }) => m.message)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    expect(p3.hasMore).toBe(false);
    expect((await t.call("GET", `/chats/${made.body.id}/messages?pageNumber=0`, { token: c.userToken })).body.error).toBe("ERR_VALIDATION");
  });

  it("keeps non-members out: they can neither read, post nor mark read", async () => {
    const c = await createTenant(t);
    const outsider = await extraUser(c, "Fora");
    const made = await createChat(c.adminToken, { title: "Privado", users: [c.user.id] });
    const id = made.body.id as number;
    expect((await t.call("GET", `/chats/${id}/messages`, { token: outsider.token })).status).toBe(404);
    expect((await send(outsider.token, id, "intrometido")).status).toBe(404);
    expect((await t.call("POST", `/chats/${id}/read`, { token: outsider.token, body: {} })).status).toBe(404);
    expect((await t.call("GET", "/chats", { token: outsider.token })).body.records).toEqual([]);
    expect((await t.call("GET", `/chats/${id}/messages`, { token: c.userToken })).body.records).toEqual([]);
  });

  it("sends realtime frames only to the chat's members", async () => {
    const c = await createTenant(t);
    const outsider = await extraUser(c, "Curiosa");
    await t.container.services.sockets.connect("chat-admin", c.adminToken);
    await t.container.services.sockets.connect("chat-user", c.userToken);
    await t.container.services.sockets.connect("chat-outsider", outsider.token);
    await t.container.services.sockets.connect("chat-other-co", b.adminToken);
    const mark = t.sender.frames.length;

    const made = await createChat(c.adminToken, { title: "Só nós", users: [c.user.id] });
    await send(c.adminToken, made.body.id, "segredo");
    await t.call("POST", `/chats/${made.body.id}/read`, { token: c.userToken, body: {} });
    await t.call("DELETE", `/chats/${made.body.id}`, { token: c.adminToken });

    const toUser = framesOf("chat-user", mark);
    expect(toUser.every((f) => f.event === "chat" && f.channel === `company-${c.company.id}-chat`)).toBe(true);
    expect(toUser.map((f) => f.data.action)).toEqual(["create", "new-message", "update", "delete"]);
    expect(toUser[1]?.data.newMessage?.message).toBe("segredo");
    expect(framesOf("chat-admin", mark).map((f) => f.data.action)).toEqual(["create", "new-message", "delete"]);
    expect(framesOf("chat-outsider", mark)).toEqual([]);
    expect(framesOf("chat-other-co", mark)).toEqual([]);
  });

  it("refuses every call when the plan has no internal chat", async () => {
    const c = await createTenant(t, { plan: { useInternalChat: false } });
    expect(await t.call("GET", "/chats", { token: c.adminToken })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect(await createChat(c.adminToken, { title: "Proibido", users: [c.user.id] })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect((await t.call("GET", "/chats", { token: c.adminToken })).status).toBe(403);
  });

  it("keeps each company's chats apart: B cannot see, post to, alter A's chats, nor add A's users", async () => {
    // ids are per company: A's extra user has an id B does not have
    const aThird = await extraUser(a, "Exclusiva");
    const made = await createChat(a.adminToken, { title: "Segredo de A", users: [a.user.id, aThird.user.id] });
    const id = made.body.id as number;
    await send(a.adminToken, id, "só para A");
    const asB = { token: b.adminToken };
    expect((await t.call("GET", `/chats/${id}`, asB)).status).toBe(404);
    expect((await t.call("GET", `/chats/${made.body.uuid}`, asB)).status).toBe(404);
    expect((await t.call("GET", `/chats/${id}/messages`, asB)).status).toBe(404);
    expect((await send(b.adminToken, id, "invasão")).status).toBe(404);
    expect((await t.call("PUT", `/chats/${id}`, { ...asB, body: { title: "Roubado", users: [b.user.id] } })).status).toBe(404);
    expect((await t.call("DELETE", `/chats/${id}`, asB)).status).toBe(404);
    expect((await t.call("POST", `/chats/${id}/read`, { ...asB, body: {} })).status).toBe(404);
    expect((await t.call("GET", "/chats", asB)).body.records.map((r: { title: string }) => r.title)).not.toContain("Segredo de A");
    expect(await createChat(b.adminToken, { title: "Com gente de A", users: [aThird.user.id] })).toMatchObject({ status: 404, body: { error: "ERR_NO_USER_FOUND" } });

    const still = (await t.call("GET", `/chats/${id}`, { token: a.adminToken })).body;
    expect(still).toMatchObject({ title: "Segredo de A", lastMessage: "só para A" });
    expect((await t.call("GET", `/chats/${id}/messages`, { token: a.userToken })).body.records.map((m: { message: string }) => m.message)).toEqual(["só para A"]);
  });
});
