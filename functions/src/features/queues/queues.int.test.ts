import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCHEDULES } from "@atende/shared/constants/business";
import { QUEUE_COLORS } from "@atende/shared/domain/queues/queues";
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

const newQueue = (over: Record<string, unknown> = {}) => ({ name: "Financeiro", color: QUEUE_COLORS[5], greetingMessage: "Olá do financeiro", ...over });

describe("the palette", () => {
  it("has 49 distinct colours", () => {
    expect(new Set(QUEUE_COLORS.map((c) => c.toUpperCase())).size).toBe(49);
  });
});

describe("GET /queue", () => {
  it("lists the company's queues by order, for any user of the company", async () => {
    const res = await t.call("GET", "/queue", { token: a.userToken });
    expect(res.status).toBe(200);
    expect(res.body.map((q: { id: number }) => q.id)).toEqual(a.queues.map((q) => q.id));
    expect(res.body[0]).toMatchObject({ name: "Vendas", color: "#111111", companyId: a.company.id });
  });
  it("ignores companyId for a non-operator (never another company's queues)", async () => {
    const res = await t.call("GET", `/queue?companyId=${b.company.id}`, { token: a.adminToken });
    expect(res.body.map((q: { companyId: number }) => q.companyId)).toEqual([a.company.id, a.company.id]);
  });
  it("needs a token", async () => {
    expect((await t.call("GET", "/queue")).status).toBe(401);
  });
});

