import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@atende/functions/testing/factories";
import { serveHttp } from "@atende/functions/testing/serve-http";
import { createTestApp, type TestApp } from "@atende/functions/testing/test-app";
import { isSealed } from "@atende/functions/platform/secrets/secret-box.port";
import { createDialogflowSimulatorHttp } from "./dialogflow-simulator.http";
import { createQueueIntegrationsRepository } from "@atende/functions/features/queue-integrations/queue-integrations.repository";

/**
 * The secrets of queue integrations (issue 11 items 5, 6; ADR 0027): an n8n/webhook integration's signing secret is
 * made on create, shown in that answer only, stored sealed and rotated by `POST /queueIntegration/{id}/rotate-secret`;
 * DialogFlow's private key is stored sealed too; the test button really calls detectIntent (the DialogFlow stand-in)
 * and answers what the agent said.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let stub: Awaited<ReturnType<typeof serveHttp>>;

beforeAll(async () => {
  stub = await serveHttp(createDialogflowSimulatorHttp().fetch);
  t = await createTestApp({ DIALOGFLOW_TOKEN_URL: `${stub.url}/simulator/dialogflow/token`, DIALOGFLOW_API_BASE: `${stub.url}/simulator/dialogflow` });
  a = await createTenant(t);
  b = await createTenant(t);
});
afterAll(() => stub?.close());

const SECRET = /^whsec_[\w-]{43}$/;
const create = (tenant: Tenant, body: Record<string, unknown>) => t.call("POST", "/queueIntegration", { token: tenant.adminToken, body });
const webhook = (over: Record<string, unknown> = {}) => ({ type: "webhook", name: "CRM webhook", urlN8N: "https://crm.exemplo.com.br/hook", ...over });
const stored = (tenant: Tenant, id: number) => createQueueIntegrationsRepository(t.container.db).findById(tenant.company.id, id) as Promise<Record<string, unknown> | null>;
const rotate = (tenant: Tenant, id: number, token = tenant.adminToken) => t.call("POST", `/queueIntegration/${id}/rotate-secret`, { token, body: {} });

describe("webhook signing secrets", () => {
  it("are made on create, shown in that answer only, stored sealed; never in GET, lists or live events", async () => {
    await t.container.services.sockets.connect("sec-admin", a.adminToken);
    const mark = t.sender.frames.length;
    const made = await create(a, webhook());
    expect(made.status).toBe(200);
    const secret = made.body.webhookSecret as string;
    expect(secret).toMatch(SECRET);
    expect(made.body.hasWebhookSecret).toBe(true);
    const id = made.body.id as number;

    const one = await t.call("GET", `/queueIntegration/${id}`, { token: a.adminToken });
    expect(one.body).toMatchObject({ id, hasWebhookSecret: true });
    expect(one.body.webhookSecret).toBeUndefined();
    const list = await t.call("GET", "/queueIntegration/?searchParam=crm", { token: a.adminToken });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(JSON.stringify(t.sender.frames.slice(mark))).not.toContain(secret);

    const row = await stored(a, id);
    expect(isSealed(String(row?.webhookSecret))).toBe(true);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(await t.container.secrets.open(String(row!.webhookSecret))).toBe(secret);

    // n8n too; Typebot and DialogFlow have none
    const n8n = await create(a, { type: "n8n", name: "Fluxo n8n", urlN8N: "https://n8n.exemplo.com.br/webhook/1" });
    expect(n8n.body.webhookSecret).toMatch(SECRET);
    expect(n8n.body.webhookSecret).not.toBe(secret);
    const typebot = await create(a, { type: "typebot", name: "Robô", urlN8N: "https://bot.exemplo.com.br", typebotSlug: "x" });
    expect(typebot.body.webhookSecret).toBeUndefined();
    expect(typebot.body.hasWebhookSecret).toBe(false);
  });

  it("an edit keeps the secret and does not show it; switching to webhook makes one (shown), switching away drops it", async () => {
    const made = await create(a, webhook({ name: "Editável" }));
    const id = made.body.id as number;
    const sealedBefore = (await stored(a, id))!.webhookSecret;
    const edited = await t.call("PUT", `/queueIntegration/${id}`, { token: a.adminToken, body: webhook({ name: "Editado", urlN8N: "https://crm.exemplo.com.br/v2" }) });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: "Editado", hasWebhookSecret: true });
    expect(edited.body.webhookSecret).toBeUndefined();
    expect((await stored(a, id))!.webhookSecret).toBe(sealedBefore);

    const away = await t.call("PUT", `/queueIntegration/${id}`, { token: a.adminToken, body: { type: "typebot", name: "Agora Typebot", urlN8N: "https://bot.exemplo.com.br", typebotSlug: "y" } });
    expect(away.body).toMatchObject({ type: "typebot", hasWebhookSecret: false });
    expect((await stored(a, id))!.webhookSecret ?? null).toBeNull();
    const back = await t.call("PUT", `/queueIntegration/${id}`, { token: a.adminToken, body: { type: "n8n", name: "De volta", urlN8N: "https://n8n.exemplo.com.br/w" } });
    expect(back.body.webhookSecret).toMatch(SECRET);
    expect(await t.container.secrets.open(String((await stored(a, id))!.webhookSecret))).toBe(back.body.webhookSecret);
  });

  it("rotate-secret answers a new secret once; the old one is gone; other types are refused", async () => {
    const made = await create(a, webhook({ name: "Girar" }));
    const id = made.body.id as number;
    const first = made.body.webhookSecret as string;
    const rotated = await rotate(a, id);
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body)).toEqual(["webhookSecret"]);
    expect(rotated.body.webhookSecret).toMatch(SECRET);
    expect(rotated.body.webhookSecret).not.toBe(first);
    expect(await t.container.secrets.open(String((await stored(a, id))!.webhookSecret))).toBe(rotated.body.webhookSecret);
    expect(JSON.stringify((await t.call("GET", `/queueIntegration/${id}`, { token: a.adminToken })).body)).not.toContain(rotated.body.webhookSecret);

    const typebot = await create(a, { type: "typebot", name: "Sem segredo", urlN8N: "https://bot.exemplo.com.br", typebotSlug: "z" });
    expect(await rotate(a, typebot.body.id)).toMatchObject({ status: 400, body: { error: "ERR_INTEGRATION_NO_SECRET" } });
    expect(await rotate(a, 999_999)).toMatchObject({ status: 404, body: { error: "ERR_NO_INTEGRATION_FOUND" } });
    expect((await rotate(a, id, a.userToken)).status).toBe(403);
  });

  it("keeps companies apart: B cannot rotate A's secret, and A's secret stays the same", async () => {
    const made = await create(a, webhook({ name: "Só da A" }));
    const id = made.body.id as number;
    const before = (await stored(a, id))!.webhookSecret;
    const foreign = await rotate(b, id);
    expect(foreign).toMatchObject({ status: 404, body: { error: "ERR_NO_INTEGRATION_FOUND" } });
    expect((await stored(a, id))!.webhookSecret).toBe(before);
    expect(await stored(b, id)).toBeNull();
  });

  it("is refused without the plan flag", async () => {
    const c = await createTenant(t, { plan: { useIntegrations: false } });
    expect(await rotate(c, 1)).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
  });
});

describe("DialogFlow", () => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
  const account = (project: string) => JSON.stringify({ type: "service_account", project_id: project, client_email: `bot@${project}.iam.gserviceaccount.com`, private_key: privateKey });

  it("stores the service account's private key sealed and answers it masked", async () => {
    const made = await create(a, { type: "dialogflow", name: "Agente", language: "pt-BR", projectName: "agente-1", jsonContent: account("agente-1") });
    expect(made.status).toBe(200);
    expect(made.body.jsonContent).not.toContain("PRIVATE KEY");
    const row = await stored(a, made.body.id);
    const key = JSON.parse(String(row!.jsonContent)).private_key as string;
    expect(isSealed(key)).toBe(true);
    expect(await t.container.secrets.open(key)).toBe(privateKey);
  });

  it("the test button calls detectIntent and answers what the agent said (with the stored key for a masked JSON)", async () => {
    const test = await t.call("POST", "/queueIntegration/testSession", { token: a.adminToken, body: { projectName: "agente-2", language: "pt-BR", jsonContent: account("agente-2") } });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ answer: ["Sessão de teste OK: o agente DialogFlow simulado respondeu."], intent: "Teste de sessão", endInteraction: false });

    const made = await create(a, { type: "dialogflow", name: "Agente 3", language: "es", projectName: "agente-3", jsonContent: account("agente-3") });
    const masked = await t.call("POST", "/queueIntegration/testSession", { token: a.adminToken, body: { id: made.body.id, projectName: "agente-3", language: "es", jsonContent: made.body.jsonContent } });
    expect(masked).toMatchObject({ status: 200, body: { intent: "Teste de sessão" } });
    // another project than the key's: the agent's server refuses
    const other = await t.call("POST", "/queueIntegration/testSession", {
      token: a.adminToken,
      body: { projectName: "agente-4", language: "pt-BR", jsonContent: account("agente-4").replace("bot@agente-4", "bot@outro") },
    });
    expect(other).toMatchObject({ status: 400, body: { error: "ERR_DIALOGFLOW_REJECTED" } });
  });
});
