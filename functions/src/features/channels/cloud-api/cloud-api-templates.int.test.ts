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
import { CAMPAIGN_STEP_JOB } from "../../campaigns/campaigns.service";
import { hashPassword } from "../../auth/password";

/**
 * Issue 12's template leftovers through the whole API (docs/adr/0031-cloud-api-templates-and-window.md):
 * campaigns on a Cloud API connection send approved templates only, marked bulk (one message per person every 6 s);
 * automatic messages outside the 24-hour window use the connection's templates or are skipped with an internal
 * note; a message to a contact the provider would refuse leaves no empty ticket and tells the caller why.
 */
const inbound = createMemoryInboundQueue();
const TOKEN = "EAAG-TOKEN-TEMPLATES-A";
const PHONE = "106540352200001";
const APP_SECRET = "app-secret-templates-a-0001";
const TEMPLATES = [
  { name: "retomar_conversa", language: "pt_BR", status: "APPROVED", category: "UTILITY", id: "1", components: [{ type: "BODY", text: "Olá {{1}}, podemos continuar?" }] },
  { name: "avaliacao", language: "pt_BR", status: "APPROVED", category: "UTILITY", id: "2", components: [{ type: "BODY", text: "{{1}}, como foi o atendimento {{2}}? Responda 1, 2 ou 3." }] },
  { name: "promo", language: "pt_BR", status: "APPROVED", category: "MARKETING", id: "3", components: [{ type: "BODY", text: "Oi {{1}}, hoje tem {{2}}!" }] },
  { name: "promo_nova", language: "pt_BR", status: "PENDING", category: "MARKETING", id: "4", components: [{ type: "BODY", text: "Novidade para {{1}}" }] },
];
const graph = recordingGraphApi({
  token: TOKEN,
  phone: { id: PHONE, displayPhoneNumber: "+55 11 4000-0002", verifiedName: "Loja T" },
  templates: () => TEMPLATES,
  messageIdPrefix: "TPL",
});
const graphCalls = graph.calls;

let t: TestApp;
let a: Tenant;
let b: Tenant;
let cloudId: number;
let cloudToken: string;
let hookPath: string;

const cloudBody = (over: Record<string, unknown> = {}) => ({
  name: "Oficial T",
  provider: "cloudapi",
  phoneNumberId: PHONE,
  wabaId: "102290129300001",
  accessToken: TOKEN,
  appSecret: APP_SECRET,
  graphApiUrl: "https://graph.test/v23.0",
  ratingTemplate: "avaliacao",
  inactivityTemplate: "promo_nova",
  transferTemplate: "",
  // set from the start: the inbox reuses a company's lookups for 2 s, so a later change could be read late
  expiresTicket: 60,
  expiresInactiveMessage: "Encerramos por inatividade.",
  ...over,
});
/** A customer's text as Meta posts it, signed, then consumed like the inbound Lambda does. */
const customerWrites = async (from: string, text: string, at: Date) => {
  const raw = JSON.stringify(envelope({ messages: [{ from, id: `wamid.IN${from}${at.getTime()}`, timestamp: String(Math.floor(at.getTime() / 1000)), type: "text", text: { body: text } }] }, PHONE));
  const res = await t.call("POST", hookPath, { rawBody: raw, headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(raw, APP_SECRET) } });
  expect(res.status).toBe(200);
  const events = inbound.events.splice(0);
  if (events.length) await deliver(t, ...events);
};
const cloudJobs = () => t.jobs.pending.filter((p) => p.job.type === "feature" && (p.job as { name: string }).name === "cloudapi.send");
const takeCloudJobs = () => {
  const out: { job: JobMessage; delaySeconds: number }[] = [];
  for (let i = t.jobs.pending.length - 1; i >= 0; i--) {
    const p = t.jobs.pending[i]!;
    if (p.job.type === "feature" && (p.job as { name: string }).name === "cloudapi.send") out.unshift(...t.jobs.pending.splice(i, 1));
  }
  return out;
};
const commandOf = (p: { job: JobMessage }) => (p.job as unknown as { payload: CloudApiJob }).payload.command;
const runCloud = async (jobs = takeCloudJobs()) => {
  for (const p of jobs) await runJob(t.container, p.job);
  const results = inbound.events.splice(0);
  if (results.length) await deliver(t, ...results);
  return jobs;
};
const ticketOf = async (number: string) => (await adminTickets(t, a)).find((x) => x.contact.number === number);
const notesOf = async (ticketId: number) => (await t.call("GET", `/ticket-notes/list?ticketId=${ticketId}`, { token: a.adminToken })).body as { note: string; userId: number | null }[];
const messagesOf = async (ticketId: number) => (await t.call("GET", `/messages/${ticketId}`, { token: a.adminToken })).body.messages as { id: string; body: string; fromMe: boolean }[];

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { inbound, graphFetch: graph.fetch, secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "cloudapi-tpl-")), "key")) } });
  a = await createTenant(t, { plan: { connections: 5 }, queues: [{ name: "Vendas", color: "#123456" }] });
  b = await createTenant(t, { plan: { connections: 5 } });
  const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: cloudBody() });
  expect([res.status, res.body.status]).toEqual([200, "CONNECTED"]);
  cloudId = res.body.id;
  hookPath = new URL(res.body.cloudApi.webhookUrl).pathname.replace(/^\/api/, "");
  cloudToken = (await t.call("GET", `/whatsapp/${cloudId}`, { token: a.adminToken })).body.token;
  expect(cloudToken).toBeTruthy();
  expect((await t.call("POST", `/cloud-api/${cloudId}/templates/sync`, { token: a.adminToken })).status).toBe(200);
  for (const key of ["userRating", "sendMsgTransfTicket"]) expect((await t.call("PUT", `/settings/${key}`, { token: a.adminToken, body: { value: "enabled" } })).status).toBe(200);
});

