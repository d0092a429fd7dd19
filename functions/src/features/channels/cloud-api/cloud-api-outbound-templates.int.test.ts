import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { recordingGraphApi } from "../../../testing/graph-api-stand-in";
import { adminTickets, deliver } from "../../../testing/inbox-fixtures";
import { runJob } from "../../../app/jobs-consumer";
import { runTick } from "../../../app/tick";
import { createMemoryInboundQueue } from "../../../platform/queues/sqs-inbound.adapter";
import { createLocalSecretBox } from "../../../platform/secrets/local-secret-box.adapter";
import { signatureFor } from "../../../platform/channels/meta-webhook/webhook-signature";
import { envelope } from "../../../platform/channels/cloud-api/meta-webhook.fixtures";
import type { CloudApiJob } from "../../../platform/channels/cloud-api/cloud-api-sender";

/**
 * Templates wherever a message to a contact leaves outside a conversation (issue 12 item 3, docs/adr/0042):
 * scheduled messages on a Cloud API connection may carry an approved template, checked when saved and sent as a
 * template at their time whatever the 24-hour window; the external API takes a template as our `values` or as
 * Meta's `components`, checked before anything is stored. The Graph API here is a recording stand-in with Meta's
 * answers (the browser test drives the real simulator).
 */
const inbound = createMemoryInboundQueue();
const TOKEN = "EAAG-TOKEN-OUTBOUND-TPL";
const PHONE_A = "106540352200071";
const PHONE_B = "106540352200072";
const APP_SECRET = "app-secret-outbound-tpl-0001";
const WABA_A = "102290129300071";
const WABA_B = "102290129300072";
const TEMPLATES = [
  { name: "lembrete_consulta", language: "pt_BR", status: "APPROVED", category: "UTILITY", id: "11", components: [{ type: "BODY", text: "Olá {{1}}, sua consulta é {{2}}." }] },
  { name: "retomar_conversa", language: "pt_BR", status: "APPROVED", category: "UTILITY", id: "12", components: [{ type: "BODY", text: "Olá {{1}}, podemos continuar?" }] },
  { name: "promo_nova", language: "pt_BR", status: "PENDING", category: "MARKETING", id: "13", components: [{ type: "BODY", text: "Novidade para {{1}}" }] },
];
// company A's WABA has the templates; company B's has none
const graph = recordingGraphApi({
  token: TOKEN,
  phone: { id: PHONE_A, displayPhoneNumber: "+55 11 4000-0071", verifiedName: "Clínica T" },
  templates: (url) => (url.includes(`/${WABA_A}/`) ? TEMPLATES : []),
  messageIdPrefix: "OUT",
});
const graphCalls = graph.calls;

let t: TestApp;
let a: Tenant;
let b: Tenant;
let cloudId: number;
let cloudToken: string;
let hookPath: string;
let bCloudId: number;

const cloudBody = (phone: string, wabaId: string) => ({
  name: "Oficial",
  provider: "cloudapi",
  phoneNumberId: phone,
  wabaId,
  accessToken: TOKEN,
  appSecret: APP_SECRET,
  graphApiUrl: "https://graph.test/v23.0",
});
const customerWrites = async (from: string, text: string) => {
  const at = t.clock.now;
  const raw = JSON.stringify(envelope({ messages: [{ from, id: `wamid.IN${from}${at.getTime()}`, timestamp: String(Math.floor(at.getTime() / 1000)), type: "text", text: { body: text } }] }, PHONE_A));
  const res = await t.call("POST", hookPath, { rawBody: raw, headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(raw, APP_SECRET) } });
  expect(res.status).toBe(200);
  const events = inbound.events.splice(0);
  if (events.length) await deliver(t, ...events);
};
const isCloudJob = (p: { job: JobMessage }) => p.job.type === "feature" && (p.job as { name: string }).name === "cloudapi.send";
const takeCloudJobs = () => {
  const out: { job: JobMessage; delaySeconds: number }[] = [];
  for (let i = t.jobs.pending.length - 1; i >= 0; i--) if (isCloudJob(t.jobs.pending[i]!)) out.unshift(...t.jobs.pending.splice(i, 1));
  return out;
};
const commandOf = (p: { job: JobMessage }) => (p.job as unknown as { payload: CloudApiJob }).payload.command;
/** Runs the queued Cloud API sends (the jobs Lambda) and feeds back what they report (wamid, failures). */
const runCloud = async () => {
  const jobs = takeCloudJobs();
  for (const p of jobs) await runJob(t.container, p.job);
  const results = inbound.events.splice(0);
  if (results.length) await deliver(t, ...results);
  return jobs.map(commandOf);
};
const messagesTo = (number: string) => graphCalls.filter((c) => c.method === "POST" && c.url.endsWith(`/${PHONE_A}/messages`) && c.body?.to === number);

