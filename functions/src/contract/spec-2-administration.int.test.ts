import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeOperator } from "../testing/operator";
import { createTenant, type Tenant } from "../testing/factories";
import { createTestApp, type TestApp } from "../testing/test-app";
import { expectKeys, formOf, pngFile, startSpecServer, type SpecClient } from "../testing/spec-client";

/**
 * Contract: spec 2 (administration) section 7, replayed over HTTP with the values the spec's client sends
 * (false/""/null for none, numbers from text fields), checking the answer fields the spec names.
 */
let t: TestApp;
let api: SpecClient;
let a: Tenant;
let b: Tenant;
let op: string;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({ PAYMENTS_PROVIDER: "fake", PAYMENTS_WEBHOOK_SECRET: "contract-webhook-secret-0123456789" });
  api = await startSpecServer(t);
  a = await createTenant(t, { dueDate: new Date(Date.now() + 4 * DAY).toISOString(), plan: { value: 100 } });
  b = await createTenant(t);
  op = await makeOperator(t, await createTenant(t));
});
afterAll(async () => api?.close());

describe("spec 2 section 7: connections", () => {
  it("GET /whatsapp/{id}?session=0 and /whatsapp/{id}; POST and PUT /whatsapp with the form's none values; sessions; restart; DELETE", async () => {
    expect(await api.ok("GET", `/whatsapp/${a.whatsapp.id}`, { token: a.adminToken, query: { session: 0 } })).toMatchObject({ id: a.whatsapp.id, name: a.whatsapp.name });
    expectKeys(await api.ok("GET", `/whatsapp/${a.whatsapp.id}`, { token: a.adminToken }), ["qrcode", "status"], "connection");
    const body = {
      name: "Comercial",
      greetingMessage: "Olá!",
      complationMessage: null,
      outOfHoursMessage: "",
      ratingMessage: null,
      isDefault: 0,
      token: "",
      provider: "beta",
      expiresInactiveMessage: "",
      expiresTicket: "0",
      timeUseBotQueues: "",
      maxUseBotQueues: 3,
      timeToTransfer: "",
      queueIds: [a.queues[0]!.id],
      transferQueueId: "",
      promptId: false,
      integrationId: null,
    };
    const made = await api.ok("POST", "/whatsapp", { token: a.adminToken, json: body });
    expect(made).toMatchObject({ id: expect.any(Number), name: "Comercial", isDefault: false, transferQueueId: null, promptId: null });
    const put = await api.ok("PUT", `/whatsapp/${made.id}`, { token: a.adminToken, json: { ...body, name: "Comercial 2", transferQueueId: a.queues[1]!.id, timeToTransfer: "5" } });
    expect(put).toMatchObject({ name: "Comercial 2", transferQueueId: a.queues[1]!.id });
    expect((await api.call("POST", "/whatsapp", { token: a.adminToken, json: { ...body, name: "X" } })).status).toBe(400);

    expect((await api.call("POST", `/whatsappsession/${made.id}`, { token: a.adminToken })).status).toBeLessThan(300);
    expect((await api.call("PUT", `/whatsappsession/${made.id}`, { token: a.adminToken })).status).toBeLessThan(300);
    expect((await api.call("DELETE", `/whatsappsession/${made.id}`, { token: a.adminToken })).status).toBeLessThan(300);
    expect((await api.call("POST", "/whatsapp-restart/", { token: a.adminToken })).status).toBeLessThan(300);
    expect((await api.ok("GET", "/whatsapp/", { token: a.adminToken, query: { session: 0 } })).map((w: { id: number }) => w.id)).toContain(made.id);
    expect((await api.call("GET", `/whatsapp/${made.id}`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/whatsapp/${made.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });
});

describe("spec 2 section 7: queues", () => {
  it("GET /queue (companyId), /queue/{id}; POST with integrationId \"\"; PUT with schedules and promptId; media-upload; DELETE", async () => {
    expect((await api.ok("GET", "/queue", { token: a.adminToken, query: { companyId: a.company.id } })).length).toBeGreaterThanOrEqual(2);
    expect(await api.ok("GET", `/queue/${a.queues[0]!.id}`, { token: a.adminToken })).toMatchObject({ id: a.queues[0]!.id, name: a.queues[0]!.name });
    const made = await api.ok("POST", "/queue", {
      token: a.adminToken,
      json: { name: "Financeiro", color: "#B80000", greetingMessage: "Oi", outOfHoursMessage: "", orderQueue: "", integrationId: "", promptId: null },
    });
    expect(made).toMatchObject({ name: "Financeiro", integrationId: null, promptId: null });
    const schedules = [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "18:00" }];
    expect(await api.ok("PUT", `/queue/${made.id}`, { token: a.adminToken, json: { name: "Financeiro", color: "#B80000", schedules, promptId: false, integrationId: false } })).toMatchObject({
      schedules,
      promptId: null,
    });
    expect((await api.call("POST", `/queue/${made.id}/media-upload`, { token: a.adminToken, form: formOf({ file: pngFile("menu.png") }) })).status).toBeLessThan(300);
    expect((await api.call("DELETE", `/queue/${made.id}/media-upload`, { token: a.adminToken })).status).toBeLessThan(300);
    expect((await api.call("POST", "/queue", { token: a.adminToken, json: { name: "F", color: "#B80000" } })).status).toBe(400);
    expect((await api.call("PUT", `/queue/${made.id}`, { token: b.adminToken, json: { name: "Invadida" } })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/queue/${made.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });

  it("GET /prompt reads prompts; GET /queueIntegration reads queueIntegrations; queue options with parentId -1 and their media", async () => {
    expect(await api.ok("GET", "/prompt", { token: a.adminToken })).toMatchObject({ prompts: expect.any(Array) });
    expect(await api.ok("GET", "/queueIntegration", { token: a.adminToken })).toMatchObject({ queueIntegrations: expect.any(Array) });
    const queueId = a.queues[0]!.id;
    const top = await api.ok("POST", "/queue-options", { token: a.adminToken, json: { queueId, parentId: null, title: "Boletos", message: "", option: 1 } });
    const child = await api.ok("POST", "/queue-options", { token: a.adminToken, json: { queueId: String(queueId), parentId: top.id, title: "2ª via", message: null, option: "1" } });
    expect((await api.ok("GET", "/queue-options", { token: a.adminToken, query: { queueId, parentId: -1 } })).map((o: { id: number }) => o.id)).toContain(top.id);
    expect((await api.ok("GET", "/queue-options", { token: a.adminToken, query: { queueId, parentId: top.id } })).map((o: { id: number }) => o.id)).toEqual([child.id]);
    expect(await api.ok("PUT", `/queue-options/${child.id}`, { token: a.adminToken, json: { title: "Segunda via", message: "Envie o CPF", option: 1 } })).toMatchObject({ title: "Segunda via" });
    expect((await api.call("POST", `/queue-options/${child.id}/media-upload`, { token: a.adminToken, form: formOf({ file: pngFile("via.png") }) })).status).toBeLessThan(300);
    expect((await api.call("DELETE", `/queue-options/${child.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });
});

describe("spec 2 section 7: users", () => {
  it("GET /users/ reads users and hasMore; /users/list (companyId); POST with whatsappId false; PUT with whatsappId, queueIds, allTicket; DELETE", async () => {
    expect(await api.ok("GET", "/users/", { token: a.adminToken, query: { searchParam: "", pageNumber: 1 } })).toMatchObject({ users: expect.any(Array), hasMore: expect.any(Boolean) });
    expect((await api.ok("GET", "/users/list", { token: a.adminToken, query: { companyId: a.company.id } })).length).toBeGreaterThanOrEqual(2);
    const made = await api.ok("POST", "/users", {
      token: a.adminToken,
      json: { name: "Nova Atendente", email: `nova-${Date.now()}@teste.com`, password: "Senha123", profile: "user", whatsappId: false, queueIds: [], allTicket: "desabled" },
    });
    expect(made).toMatchObject({ id: expect.any(Number), whatsappId: null });
    const put = await api.ok("PUT", `/users/${made.id}`, { token: a.adminToken, json: { name: "Nova Atendente", email: made.email, password: "", profile: "user", whatsappId: a.whatsapp.id, queueIds: [a.queues[0]!.id], allTicket: "enabled" } });
    expect(put).toMatchObject({ whatsappId: a.whatsapp.id, allTicket: "enabled" });
    expect(await api.ok("GET", `/users/${made.id}`, { token: a.adminToken })).toMatchObject({ id: made.id });
    expect((await api.call("POST", "/users", { token: a.adminToken, json: { name: "X", email: "nao-email", password: "1" } })).status).toBe(400);
    expect((await api.call("DELETE", `/users/${made.id}`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/users/${made.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });
});

describe("spec 2 section 7: companies, plans, helps (operator)", () => {
  it("companies: POST, PUT, GET, GET /list with settings[], GET /{id}, listPlan, schedules, DELETE; public cadastro", async () => {
    const plan = await api.ok("POST", "/plans", {
      token: op,
      json: { name: `Plano ${Date.now()}`, users: "5", connections: "2", queues: "3", value: "99.9", useCampaigns: true, useSchedules: 1, useInternalChat: "true", useExternalApi: false, useKanban: true, useOpenAi: 0, useIntegrations: true },
    });
    expect(plan).toMatchObject({ users: 5, value: 99.9, useSchedules: true, useOpenAi: false });
    expect(await api.ok("PUT", `/plans/${plan.id}`, { token: op, json: { ...plan, value: 109.9 } })).toMatchObject({ value: 109.9 });
    expect(await api.ok("GET", `/plans/${plan.id}`, { token: op })).toMatchObject({ id: plan.id });
    for (const path of ["/plans/list", "/plans/register"]) expect(Array.isArray(await api.ok("GET", path))).toBe(true);
    expect(Array.isArray(await api.ok("GET", "/plans/all", { token: op }))).toBe(true);

    const company = await api.ok("POST", "/companies", {
      token: op,
      json: { name: `Cliente ${Date.now()}`, email: `c${Date.now()}@teste.com`, phone: null, planId: String(plan.id), status: true, campaignsEnabled: true, dueDate: "", recurrence: "" },
    });
    expect(company).toMatchObject({ id: expect.any(Number), planId: plan.id, recurrence: "MENSAL" });
    const list = await api.ok("GET", "/companies/list", { token: op });
    const row = list.find((c: { id: number }) => c.id === company.id);
    expect(row.settings.find((s: { key: string }) => s.key === "campaignsEnabled")).toEqual({ key: "campaignsEnabled", value: "true" });
    expect(row.campaignsEnabled).toBe(true);
    await api.ok("PUT", `/companies/${company.id}`, { token: op, json: { ...company, planId: plan.id, campaignsEnabled: "false", dueDate: null } });
    expect((await api.ok("GET", `/companies/${company.id}`, { token: op })).settings).toEqual([{ key: "campaignsEnabled", value: "false" }]);
    expect(await api.ok("GET", "/companies", { token: op, query: { searchParam: "", pageNumber: 1 } })).toMatchObject({ companies: expect.any(Array) });
    expect((await api.ok("GET", `/companies/listPlan/${a.company.id}`, { token: a.adminToken })).plan).toMatchObject({ useCampaigns: true });
    const schedules = [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "17:00" }];
    await api.ok("PUT", `/companies/${a.company.id}/schedules`, { token: a.adminToken, json: { schedules } });
    expect((await api.call("GET", "/companies/list", { token: a.adminToken })).status).toBe(403);
    expect((await api.call("DELETE", `/companies/${company.id}`, { token: op })).status).toBeLessThan(300);

    const signup = await api.call("POST", "/companies/cadastro", {
      json: { name: "Loja Nova", email: `loja${Date.now()}@teste.com`, phone: "(11) 98888-7777", password: "Senha123", planId: plan.id },
    });
    expect(signup.status).toBeLessThan(300);
    const unused = await api.ok("POST", "/plans", { token: op, json: { name: `Avulso ${Date.now()}`, users: 1, connections: 1, queues: 1, value: "0" } });
    expect((await api.call("DELETE", `/plans/${unused.id}`, { token: op })).status).toBeLessThan(300);
    expect((await api.call("GET", `/plans/${unused.id}`, { token: op })).status).toBe(404);
  });

  it("helps: GET /helps, /helps/list; POST; PUT; DELETE", async () => {
    const help = await api.ok("POST", "/helps", { token: op, json: { title: "Primeiros passos", description: null, video: "" } });
    expect(help).toMatchObject({ id: expect.any(Number), title: "Primeiros passos", description: "" });
    expect(await api.ok("PUT", `/helps/${help.id}`, { token: op, json: { title: "Primeiros passos", description: "Veja", video: "dQw4w9WgXcQ" } })).toMatchObject({ description: "Veja" });
    expect((await api.ok("GET", "/helps", { token: a.adminToken })).map((h: { id: number }) => h.id)).toContain(help.id);
    expect((await api.ok("GET", "/helps/list", { token: a.adminToken })).map((h: { id: number }) => h.id)).toContain(help.id);
    expect((await api.call("DELETE", `/helps/${help.id}`, { token: op })).status).toBeLessThan(300);
  });
});

describe("spec 2 section 7: settings, logos, invoices, subscription, dashboard, password reset", () => {
  it("GET /settings entries with key and value; PUT /settings/{key}; POST /settings/media-upload?ref= answers mensagem 'Arquivo Anexado'", async () => {
    expectKeys((await api.ok("GET", "/settings", { token: a.adminToken }))[0], ["key", "value"], "setting");
    expect(await api.ok("PUT", "/settings/userRating", { token: a.adminToken, json: { key: "userRating", value: "enabled" } })).toMatchObject({ key: "userRating", value: "enabled" });
    const logo = await api.ok("POST", "/settings/media-upload", { token: op, query: { ref: "login" }, form: formOf({ file: pngFile() }) });
    expect(logo.mensagem).toBe("Arquivo Anexado");
  });

  it("GET /invoices/all (searchParam, pageNumber) answers the plain array the client reads; POST /subscription answers the Pix data", async () => {
    await t.container.services.invoicesJob.run(t.clock.now);
    const invoices = await api.ok("GET", "/invoices/all", { token: a.adminToken, query: { searchParam: "", pageNumber: 1 } });
    expect(Array.isArray(invoices)).toBe(true);
    expectKeys(invoices[0], ["id", "detail", "value", "dueDate", "status"], "invoice");
    expect(await api.ok("GET", "/invoices/all", { token: a.adminToken, query: { pageNumber: 1, paged: 1 } })).toMatchObject({ list: expect.any(Array), hasMore: false });
    const pix = await api.ok("POST", "/subscription", {
      token: a.adminToken,
      json: { firstName: "Ana", lastName: "Lima", address2: "", city: "São Paulo", state: "SP", zipcode: "01000-000", country: "BR", useAddressForPaymentDetails: false, nameOnCard: "", cardNumber: "", cvv: "", plan: JSON.stringify({ users: 5, connections: 2, price: 100 }), price: 100, users: 5, connections: 2, invoiceId: invoices[0].id },
    });
    expect(pix.qrcode.qrcode).toEqual(expect.any(String));
    expect(pix.valor.original).toBe("100.00");
    expect(await api.ok("GET", "/invoices/all", { token: b.adminToken })).toEqual([]);
  });

  it("GET /dashboard with days, date_from, date_to; ticketsUsers and ticketsDay with initialDate, finalDate, companyId", async () => {
    expect(await api.ok("GET", "/dashboard", { token: a.adminToken, query: { days: "", date_from: "2026-01-01", date_to: "2026-01-31" } })).toMatchObject({ counters: expect.any(Object), attendants: expect.any(Array) });
    expect(await api.ok("GET", "/dashboard/ticketsUsers", { token: a.adminToken, query: { initialDate: "2026-01-01", finalDate: "2026-01-02", companyId: a.company.id } })).toEqual({ data: [], count: 0 });
    expect((await api.ok("GET", "/dashboard/ticketsDay", { token: a.adminToken, query: { initialDate: "2026-01-01", finalDate: "2026-01-02", companyId: a.company.id } })).data).toEqual([
      { data: "2026-01-01", total: 0 },
      { data: "2026-01-02", total: 0 },
    ]);
    expect((await api.call("GET", "/dashboard", { token: a.adminToken })).status).toBe(400);
  });

  it("POST /forgetpassword/{email}: data.status 404 for an unknown email; POST /resetpasswords/{email}/{token}/{newPassword} refuses a wrong code", async () => {
    expect((await api.ok("POST", `/forgetpassword/${encodeURIComponent("ninguem@nada.com")}`)).status).toBe(404);
    expect((await api.ok("POST", `/forgetpassword/${encodeURIComponent(a.user.email)}`)).status).toBe(200);
    expect((await api.call("POST", `/resetpasswords/${encodeURIComponent(a.user.email)}/000000/NovaSenha123`)).status).toBeGreaterThanOrEqual(400);
  });
});