describe("POST /queue", () => {
  it("creates a queue with the default working hours", async () => {
    const c = await createTenant(t);
    const res = await t.call("POST", "/queue", { token: c.adminToken, body: newQueue() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Financeiro", color: QUEUE_COLORS[5], schedules: DEFAULT_SCHEDULES });
    const got = await t.call("GET", `/queue/${res.body.id}`, { token: c.userToken });
    expect(got.body.name).toBe("Financeiro");
  });
  it("refuses a colour another queue of the company uses, but not one of another company", async () => {
    const dup = await t.call("POST", "/queue", { token: a.adminToken, body: newQueue({ name: "Outra", color: "#111111" }) });
    expect(dup).toMatchObject({ status: 409, body: { error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" } });
    const other = await t.call("POST", "/queue", { token: b.adminToken, body: newQueue({ name: "Outra", color: QUEUE_COLORS[9] }) });
    expect(other.status).toBe(201);
    const sameInA = await t.call("POST", "/queue", { token: a.adminToken, body: newQueue({ name: "Outra", color: QUEUE_COLORS[9] }) });
    expect(sameInA.status).toBe(201);
  });
  it("refuses a name the company already uses", async () => {
    const res = await t.call("POST", "/queue", { token: a.adminToken, body: newQueue({ name: "vendas", color: QUEUE_COLORS[20] }) });
    expect(res).toMatchObject({ status: 409, body: { error: "ERR_DUPLICATED_NAME" } });
  });
  it("requires a greeting when the company has more than one queue", async () => {
    const res = await t.call("POST", "/queue", { token: a.adminToken, body: newQueue({ name: "Sem saudação", color: QUEUE_COLORS[21], greetingMessage: "" }) });
    expect(res).toMatchObject({ status: 400, body: { error: "ERR_WAPP_GREETING_REQUIRED" } });
    const names = (await t.call("GET", "/queue", { token: a.adminToken })).body.map((q: { name: string }) => q.name);
    expect(names).not.toContain("Sem saudação");
  });
  it("does not require a greeting for a company's first queue", async () => {
    const c = await createTenant(t, { queues: [] });
    const res = await t.call("POST", "/queue", { token: c.adminToken, body: newQueue({ greetingMessage: "" }) });
    expect(res.status).toBe(201);
  });
  it("refuses beyond the plan's number of queues", async () => {
    const c = await createTenant(t, { plan: { queues: 2 } });
    const res = await t.call("POST", "/queue", { token: c.adminToken, body: newQueue() });
    expect(res).toMatchObject({ status: 403, body: { error: "ERR_PLAN_LIMIT_QUEUES" } });
  });
  it("refuses a prompt when the plan has no OpenAI", async () => {
    const c = await createTenant(t, { plan: { useOpenAi: false } });
    const res = await t.call("POST", "/queue", { token: c.adminToken, body: newQueue({ promptId: 3 }) });
    expect(res).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
  });
  it("rejects bad input with ERR_VALIDATION and stores nothing", async () => {
    const before = (await t.call("GET", "/queue", { token: a.adminToken })).body.length;
    for (const body of [newQueue({ name: "A" }), newQueue({ color: "#1" }), newQueue({ color: "#1234567890" }), newQueue({ schedules: [{ weekday: "x", weekdayEn: "monday", startTime: "25:00", endTime: "10:00" }] })]) {
      const res = await t.call("POST", "/queue", { token: a.adminToken, body });
      expect(res).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    }
    expect((await t.call("GET", "/queue", { token: a.adminToken })).body.length).toBe(before);
  });
  it("is for admins only", async () => {
    const res = await t.call("POST", "/queue", { token: a.userToken, body: newQueue({ name: "Do atendente", color: QUEUE_COLORS[30] }) });
    expect(res).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
  });
});

describe("PUT /queue/{id} and DELETE /queue/{id}", () => {
  it("updates fields and schedules; the old colour becomes free", async () => {
    const c = await createTenant(t);
    const [q1] = c.queues;
    const schedules = DEFAULT_SCHEDULES.map((s) => ({ ...s, startTime: "09:00" }));
    const res = await t.call("PUT", `/queue/${q1!.id}`, { token: c.adminToken, body: { name: "Vendas 2", color: QUEUE_COLORS[1], schedules } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Vendas 2", color: QUEUE_COLORS[1] });
    expect(res.body.schedules[0].startTime).toBe("09:00");
    const reuse = await t.call("POST", "/queue", { token: c.adminToken, body: newQueue({ color: "#111111" }) });
    expect(reuse.status).toBe(201);
    const clash = await t.call("PUT", `/queue/${q1!.id}`, { token: c.adminToken, body: { color: "#222222" } });
    expect(clash).toMatchObject({ status: 409, body: { error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" } });
  });
  it("refuses clearing the greeting while the company has several queues", async () => {
    const res = await t.call("PUT", `/queue/${a.queues[0]!.id}`, { token: a.adminToken, body: { greetingMessage: "  " } });
    expect(res).toMatchObject({ status: 400, body: { error: "ERR_WAPP_GREETING_REQUIRED" } });
  });
  it("another company's admin can neither read, change nor delete a queue (cross-tenant)", async () => {
    const d = await createTenant(t, { queues: [] });
    const id = a.queues[0]!.id;
    expect(await t.call("GET", `/queue/${id}`, { token: d.adminToken })).toMatchObject({ status: 404, body: { error: "ERR_NOT_FOUND" } });
    expect((await t.call("PUT", `/queue/${id}`, { token: d.adminToken, body: { name: "Invadida" } })).status).toBe(404);
    expect((await t.call("DELETE", `/queue/${id}`, { token: d.adminToken })).status).toBe(404);
    expect((await t.call("DELETE", `/queue/${id}/media-upload`, { token: d.adminToken })).status).toBe(404);
    const mine = await t.call("GET", `/queue/${id}`, { token: a.adminToken });
    expect(mine.status).toBe(200);
    expect(mine.body.name).toBe(a.queues[0]!.name);
  });
  it("deletes a queue with its chatbot options", async () => {
    const c = await createTenant(t);
    const q = c.queues[1]!;
    const opt = await t.call("POST", "/queue-options", { token: c.adminToken, body: { queueId: q.id, title: "Boleto", message: "2ª via" } });
    expect(opt.status).toBe(201);
    const del = await t.call("DELETE", `/queue/${q.id}`, { token: c.adminToken });
    expect(del.status).toBe(200);
    expect((await t.call("GET", `/queue/${q.id}`, { token: c.adminToken })).status).toBe(404);
    expect(await t.container.repos.queueOptions.listByQueue(c.company.id, q.id)).toEqual([]);
    // name and colour are free again
    const again = await t.call("POST", "/queue", { token: c.adminToken, body: { name: q.name, color: q.color, greetingMessage: "oi" } });
    expect(again.status).toBe(201);
  });
});

describe("queue media", () => {
  it("uploads and removes the queue's media; an empty form is refused", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], { type: "image/png" }), "menu.png");
    const id = a.queues[0]!.id;
    const res = await t.app.request(`/api/queue/${id}/media-upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { mediaName: string; mediaPath: string };
    expect(body.mediaName).toBe("menu.png");
    expect(body.mediaPath.startsWith(`${a.company.id}/`)).toBe(true);
    expect((await t.container.media.get(body.mediaPath))?.body).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));

    expect((await t.call("GET", `/queue/${id}`, { token: a.adminToken })).body.mediaName).toBe("menu.png");

    const del = await t.call("DELETE", `/queue/${id}/media-upload`, { token: a.adminToken });
    expect(del.body.mediaName).toBeNull();
    const empty = await t.app.request(`/api/queue/${id}/media-upload`, { method: "POST", body: new FormData(), headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(empty.status).toBe(400);
  });
});