let seq = 0;
const newContact = async (tenant: Tenant, name: string) => {
  const number = `55119${String(72000000 + ++seq).padStart(8, "0")}`;
  const res = await t.call("POST", "/contacts", { token: tenant.adminToken, body: { name, number } });
  expect(res.status).toBe(200);
  return res.body as { id: number; name: string; number: string };
};
const inMinutes = (n: number) => new Date(t.clock.now.getTime() + n * 60_000).toISOString();
const tpl = (over: Record<string, unknown> = {}) => ({ name: "lembrete_consulta", language: "pt_BR", values: { body: { "1": "Dora", "2": "amanhã às 9h" } }, ...over });
const schedule = (token: string, body: Record<string, unknown>) => t.call("POST", "/schedules", { token, body });
const getSchedule = async (id: number, token = a.adminToken) => (await t.call("GET", `/schedules/${id}`, { token })).body;
const countSchedules = async (tenant: Tenant) => (await t.call("GET", "/schedules/", { token: tenant.adminToken })).body.schedules.length as number;
/** The minute tick at the schedule's time, then the Cloud API sends it queued. */
const tickAndSend = async (minutes: number) => {
  t.clock.advance(minutes * 60_000);
  await runTick(t.container);
  return runCloud();
};

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { inbound, graphFetch: graph.fetch, secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "cloudapi-out-")), "key")) } });
  a = await createTenant(t, { plan: { connections: 5 } });
  b = await createTenant(t, { plan: { connections: 5 } });
  // connection ids count per company: one more QR connection in A, so A's Cloud API id is not one B has
  expect((await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name: "QR Extra", isDefault: false } })).status).toBe(200);
  const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: cloudBody(PHONE_A, WABA_A) });
  expect([res.status, res.body.status]).toEqual([200, "CONNECTED"]);
  cloudId = res.body.id;
  hookPath = new URL(res.body.cloudApi.webhookUrl).pathname.replace(/^\/api/, "");
  cloudToken = (await t.call("GET", `/whatsapp/${cloudId}`, { token: a.adminToken })).body.token;
  expect((await t.call("POST", `/cloud-api/${cloudId}/templates/sync`, { token: a.adminToken })).status).toBe(200);
  // company B has a Cloud API connection of its own (its WABA has no templates)
  const mine = await t.call("POST", "/whatsapp", { token: b.adminToken, body: cloudBody(PHONE_B, WABA_B) });
  expect(mine.status).toBe(200);
  bCloudId = mine.body.id;
});