describe("automatic messages and the 24-hour window", () => {
  it("inside the window the transfer notice goes as text; outside it is skipped with an internal note (no template chosen) and the rating request goes as the chosen template", async () => {
    const number = "5511970000001";
    await customerWrites(number, "Oi, quero ajuda", t.clock.now);
    const tk = (await ticketOf(number))!;
    expect((await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "open", userId: a.admin.id } })).status).toBe(200);
    // inside the window: the notice is free text, as on QR connections
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { queueId: a.queues[0]!.id, userId: a.admin.id } });
    expect((await messagesOf(tk.id)).some((m) => m.fromMe && m.body.includes("Mensagem automática"))).toBe(true);
    await runCloud();

    // 25 hours later the window has closed
    t.clock.advance(25 * 3600_000);
    const before = (await messagesOf(tk.id)).length;
    const transfer = await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { queueId: a.queues[0]!.id, userId: a.user.id } });
    expect(transfer.status).toBe(200);
    expect((await messagesOf(tk.id)).length).toBe(before);
    expect(cloudJobs()).toEqual([]);
    const notes = await notesOf(tk.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ userId: null });
    expect(notes[0]!.note).toContain("aviso de transferência");
    expect(notes[0]!.note).toContain("nenhum modelo");

    // closing asks for the rating with the connection's rating template, variables from the contact and ticket
    expect((await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "closed" } })).status).toBe(200);
    const rating = (await messagesOf(tk.id)).at(-1)!;
    expect(rating).toMatchObject({ fromMe: true, body: `${tk.contact.name}, como foi o atendimento ${tk.id}? Responda 1, 2 ou 3.` });
    const jobs = cloudJobs();
    expect(jobs.map((p) => commandOf(p))).toMatchObject([{ type: "send", template: { name: "avaliacao", language: "pt_BR" } }]);
    await runCloud();
    expect(graphCalls.findLast((c) => c.url.endsWith(`/${PHONE}/messages`))!.body).toMatchObject({
      type: "template",
      template: { name: "avaliacao", components: [{ type: "body", parameters: [{ type: "text", text: tk.contact.name }, { type: "text", text: String(tk.id) }] }] },
    });
    expect(await notesOf(tk.id)).toHaveLength(1);
  });

  it("the inactivity message outside the window: its template is not approved, so it is skipped with a note saying so", async () => {
    const number = "5511970000002";
    await customerWrites(number, "Bom dia", t.clock.now);
    const tk = (await ticketOf(number))!;
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "open", userId: a.admin.id } });
    expect((await t.call("POST", `/messages/${tk.id}`, { token: a.adminToken, body: { body: "Posso ajudar?" } })).status).toBe(201);
    await runCloud();
    const before = (await messagesOf(tk.id)).length;
    t.clock.advance(25 * 3600_000);
    await runTick(t.container);
    expect((await t.call("GET", `/tickets/${tk.id}`, { token: a.adminToken })).body.status).toBe("closed");
    expect((await messagesOf(tk.id)).length).toBe(before);
    const notes = await notesOf(tk.id);
    expect(notes.map((n) => n.note)).toEqual([expect.stringContaining("mensagem de inatividade")]);
    expect(notes[0]!.note).toContain("não está aprovado");
    takeCloudJobs();
  });
});

