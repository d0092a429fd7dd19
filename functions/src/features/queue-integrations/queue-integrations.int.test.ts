import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { createQueueIntegrationsRepository } from "./queue-integrations.repository";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
});

const typebot = (over: Record<string, unknown> = {}) => ({
  type: "typebot",
  name: "Robô de vendas",
  urlN8N: "https://typebot.exemplo.com.br",
  typebotSlug: "vendas-v1",
  typebotKeywordFinish: "sair",
  ...over,
});
const create = (tenant: Tenant, body: Record<string, unknown>, token = tenant.adminToken) => t.call("POST", "/queueIntegration", { token, body });
const page = async (tenant: Tenant, query = "") => (await t.call("GET", `/queueIntegration/${query}`, { token: tenant.adminToken })).body as { queueIntegrations: { id: number; name: string }[]; hasMore: boolean };
const names = (rows: { name: string }[]) => rows.map((r) => r.name);

describe("queue integrations", () => {
  it("creates a typebot with the spec's defaults, edits, reads and deletes it, telling the company's admins", async () => {
    await t.container.services.sockets.connect("qi-admin", a.adminToken);
    await t.container.services.sockets.connect("qi-user", a.userToken);
    const mark = t.sender.frames.length;
    const made = await create(a, typebot({ companyId: b.company.id, projectName: "ignorado", jsonContent: "{}" }));
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      type: "typebot",
      name: "Robô de vendas",
      projectName: "Robô de vendas",
      urlN8N: "https://typebot.exemplo.com.br",
      typebotSlug: "vendas-v1",
      typebotDelayMessage: 1000,
      typebotExpires: 1,
      typebotKeywordFinish: "sair",
      jsonContent: "",
      language: null,
      companyId: a.company.id,
    });
    const id = made.body.id as number;
    const edited = await t.call("PUT", `/queueIntegration/${id}`, { token: a.adminToken, body: typebot({ name: "Robô 2", typebotDelayMessage: 2500, typebotExpires: 10 }) });
    expect(edited.body).toMatchObject({ name: "Robô 2", projectName: "Robô 2", typebotDelayMessage: 2500, typebotExpires: 10 });
    expect((await t.call("GET", `/queueIntegration/${id}`, { token: a.adminToken })).body.name).toBe("Robô 2");
    expect((await t.call("DELETE", `/queueIntegration/${id}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("GET", `/queueIntegration/${id}`, { token: a.adminToken })).body.error).toBe("ERR_NO_INTEGRATION_FOUND");

    const frames = t.sender.frames.slice(mark).map((f) => ({ to: f.connectionId, ...(f.frame as { channel: string; data: Record<string, unknown> }) }));
    const toAdmin = frames.filter((f) => f.to === "qi-admin" && f.channel === `company-${a.company.id}-queueIntegration`);
    expect(toAdmin.map((f) => f.data.action)).toEqual(["create", "update", "delete"]);
    expect(toAdmin[0]!.data.queueIntegration).toMatchObject({ id, name: "Robô de vendas" });
    expect(toAdmin[2]!.data).toEqual({ action: "delete", integrationId: id });
    expect(frames.some((f) => f.to === "qi-user" && f.channel.endsWith("-queueIntegration"))).toBe(false);
  });

  it("keeps only the chosen type's fields: n8n and webhook take name and URL, DialogFlow its language, project and JSON", async () => {
    const n8n = await create(a, { type: "n8n", name: "Fluxo n8n", urlN8N: "https://n8n.exemplo.com/webhook/1", typebotSlug: "x", language: "en" });
    expect(n8n.body).toMatchObject({ type: "n8n", projectName: "Fluxo n8n", typebotSlug: "", language: null });
    const hook = await create(a, { type: "webhook", name: "Meu webhook", urlN8N: "http://crm.local/hook" });
    expect(hook.body).toMatchObject({ type: "webhook", projectName: "Meu webhook", urlN8N: "http://crm.local/hook" });
    const df = await create(a, { type: "dialogflow", name: "Agente", language: "pt-BR", projectName: "agente-123", jsonContent: '{"type":"service_account"}', urlN8N: "https://x.y" });
    expect(df.body).toMatchObject({ type: "dialogflow", language: "pt-BR", projectName: "agente-123", jsonContent: '{"type":"service_account"}', urlN8N: "" });
  });

  it("refuses bad input per type with ERR_VALIDATION and the form's messages, storing nothing", async () => {
    const c = await createTenant(t);
    const cases: [Record<string, unknown>, string, string][] = [
      [typebot({ name: "" }), "name", "Required"],
      [typebot({ name: "A" }), "name", "Too Short!"],
      [typebot({ name: "x".repeat(51) }), "name", "Too Long!"],
      [typebot({ type: undefined }), "type", "Required"],
      [typebot({ type: "zapier" }), "type", "Required"],
      [{ type: "dialogflow", name: "Agente", projectName: "p" }, "language", "Required"],
      [{ type: "dialogflow", name: "Agente", language: "fr" }, "language", ""],
      [{ type: "n8n", name: "Fluxo" }, "urlN8N", "Required"],
      [{ type: "webhook", name: "Gancho", urlN8N: "não é url" }, "urlN8N", "invalid"],
      [{ type: "webhook", name: "Gancho", urlN8N: "ftp://arquivos" }, "urlN8N", "invalid"],
      [typebot({ typebotSlug: "" }), "typebotSlug", "Required"],
      [typebot({ typebotDelayMessage: -5 }), "typebotDelayMessage", ""],
      [typebot({ typebotExpires: "nunca" }), "typebotExpires", ""],
    ];
    for (const [body, field, message] of cases) {
      const res = await create(c, body);
      expect(res, JSON.stringify(body)).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
      const issue = (res.body.issues as { path: string[]; message: string }[]).find((i) => i.path[0] === field);
      expect(issue, `${field} in ${JSON.stringify(res.body.issues)}`).toBeDefined();
      if (message) expect(issue!.message).toBe(message);
    }
    expect((await page(c)).queueIntegrations).toEqual([]);
    const made = await create(c, typebot());
    const bad = await t.call("PUT", `/queueIntegration/${made.body.id}`, { token: c.adminToken, body: typebot({ urlN8N: "" }) });
    expect(bad).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect((await t.call("GET", `/queueIntegration/${made.body.id}`, { token: c.adminToken })).body.urlN8N).toBe("https://typebot.exemplo.com.br");
  });

  it("pages by 20 with hasMore, by name, and searches a lower-cased name substring", async () => {
    const c = await createTenant(t);
    for (let i = 0; i < 22; i++) await create(c, { type: "webhook", name: `Gancho ${String(i).padStart(2, "0")}`, urlN8N: "https://h.example.com" });
    await create(c, typebot({ name: "Typebot Loja" }));
    const p1 = await page(c, "?pageNumber=1");
    expect(p1.queueIntegrations).toHaveLength(20);
    expect(p1.hasMore).toBe(true);
    expect(p1.queueIntegrations[0]!.name).toBe("Gancho 00");
    const p2 = await page(c, "?pageNumber=2");
    expect(names(p2.queueIntegrations)).toEqual(["Gancho 20", "Gancho 21", "Typebot Loja"]);
    expect(p2.hasMore).toBe(false);
    expect(names((await page(c, "?searchParam=LOJA")).queueIntegrations)).toEqual(["Typebot Loja"]);
    expect(names((await page(c, "?searchParam=gancho%202&pageNumber=1")).queueIntegrations)).toEqual(["Gancho 20", "Gancho 21"]);
    expect((await page(c, "?searchParam=nada")).queueIntegrations).toEqual([]);
  });

  it("is refused when the plan has no integrations (every call), and to attendants", async () => {
    const c = await createTenant(t, { plan: { useIntegrations: false } });
    const calls = [["GET", "/queueIntegration/"], ["GET", "/queueIntegration/1"], ["POST", "/queueIntegration"], ["PUT", "/queueIntegration/1"], ["DELETE", "/queueIntegration/1"], ["POST", "/queueIntegration/testSession"]] as const;
    for (const [method, path] of calls) {
      const res = await t.call(method, path, { token: c.adminToken, body: method === "GET" || method === "DELETE" ? undefined : typebot() });
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    }
    const d = await createTenant(t);
    expect(await create(d, typebot(), d.userToken)).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect((await t.call("GET", "/queueIntegration", { token: d.userToken })).status).toBe(403);
    expect((await page(d)).queueIntegrations).toEqual([]);
  });

  it("keeps companies apart: B cannot read, change or delete A's integration, nor point its queue at it", async () => {
    const c = await createTenant(t);
    // C has several integrations so its ids are beyond anything D has
    for (let i = 0; i < 3; i++) await create(c, typebot({ name: `Robô ${i}` }));
    const theirs = await create(c, typebot({ name: "Só da C" }));
    const d = await createTenant(t);
    const id = theirs.body.id as number;
    expect((await t.call("GET", `/queueIntegration/${id}`, { token: d.adminToken })).status).toBe(404);
    expect((await t.call("PUT", `/queueIntegration/${id}`, { token: d.adminToken, body: typebot({ name: "Roubado" }) })).status).toBe(404);
    expect((await t.call("DELETE", `/queueIntegration/${id}`, { token: d.adminToken })).status).toBe(404);
    expect((await page(d)).queueIntegrations).toEqual([]);
    expect((await t.call("GET", `/queueIntegration/${id}`, { token: c.adminToken })).body.name).toBe("Só da C");

    const pointed = await t.call("PUT", `/queue/${d.queues[0]!.id}`, { token: d.adminToken, body: { integrationId: id } });
    expect(pointed).toMatchObject({ status: 404, body: { error: "ERR_NO_INTEGRATION_FOUND" } });
    expect((await t.call("GET", `/queue/${d.queues[0]!.id}`, { token: d.adminToken })).body.integrationId).toBeNull();
  });

  it("lets a queue use its own integration, and refuses deleting an integration a queue uses", async () => {
    const c = await createTenant(t);
    const made = await create(c, typebot());
    const queue = c.queues[1]!;
    const linked = await t.call("PUT", `/queue/${queue.id}`, { token: c.adminToken, body: { integrationId: made.body.id } });
    expect(linked).toMatchObject({ status: 200, body: { integrationId: made.body.id } });
    const inUse = await t.call("DELETE", `/queueIntegration/${made.body.id}`, { token: c.adminToken });
    expect(inUse).toMatchObject({ status: 409, body: { error: "ERR_INTEGRATION_IN_USE", data: { queues: [queue.name] } } });
    expect((await t.call("GET", `/queueIntegration/${made.body.id}`, { token: c.adminToken })).status).toBe(200);
    await t.call("PUT", `/queue/${queue.id}`, { token: c.adminToken, body: { integrationId: null } });
    expect((await t.call("DELETE", `/queueIntegration/${made.body.id}`, { token: c.adminToken })).status).toBe(200);
  });

  it("tests a DialogFlow session: unusable credentials get ERR_DIALOGFLOW_INVALID_CREDENTIALS before any network call", async () => {
    const test = (body: Record<string, unknown>) => t.call("POST", "/queueIntegration/testSession", { token: a.adminToken, body });
    const account = (over: Record<string, unknown> = {}) =>
      JSON.stringify({ type: "service_account", project_id: "agente-123", client_email: "bot@agente-123.iam.gserviceaccount.com", private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", ...over });
    expect(await test({ projectName: "agente-123", language: "pt-BR" })).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect(await test({ projectName: "agente-123", jsonContent: account(), language: "fr" })).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    const cases: [string, string][] = [
      ["não é json", "json"],
      ["[1,2]", "json"],
      [account({ type: "authorized_user" }), "type"],
      [account({ private_key: undefined }), "fields"],
      [account({ client_email: "" }), "fields"],
      [account({ private_key: "chave" }), "fields"],
      [account({ project_id: "outro-projeto" }), "project"],
    ];
    for (const [jsonContent, reason] of cases) {
      const res = await test({ projectName: "agente-123", jsonContent, language: "pt-BR" });
      expect(res, jsonContent).toMatchObject({ status: 400, body: { error: "ERR_DIALOGFLOW_INVALID_CREDENTIALS", data: { reason } } });
    }
    // the PEM envelope is there but the key inside is garbage: refused when importing it, still before the network
    const garbage = await test({ projectName: "agente-123", jsonContent: account(), language: "pt-BR" });
    expect(garbage).toMatchObject({ status: 400, body: { error: "ERR_DIALOGFLOW_INVALID_CREDENTIALS", data: { reason: "private_key" } } });
    // with a usable key the client calls Google (dialogflow-client.test.ts covers its answers with a fake network)
  });

  it("never answers a DialogFlow private key; an edit or a test that sends it back masked uses the stored one", async () => {
    const pem = "-----BEGIN PRIVATE KEY-----\nMIIEsegredo\n-----END PRIVATE KEY-----\n";
    const jsonContent = JSON.stringify({ type: "service_account", project_id: "agente-9", client_email: "bot@agente-9.iam.gserviceaccount.com", private_key: pem });
    const made = await create(a, { type: "dialogflow", name: "Agente 9", language: "es", projectName: "agente-9", jsonContent });
    expect(made.status).toBe(200);
    expect(made.body.jsonContent).not.toContain("MIIEsegredo");
    const shown = JSON.parse(made.body.jsonContent as string) as Record<string, string>;
    expect(shown).toMatchObject({ project_id: "agente-9", client_email: "bot@agente-9.iam.gserviceaccount.com", private_key: "••••••••" });
    const listed = await page(a, "?searchParam=agente%209");
    expect(JSON.stringify(listed)).not.toContain("MIIEsegredo");

    const id = made.body.id as number;
    const edited = await t.call("PUT", `/queueIntegration/${id}`, { token: a.adminToken, body: { type: "dialogflow", name: "Agente nove", language: "es", projectName: "agente-9", jsonContent: made.body.jsonContent } });
    expect(edited.status).toBe(200);
    const stored = await createQueueIntegrationsRepository(t.container.db).findById(a.company.id, id);
    // stored sealed (ADR 0027), and still the same key
    expect(await t.container.secrets.open(JSON.parse(stored!.jsonContent).private_key)).toBe(pem);
    expect(stored!.name).toBe("Agente nove");

    // the test button of the edit dialog sends the masked JSON with the id: the stored key is the one checked
    // (this stored key is not a real RSA key, so the check stops before any network call)
    const test = await t.call("POST", "/queueIntegration/testSession", { token: a.adminToken, body: { id, projectName: "agente-9", language: "es", jsonContent: made.body.jsonContent } });
    expect(test).toMatchObject({ status: 400, body: { error: "ERR_DIALOGFLOW_INVALID_CREDENTIALS", data: { reason: "private_key" } } });
    const withoutId = await t.call("POST", "/queueIntegration/testSession", { token: a.adminToken, body: { projectName: "agente-9", language: "es", jsonContent: made.body.jsonContent } });
    expect(withoutId).toMatchObject({ status: 400, body: { error: "ERR_DIALOGFLOW_INVALID_CREDENTIALS", data: { reason: "fields" } } });
    // another company's id gives nothing away
    const foreign = await t.call("POST", "/queueIntegration/testSession", { token: b.adminToken, body: { id, projectName: "agente-9", language: "es", jsonContent: made.body.jsonContent } });
    expect(foreign.status).toBe(404);
  });
});