describe("scheduled messages with a template", () => {
  it("stores the template with its preview as the text and sends it as a template at its time, though the customer never wrote", async () => {
    const contact = await newContact(a, "Dora Agendada");
    const made = await schedule(a.userToken, { contactId: contact.id, sendAt: inMinutes(10), whatsappId: cloudId, template: tpl() });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({
      status: "PENDENTE",
      whatsappId: cloudId,
      body: "Olá Dora, sua consulta é amanhã às 9h.",
      template: { name: "lembrete_consulta", language: "pt_BR", values: { header: {}, body: { "1": "Dora", "2": "amanhã às 9h" } } },
    });
    // the list and its search show what the customer will read
    const found = await t.call("GET", "/schedules/?searchParam=consulta%20%C3%A9%20amanh%C3%A3", { token: a.userToken });
    expect(found.body.schedules.map((s: { id: number }) => s.id)).toEqual([made.body.id]);

    expect(await tickAndSend(5)).toEqual([]);
    const commands = await tickAndSend(6);
    expect(commands).toMatchObject([{ type: "send", template: { name: "lembrete_consulta", language: "pt_BR" } }]);
    expect(messagesTo(contact.number).map((c) => c.body)).toEqual([
      expect.objectContaining({
        type: "template",
        template: { name: "lembrete_consulta", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Dora" }, { type: "text", text: "amanhã às 9h" }] }] },
      }),
    ]);
    const after = await getSchedule(made.body.id, a.userToken);
    expect(after).toMatchObject({ status: "ENVIADA", errorMessage: null });
    const history = await t.call("GET", `/messages/${after.ticketId}`, { token: a.adminToken });
    expect(history.body.messages.map((m: { body: string; fromMe: boolean }) => [m.body, m.fromMe])).toEqual([["Olá Dora, sua consulta é amanhã às 9h.", true]]);
    // a later tick sends nothing more
    expect(await tickAndSend(1)).toEqual([]);
  });

  it("free text on a Cloud API schedule goes out while the customer's window is open (and fails with ERR_WINDOW_CLOSED once closed)", async () => {
    const contact = await newContact(a, "Edu Janela");
    await customerWrites(contact.number, "Oi, me lembrem amanhã");
    takeCloudJobs();
    const open = await schedule(a.adminToken, { contactId: contact.id, sendAt: inMinutes(30), whatsappId: cloudId, body: "Lembrete: sua consulta" });
    const closed = await schedule(a.adminToken, { contactId: contact.id, sendAt: inMinutes(25 * 60), whatsappId: cloudId, body: "Lembrete tardio" });
    expect([open.status, open.body.template, closed.status]).toEqual([200, null, 200]);
    expect(await tickAndSend(31)).toMatchObject([{ type: "send", body: "Lembrete: sua consulta" }]);
    expect(messagesTo(contact.number).map((c) => c.body?.type)).toEqual(["text"]);
    expect(await getSchedule(open.body.id)).toMatchObject({ status: "ENVIADA" });
    expect(await tickAndSend(25 * 60)).toEqual([]);
    expect(await getSchedule(closed.body.id)).toMatchObject({ status: "ERRO", errorMessage: "ERR_WINDOW_CLOSED" });
  });

  it("refuses with catalogue codes, storing nothing: no connection, not synced, not approved, a variable empty, a QR connection, no text and no template", async () => {
    const contact = await newContact(a, "Fábio Validação");
    const before = await countSchedules(a);
    const base = { contactId: contact.id, sendAt: inMinutes(60), whatsappId: cloudId };
    const cases: [Record<string, unknown>, number, string, unknown?][] = [
      [{ ...base, whatsappId: null, template: tpl() }, 400, "ERR_VALIDATION", { field: "whatsappId" }],
      [{ ...base, template: tpl({ name: "nao_existe" }) }, 404, "ERR_TEMPLATE_NOT_FOUND"],
      [{ ...base, template: tpl({ language: "en_US" }) }, 404, "ERR_TEMPLATE_NOT_FOUND"],
      [{ ...base, template: tpl({ name: "promo_nova", values: { body: { "1": "Fábio" } } }) }, 400, "ERR_TEMPLATE_NOT_APPROVED"],
      [{ ...base, template: tpl({ values: { body: { "1": "Fábio", "2": "  " } } }) }, 400, "ERR_TEMPLATE_VALUES_MISSING"],
      [{ ...base, whatsappId: a.whatsapp.id, template: tpl() }, 400, "ERR_CHANNEL_UNSUPPORTED"],
      [{ ...base, body: "  " }, 400, "ERR_VALIDATION"],
      [{ ...base, body: "oi", template: { language: "pt_BR" } }, 400, "ERR_VALIDATION"],
    ];
    for (const [body, status, error, data] of cases) {
      const res = await schedule(a.adminToken, body);
      expect([JSON.stringify(body.template ?? body.body), res.status, res.body.error]).toEqual([JSON.stringify(body.template ?? body.body), status, error]);
      if (data) expect(res.body.data).toMatchObject(data);
    }
    expect(await countSchedules(a)).toBe(before);

    // an edit is checked whole and changes nothing when refused
    const text = await schedule(a.adminToken, { ...base, body: "Texto" });
    expect(text.status).toBe(200);
    const refused = await t.call("PUT", `/schedules/${text.body.id}`, { token: a.adminToken, body: { template: tpl({ name: "promo_nova", values: { body: { "1": "x" } } }) } });
    expect([refused.status, refused.body.error]).toEqual([400, "ERR_TEMPLATE_NOT_APPROVED"]);
    const toQr = await t.call("PUT", `/schedules/${text.body.id}`, { token: a.adminToken, body: { whatsappId: a.whatsapp.id, template: tpl() } });
    expect([toQr.status, toQr.body.error]).toEqual([400, "ERR_CHANNEL_UNSUPPORTED"]);
    expect(await getSchedule(text.body.id)).toMatchObject({ body: "Texto", template: null, whatsappId: cloudId });

    // text → template → text again; a template schedule takes no attachment
    const toTemplate = await t.call("PUT", `/schedules/${text.body.id}`, { token: a.adminToken, body: { template: tpl() } });
    expect(toTemplate.body).toMatchObject({ body: "Olá Dora, sua consulta é amanhã às 9h.", template: { name: "lembrete_consulta" } });
    const form = new FormData();
    form.append("file", new File([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31])], "a.pdf", { type: "application/pdf" }));
    const upload = await t.app.request(`/api/schedules/${text.body.id}/media-upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.adminToken}` } });
    expect([upload.status, ((await upload.json()) as { error: string }).error]).toEqual([400, "ERR_CHANNEL_UNSUPPORTED"]);
    const back = await t.call("PUT", `/schedules/${text.body.id}`, { token: a.adminToken, body: { template: null, body: "Texto de novo" } });
    expect(back.body).toMatchObject({ body: "Texto de novo", template: null, mediaPath: null });
    await t.call("DELETE", `/schedules/${text.body.id}`, { token: a.adminToken });
  });

  it("a template paused after it was scheduled fails at its time with ERR_TEMPLATE_NOT_APPROVED, nothing sent", async () => {
    const contact = await newContact(a, "Gabi Pausada");
    const made = await schedule(a.adminToken, { contactId: contact.id, sendAt: inMinutes(20), whatsappId: cloudId, template: tpl({ name: "retomar_conversa", values: { body: { "1": "Gabi" } } }) });
    expect(made.status).toBe(200);
    TEMPLATES[1]!.status = "PAUSED";
    try {
      expect((await t.call("POST", `/cloud-api/${cloudId}/templates/sync`, { token: a.adminToken })).status).toBe(200);
      expect(await tickAndSend(21)).toEqual([]);
    } finally {
      TEMPLATES[1]!.status = "APPROVED";
      await t.call("POST", `/cloud-api/${cloudId}/templates/sync`, { token: a.adminToken });
    }
    expect(await getSchedule(made.body.id)).toMatchObject({ status: "ERRO", errorMessage: "ERR_TEMPLATE_NOT_APPROVED", ticketId: null });
    expect(messagesTo(contact.number)).toEqual([]);
    expect((await adminTickets(t, a)).some((x) => x.contact.number === contact.number)).toBe(false);
  });

  it("company B cannot schedule through company A's connection or with A's templates, nor read or change A's template schedule", async () => {
    const aContact = await newContact(a, "Helena de A");
    const aSchedule = await schedule(a.adminToken, { contactId: aContact.id, sendAt: inMinutes(90), whatsappId: cloudId, template: tpl() });
    expect(aSchedule.status).toBe(200);
    const bContact = await newContact(b, "Ivo de B");
    expect(aContact.id).not.toBe(bContact.id);
    const before = await countSchedules(b);
    const bIds = ((await t.call("GET", "/whatsapp/", { token: b.adminToken })).body as { id: number }[]).map((w) => w.id);
    expect(bIds).toContain(bCloudId);
    expect(bIds).not.toContain(cloudId);
    const viaA = await schedule(b.adminToken, { contactId: bContact.id, sendAt: inMinutes(60), whatsappId: cloudId, template: tpl() });
    expect([viaA.status, viaA.body.error]).toEqual([404, "ERR_NO_WAPP_FOUND"]);
    // A's template name on B's own Cloud API connection (synced: B's WABA has none): templates are per connection
    expect((await t.call("POST", `/cloud-api/${bCloudId}/templates/sync`, { token: b.adminToken })).body).toEqual([]);
    const aTemplate = await schedule(b.adminToken, { contactId: bContact.id, sendAt: inMinutes(60), whatsappId: bCloudId, template: tpl() });
    expect([aTemplate.status, aTemplate.body.error]).toEqual([404, "ERR_TEMPLATE_NOT_FOUND"]);
    // A's contact with B's connection
    const aContactViaB = await schedule(b.adminToken, { contactId: aContact.id, sendAt: inMinutes(60), whatsappId: bCloudId, body: "oi" });
    expect(aContactViaB.status).toBe(404);
    expect(await countSchedules(b)).toBe(before);
    expect((await t.call("GET", `/schedules/${aSchedule.body.id}`, { token: b.adminToken })).status).toBe(404);
    const edit = await t.call("PUT", `/schedules/${aSchedule.body.id}`, { token: b.adminToken, body: { template: tpl({ values: { body: { "1": "Invasor", "2": "já" } } }) } });
    expect(edit.status).toBe(404);
    expect(await getSchedule(aSchedule.body.id)).toMatchObject({ body: "Olá Dora, sua consulta é amanhã às 9h.", status: "PENDENTE" });
    await t.call("DELETE", `/schedules/${aSchedule.body.id}`, { token: a.adminToken });
  });
});