describe("a message to a contact the provider would refuse", () => {
  it("the external API: free text to someone who never wrote answers ERR_WINDOW_CLOSED and leaves no ticket", async () => {
    const number = "5511970000010";
    const res = await t.call("POST", "/messages/send", { headers: { authorization: `Bearer ${cloudToken}` }, body: { number, body: "Promoção!" } });
    expect([res.status, res.body]).toEqual([409, { error: "ERR_WINDOW_CLOSED" }]);
    expect(await ticketOf(number)).toBeUndefined();
    expect(cloudJobs().filter((p) => JSON.stringify(commandOf(p)).includes(number))).toEqual([]);
  });

  it("the external API takes an approved template instead (the way to write first); a template on a QR connection is refused", async () => {
    const number = "5511970000012";
    const template = { name: "retomar_conversa", language: "pt_BR", values: { body: { "1": "Dora" } } };
    const res = await t.call("POST", "/messages/send", { headers: { authorization: `Bearer ${cloudToken}` }, body: { number, template } });
    expect(res.status).toBe(200);
    const tk = (await ticketOf(number))!;
    expect((await messagesOf(tk.id)).map((m) => [m.fromMe, m.body])).toEqual([[true, "Olá Dora, podemos continuar?"]]);
    expect(cloudJobs().map(commandOf).filter((c) => JSON.stringify(c).includes(number))).toMatchObject([{ type: "send", template: { name: "retomar_conversa" } }]);
    takeCloudJobs();
    const qr = await t.call("POST", "/messages/send", { headers: { authorization: `Bearer ${a.whatsapp.token}` }, body: { number: "5511970000013", template } });
    expect([qr.status, qr.body]).toEqual([400, { error: "ERR_CHANNEL_UNSUPPORTED" }]);
    expect(await ticketOf("5511970000013")).toBeUndefined();
  });

  it("forwarding into a Cloud API conversation whose window is closed answers ERR_WINDOW_CLOSED and creates no ticket", async () => {
    // an attendant whose connection is the Cloud API one (forwarded messages go out through the user's connection)
    const email = `cloud-user-${Date.now()}@teste.com`;
    await t.container.repos.users.create(a.company.id, { name: "Cloud Attendant", email, passwordHash: await hashPassword(a.password, 4), profile: "admin", super: false, whatsappId: cloudId, allTicket: "enabled", queueIds: [] }, t.clock.now);
    const token = (await a.login(email)).token;
    const source = (await messagesOf((await ticketOf("5511970000001"))!.id))[0]!;
    const contact = await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Encaminhada", number: "5511970000014" } });
    const res = await t.call("POST", "/message/forward", { token, body: { messageId: source.id, contactId: contact.body.id, signMessage: false } });
    expect([res.status, res.body]).toEqual([409, { error: "ERR_WINDOW_CLOSED" }]);
    expect(await ticketOf("5511970000014")).toBeUndefined();
  });

  it("a scheduled message: the schedule fails with ERR_WINDOW_CLOSED, no ticket is created", async () => {
    const contact = await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Agendada", number: "5511970000011" } });
    expect(contact.status).toBe(200);
    const sendAt = new Date(t.clock.now.getTime() + 10 * 60_000).toISOString();
    const created = await t.call("POST", "/schedules", { token: a.adminToken, body: { body: "Lembrete", contactId: contact.body.id, sendAt, whatsappId: cloudId } });
    expect(created.status).toBe(200);
    t.clock.advance(11 * 60_000);
    await runTick(t.container);
    const s = (await t.call("GET", `/schedules/${created.body.id}`, { token: a.adminToken })).body;
    expect(s).toMatchObject({ status: "ERRO", errorMessage: "ERR_WINDOW_CLOSED" });
    expect(await ticketOf("5511970000011")).toBeUndefined();
  });
});

