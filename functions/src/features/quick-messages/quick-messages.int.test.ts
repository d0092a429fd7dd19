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

const create = (token: string, body: Record<string, unknown>) => t.call("POST", "/quick-messages", { token, body });
const shortcodes = (rows: { shortcode: string }[]) => rows.map((r) => r.shortcode);
const upload = (id: number, token: string, form: FormData) =>
  t.app.request(`/api/quick-messages/${id}/media-upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } });
const pngForm = () => {
  const form = new FormData();
  form.append("typeArch", "quickMessage");
  form.append("file", new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 8, 9])], { type: "image/png" }), "tabela.png");
  return form;
};

describe("quick messages", () => {
  it("creates, reads, edits and deletes a quick message, telling the company's browsers", async () => {
    await t.container.services.sockets.connect("qm-sock", a.userToken);
    const mark = t.sender.frames.length;
    const made = await create(a.adminToken, { shortcode: "bomdia", message: "Bom dia! Como posso ajudar?", geral: true, companyId: 999 });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ shortcode: "bomdia", message: "Bom dia! Como posso ajudar?", geral: true, status: true, isMedia: false, mediaPath: null, mediaName: null, companyId: a.company.id, userId: a.admin.id });
    const id = made.body.id as number;
    expect((await t.call("GET", `/quick-messages/${id}`, { token: a.userToken })).body.shortcode).toBe("bomdia");

    const edited = await t.call("PUT", `/quick-messages/${id}`, { token: a.adminToken, body: { shortcode: "bom-dia", message: "Olá!" } });
    expect(edited.body).toMatchObject({ shortcode: "bom-dia", message: "Olá!", geral: true });
    // the old shortcode is free again
    const reuse = await create(a.adminToken, { shortcode: "bomdia", message: "outra" });
    expect(reuse.status).toBe(200);

    expect((await t.call("DELETE", `/quick-messages/${id}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("GET", `/quick-messages/${id}`, { token: a.adminToken })).status).toBe(404);
    const frames = t.sender.frames.slice(mark).filter((f) => f.connectionId === "qm-sock").map((f) => f.frame as { channel: string; data: { action: string } });
    expect(frames.map((f) => f.channel)).toContain(`company-${a.company.id}-quickmessage`);
    expect(frames.map((f) => f.data.action)).toEqual(expect.arrayContaining(["create", "update", "delete"]));
  });

  it("refuses a missing shortcode or a shortcode the company already has, storing nothing", async () => {
    const c = await createTenant(t);
    const missing = await create(c.adminToken, { message: "sem atalho" });
    expect(missing).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect((await create(c.adminToken, { shortcode: "   ", message: "x" })).body.error).toBe("ERR_VALIDATION");
    expect((await create(c.adminToken, { shortcode: "ok", geral: "sim" })).body.error).toBe("ERR_VALIDATION");
    await create(c.adminToken, { shortcode: "Preco", message: "R$ 10" });
    const dup = await create(c.userToken, { shortcode: "preco", message: "R$ 20" });
    expect(dup).toMatchObject({ status: 409, body: { error: "ERR_DUPLICATED_SHORTCODE" } });
    const other = await create(c.adminToken, { shortcode: "frete", message: "grátis" });
    const rename = await t.call("PUT", `/quick-messages/${other.body.id}`, { token: c.adminToken, body: { shortcode: "PRECO" } });
    expect(rename).toMatchObject({ status: 409, body: { error: "ERR_DUPLICATED_SHORTCODE" } });
    const list = await t.call("GET", "/quick-messages", { token: c.adminToken });
    expect(list.body).toMatchObject({ count: 2, hasMore: false });
    expect(shortcodes(list.body.records)).toEqual(["frete", "Preco"]);
    // a shortcode is per company: company B may use it
    expect((await create(b.adminToken, { shortcode: "preco", message: "B" })).status).toBe(200);
  });

  it("shows general messages to everyone and private ones only to their author", async () => {
    const c = await createTenant(t);
    await create(c.adminToken, { shortcode: "geral1", message: "para todos", geral: true });
    await create(c.adminToken, { shortcode: "doadmin", message: "só do admin" });
    const mine = await create(c.userToken, { shortcode: "doatendente", message: "só do atendente" });
    expect(mine.body.geral).toBe(false);
    await create(c.adminToken, { shortcode: "inativa", message: "desligada", geral: true, status: false });

    const userList = await t.call("GET", `/quick-messages/list?companyId=${c.company.id}&userId=${c.admin.id}`, { token: c.userToken });
    expect(shortcodes(userList.body)).toEqual(["doatendente", "geral1"]);
    const adminList = await t.call("GET", "/quick-messages/list", { token: c.adminToken });
    expect(shortcodes(adminList.body)).toEqual(["doadmin", "geral1"]);

    // the page: admins see every message, others the general ones and their own; search is a lower-cased substring
    expect((await t.call("GET", "/quick-messages", { token: c.adminToken })).body.count).toBe(4);
    const userPage = await t.call("GET", "/quick-messages?searchParam=", { token: c.userToken });
    expect(shortcodes(userPage.body.records)).toEqual(["doatendente", "geral1", "inativa"]);
    expect(shortcodes((await t.call("GET", "/quick-messages?searchParam=ADMIN", { token: c.userToken })).body.records)).toEqual([]);
    expect(shortcodes((await t.call("GET", "/quick-messages?searchParam=ATEND", { token: c.userToken })).body.records)).toEqual(["doatendente"]);

    const adminPrivate = (await t.call("GET", "/quick-messages?searchParam=doadmin", { token: c.adminToken })).body.records[0];
    expect((await t.call("GET", `/quick-messages/${adminPrivate.id}`, { token: c.userToken })).status).toBe(404);
  });

  it("pages by 20 with hasMore", async () => {
    const c = await createTenant(t);
    for (let i = 0; i < 22; i++) await create(c.adminToken, { shortcode: `atalho${String(i).padStart(2, "0")}`, message: `m${i}` });
    const p1 = await t.call("GET", "/quick-messages?pageNumber=1", { token: c.adminToken });
    expect(p1.body).toMatchObject({ count: 22, hasMore: true });
    expect(p1.body.records).toHaveLength(20);
    const p2 = await t.call("GET", "/quick-messages?pageNumber=2", { token: c.adminToken });
    expect(shortcodes(p2.body.records)).toEqual(["atalho20", "atalho21"]);
    expect(p2.body.hasMore).toBe(false);
  });

  it("lets a user change only their own private messages, admins and supervisors any; only admins set geral", async () => {
    const c = await createTenant(t);
    const general = await create(c.adminToken, { shortcode: "geral", message: "g", geral: true });
    const byAdmin = await create(c.adminToken, { shortcode: "admin", message: "a" });
    const own = await create(c.userToken, { shortcode: "meu", message: "m" });

    expect((await create(c.userToken, { shortcode: "tentageral", message: "x", geral: true })).body.error).toBe("ERR_NO_PERMISSION");
    expect((await t.call("PUT", `/quick-messages/${general.body.id}`, { token: c.userToken, body: { message: "mudei" } })).body.error).toBe("ERR_NO_PERMISSION");
    expect((await t.call("DELETE", `/quick-messages/${general.body.id}`, { token: c.userToken })).body.error).toBe("ERR_NO_PERMISSION");
    expect((await t.call("PUT", `/quick-messages/${byAdmin.body.id}`, { token: c.userToken, body: { message: "mudei" } })).status).toBe(404);
    expect((await t.call("PUT", `/quick-messages/${own.body.id}`, { token: c.userToken, body: { geral: true } })).body.error).toBe("ERR_NO_PERMISSION");
    expect((await t.call("GET", `/quick-messages/${general.body.id}`, { token: c.adminToken })).body.message).toBe("g");

    expect((await t.call("PUT", `/quick-messages/${own.body.id}`, { token: c.userToken, body: { message: "editado" } })).body.message).toBe("editado");
    const sup = await t.container.repos.users.create(
      c.company.id,
      { name: "Supervisora", email: `sup-${c.company.id}@teste.com`, passwordHash: c.admin.passwordHash, profile: "supervisor", super: false, whatsappId: null, allTicket: "enabled", queueIds: [] },
      new Date(),
    );
    const supToken = (await c.login(sup.email)).token;
    expect((await t.call("PUT", `/quick-messages/${general.body.id}`, { token: supToken, body: { message: "pela supervisora" } })).body.message).toBe("pela supervisora");
    expect((await t.call("PUT", `/quick-messages/${own.body.id}`, { token: c.adminToken, body: { message: "pelo admin" } })).body.message).toBe("pelo admin");
    expect((await t.call("DELETE", `/quick-messages/${own.body.id}`, { token: c.userToken })).status).toBe(200);
  });

  it("uploads and removes the attachment; an empty form is refused", async () => {
    const made = await create(a.adminToken, { shortcode: "tabela", message: "Nossa tabela", geral: true });
    const id = made.body.id as number;
    const res = await upload(id, a.adminToken, pngForm());
    expect(res.status).toBe(200);
    const body = (await res.json()) as { mediaName: string; mediaPath: string; isMedia: boolean };
    expect(body).toMatchObject({ mediaName: "tabela.png", isMedia: true });
    expect(body.mediaPath.startsWith(`${a.company.id}/`)).toBe(true);
    expect((await t.container.media.get(body.mediaPath))?.body).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 8, 9]));
    expect((await t.call("GET", "/quick-messages/list", { token: a.userToken })).body.find((q: { id: number }) => q.id === id).mediaName).toBe("tabela.png");

    expect((await upload(id, a.adminToken, new FormData())).status).toBe(400);
    expect((await upload(id, a.userToken, pngForm())).status).toBe(403);

    const removed = await t.call("DELETE", `/quick-messages/${id}/media-upload`, { token: a.adminToken });
    expect(removed.body).toMatchObject({ mediaName: null, mediaPath: null, isMedia: false });
  });

  it("keeps each company's quick messages apart on every route", async () => {
    const made = await create(a.adminToken, { shortcode: "segredoA", message: "de A", geral: true });
    const id = made.body.id as number;
    const asB = { token: b.adminToken };
    expect((await t.call("GET", `/quick-messages/${id}`, asB)).status).toBe(404);
    expect((await t.call("PUT", `/quick-messages/${id}`, { ...asB, body: { message: "roubado" } })).status).toBe(404);
    expect((await t.call("DELETE", `/quick-messages/${id}`, asB)).status).toBe(404);
    expect((await upload(id, b.adminToken, pngForm())).status).toBe(404);
    expect((await t.call("DELETE", `/quick-messages/${id}/media-upload`, asB)).status).toBe(404);
    expect(shortcodes((await t.call("GET", "/quick-messages?searchParam=segredo", asB)).body.records)).toEqual([]);
    expect(shortcodes((await t.call("GET", `/quick-messages/list?companyId=${a.company.id}`, asB)).body)).not.toContain("segredoA");
    const still = await t.call("GET", `/quick-messages/${id}`, { token: a.adminToken });
    expect(still.body).toMatchObject({ shortcode: "segredoA", message: "de A", mediaPath: null });
    expect((await t.call("GET", "/quick-messages/list", {})).status).toBe(401);
  });
});