describe("the external API with a template", () => {
  const send = (token: string, body: Record<string, unknown>) => t.call("POST", "/messages/send", { headers: { authorization: `Bearer ${token}` }, body });
  const contactExists = async (tenant: Tenant, number: string) =>
    ((await t.call("GET", `/contacts?searchParam=${number}`, { token: tenant.adminToken })).body.contacts as { number: string }[]).some((c) => c.number === number);

  it("takes Meta's components as well as our values, and sends the template", async () => {
    const number = "5511972100001";
    const res = await send(cloudToken, {
      number,
      template: { name: "lembrete_consulta", language: "pt_BR", components: [{ type: "BODY", parameters: [{ type: "text", text: "Júlia" }, { type: "text", text: "sexta às 14h" }] }] },
    });
    expect([res.status, res.body]).toEqual([200, { mensagem: "Mensagem enviada" }]);
    await runCloud();
    expect(messagesTo(number).map((c) => c.body?.template)).toEqual([
      { name: "lembrete_consulta", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Júlia" }, { type: "text", text: "sexta às 14h" }] }] },
    ]);
    const tk = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
    const history = await t.call("GET", `/messages/${tk.id}`, { token: a.adminToken });
    expect(history.body.messages.map((m: { body: string }) => m.body)).toEqual(["Olá Júlia, sua consulta é sexta às 14h."]);
  });

  it("refuses a template it cannot send with its code before anything is stored (not even the contact)", async () => {
    // the lookup below finds a contact the API did create (the previous test's)
    expect(await contactExists(a, "5511972100001")).toBe(true);
    const cases: [string, Record<string, unknown>, number, string][] = [
      ["5511972100011", { name: "nao_existe", language: "pt_BR" }, 404, "ERR_TEMPLATE_NOT_FOUND"],
      ["5511972100012", { name: "promo_nova", language: "pt_BR", values: { body: { "1": "x" } } }, 400, "ERR_TEMPLATE_NOT_APPROVED"],
      ["5511972100013", { name: "lembrete_consulta", language: "pt_BR", components: [{ type: "body", parameters: [{ type: "text", text: "só um" }] }] }, 400, "ERR_TEMPLATE_VALUES_MISSING"],
      ["5511972100014", { name: "lembrete_consulta", language: "pt_BR", components: [{ type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "x" }] }] }, 400, "ERR_VALIDATION"],
    ];
    for (const [number, template, status, error] of cases) {
      const res = await send(cloudToken, { number, template });
      expect([template.name, res.status, res.body.error]).toEqual([template.name, status, error]);
      expect(await contactExists(a, number)).toBe(false);
    }
    // on a QR connection: not a template channel
    const qr = await send(a.whatsapp.token, { number: "5511972100015", template: tpl() });
    expect([qr.status, qr.body.error]).toEqual([400, "ERR_CHANNEL_UNSUPPORTED"]);
    expect(await contactExists(a, "5511972100015")).toBe(false);
    expect(takeCloudJobs()).toEqual([]);
  });
});