describe("campaigns on a Cloud API connection", () => {
  let seq = 0;
  const newList = async (people: string[]) => {
    const list = await t.call("POST", "/contact-lists", { token: a.adminToken, body: { name: `Lista T ${++seq}` } });
    const numbers: string[] = [];
    for (const name of people) {
      const number = `55119${String(71000000 + ++seq).padStart(8, "0")}`;
      await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { contactListId: list.body.id, name, number, email: "" } });
      const check = t.commands.sent.flatMap((c) => (c.type === "checkNumbers" ? c.checks : [])).find((c) => c.number === number)!;
      await t.container.services.contactLists.onNumberChecked({ type: "number.checked", companyId: a.company.id, whatsappId: a.whatsapp.id, requestId: check.requestId, number, exists: true } as never);
      numbers.push(number);
    }
    return { id: list.body.id as number, numbers };
  };
  const body = (over: Record<string, unknown> = {}) => ({ name: "Promo oficial", message1: "", confirmation: false, scheduledAt: null, whatsappId: cloudId, contactListId: null, tagListId: "Nenhuma", ...over });
  const tpl = (over: Record<string, unknown> = {}) => ({ name: "promo", language: "pt_BR", values: { body: { "1": "{nome}", "2": "frete grátis" } }, ...over });

  it("refuses free text, unknown, unapproved or unfilled templates with catalogue codes (and a template on a QR connection), storing nothing", async () => {
    const count = async () => (await t.call("GET", "/campaigns/", { token: a.adminToken })).body.records.length;
    const before = await count();
    const cases: [Record<string, unknown>, number, string][] = [
      [body({ message1: "Oi {nome}" }), 400, "ERR_CAMPAIGN_TEMPLATE_REQUIRED"],
      [body({ template: tpl({ name: "nao_existe" }) }), 404, "ERR_TEMPLATE_NOT_FOUND"],
      [body({ template: tpl({ name: "promo_nova", values: { body: { "1": "{nome}" } } }) }), 400, "ERR_TEMPLATE_NOT_APPROVED"],
      [body({ template: tpl({ values: { body: { "1": "{nome}" } } }) }), 400, "ERR_TEMPLATE_VALUES_MISSING"],
      [body({ template: tpl(), confirmation: true }), 400, "ERR_CHANNEL_UNSUPPORTED"],
      [body({ whatsappId: a.whatsapp.id, message1: "Oi", template: tpl() }), 400, "ERR_CHANNEL_UNSUPPORTED"],
    ];
    for (const [b0, status, error] of cases) {
      const res = await t.call("POST", "/campaigns", { token: a.adminToken, body: b0 });
      expect([JSON.stringify(b0.template ?? b0.message1), res.status, res.body.error]).toEqual([JSON.stringify(b0.template ?? b0.message1), status, error]);
    }
    expect(await count()).toBe(before);
    // company B cannot aim a campaign at A's Cloud API connection (not found, whatever the template)
    const cross = await t.call("POST", "/campaigns", { token: b.adminToken, body: body({ template: tpl() }) });
    expect([cross.status, cross.body.error]).toEqual([404, "ERR_NO_WAPP_FOUND"]);
  });

  it("sends the approved template to every recipient with placeholders filled, marked bulk", async () => {
    const list = await newList(["Ana Lima", "Beto Reis"]);
    const created = await t.call("POST", "/campaigns", { token: a.adminToken, body: body({ template: tpl(), contactListId: list.id, scheduledAt: new Date(t.clock.now.getTime() + 5 * 60_000).toISOString() }) });
    expect(created.status).toBe(200);
    expect(created.body.template).toMatchObject({ name: "promo", language: "pt_BR" });
    t.clock.advance(6 * 60_000);
    await runTick(t.container);
    for (let steps = t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === CAMPAIGN_STEP_JOB); steps.length; steps = t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === CAMPAIGN_STEP_JOB)) {
      for (const s of steps) {
        t.jobs.pending.splice(t.jobs.pending.indexOf(s), 1);
        t.clock.advance(s.delaySeconds * 1000);
        await runJob(t.container, s.job);
      }
    }
    const sends = cloudJobs().map(commandOf).filter((c) => c.type === "send" && list.numbers.some((n) => c.chatJid.startsWith(n)));
    expect(sends).toHaveLength(2);
    for (const c of sends) expect(c).toMatchObject({ bulk: true, template: { name: "promo", language: "pt_BR" } });
    expect(sends.map((c) => (c as { body: string }).body).sort()).toEqual(["Oi Ana Lima, hoje tem frete grátis!", "Oi Beto Reis, hoje tem frete grátis!"]);
    await runCloud();
    const calls = graphCalls.filter((c) => c.body?.type === "template" && (c.body.template as { name: string }).name === "promo");
    expect(calls.map((c) => (c.body!.template as { components: { parameters: { text: string }[] }[] }).components[0]!.parameters[0]!.text).sort()).toEqual(["Ana Lima", "Beto Reis"]);
    const report = (await t.call("GET", `/campaigns/${created.body.id}`, { token: a.adminToken })).body;
    expect(report).toMatchObject({ status: "FINALIZADA", counts: { delivered: 2, failed: 0 } });
  });

  it("campaign messages to the same person go one every 6 seconds (pair rate); the number's throughput still applies", async () => {
    const contact = await t.container.services.inbox.upsertFromWhatsapp(a.company.id, cloudId, { jid: "5511970000020@s.whatsapp.net", number: "5511970000020" });
    const send = (i: number) =>
      t.container.services.inbox.sendToContact({ companyId: a.company.id, contactId: contact.id, whatsappId: cloudId, body: "", userId: null, id: `PAIRRATE${i}`, template: { ...tpl(), values: { header: {}, body: { "1": "Caio", "2": `oferta ${i}` } } }, bulk: true });
    await send(1);
    await send(2);
    const callsBefore = graphCalls.length;
    const first = takeCloudJobs();
    expect(first).toHaveLength(2);
    await runCloud(first);
    // the first went out; the second waits for the person's next slot, 6 s later (back on the queue, not sent)
    expect(graphCalls.slice(callsBefore).filter((c) => c.body?.type === "template")).toHaveLength(1);
    const waiting = takeCloudJobs();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.delaySeconds).toBe(6);
    expect(commandOf(waiting[0]!)).toMatchObject({ messageId: "PAIRRATE2", bulk: true });
    t.clock.advance(6_000);
    await runCloud(waiting);
    const out = graphCalls.slice(callsBefore).filter((c) => c.body?.type === "template");
    expect(out.map((c) => (c.body!.template as { components: { parameters: { text: string }[] }[] }).components[0]!.parameters[1]!.text)).toEqual(["oferta 1", "oferta 2"]);
    // an attendant's template to the same person right away is not held by the pair rate (not bulk)
    const tk = (await ticketOf("5511970000020"))!;
    const callsNow = graphCalls.length;
    expect((await t.call("POST", `/messages/${tk.id}`, { token: a.adminToken, body: { template: tpl({ values: { body: { "1": "Caio", "2": "atendimento" } } }) } })).status).toBe(201);
    await runCloud();
    expect(graphCalls.slice(callsNow).filter((c) => c.body?.type === "template")).toHaveLength(1);
    expect(cloudJobs()).toEqual([]);
  });
});
