import { beforeAll, describe, expect, it } from "vitest";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { runJob } from "../../app/jobs-consumer";
import { runTick } from "../../app/tick";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { customerMessage, deliver } from "../../testing/inbox-fixtures";
import { CAMPAIGN_STEP_JOB } from "./campaigns.service";

let t: TestApp;
let a: Tenant;
let b: Tenant;

const MIN = 60_000;
const at = (ms: number) => new Date(t.clock.now.getTime() + ms).toISOString();

type SendCommand = Extract<OutboundCommand, { type: "send" }>;
const sendsTo = (number: string) => t.commands.sent.filter((c): c is SendCommand => c.type === "send" && c.chatJid.startsWith(number));
const textOf = (c: SendCommand) => JSON.stringify(c);

let seq = 0;
/** A contact list of the tenant with the given recipients; `valid: false` ones are answered "not on WhatsApp". */
const newList = async (tenant: Tenant, people: { name: string; valid: boolean; email?: string }[]) => {
  const list = await t.call("POST", "/contact-lists", { token: tenant.adminToken, body: { name: `Lista ${++seq}` } });
  expect(list.status).toBe(200);
  const numbers: string[] = [];
  for (const p of people) {
    const number = `55119${String(80000000 + ++seq).padStart(8, "0")}`;
    const item = await t.call("POST", "/contact-list-items", { token: tenant.adminToken, body: { contactListId: list.body.id, name: p.name, number, email: p.email ?? "" } });
    expect(item.status).toBe(200);
    const check = t.commands.sent.flatMap((c) => (c.type === "checkNumbers" ? c.checks : [])).find((c) => c.number === number);
    expect(check).toBeDefined();
    await t.container.services.contactLists.onNumberChecked({
      type: "number.checked",
      companyId: tenant.company.id,
      whatsappId: tenant.whatsapp.id,
      requestId: check!.requestId,
      number,
      exists: p.valid,
    } as never); // the event's envelope fields beyond these are not read by the hook
    numbers.push(number);
  }
  return { id: list.body.id as number, numbers };
};

const isSendStep = (j: { job: JobMessage }) => j.job.type === "feature" && typeof j.job.payload.seq === "number";
/** Other tests' campaigns may come due as the clock moves on: pick one campaign's jobs. */
const ofCampaign = (...ids: number[]) => (j: { job: JobMessage }) => j.job.type === "feature" && ids.includes(Number(j.job.payload.campaignId));
/** Campaign jobs (send steps and background counts) waiting on the memory queue (taken off it). */
const takeSteps = () => {
  const taken: { job: JobMessage; delaySeconds: number }[] = [];
  for (let i = t.jobs.pending.length - 1; i >= 0; i--) {
    const p = t.jobs.pending[i]!;
    if (p.job.type === "feature" && p.job.name === CAMPAIGN_STEP_JOB) taken.unshift(...t.jobs.pending.splice(i, 1));
  }
  return taken;
};
/** Runs step jobs until none is left; returns the delays they were enqueued with. */
const runAllSteps = async () => {
  const delays: number[] = [];
  for (let steps = takeSteps(); steps.length; steps = takeSteps()) {
    for (const s of steps) {
      if (isSendStep(s)) delays.push(s.delaySeconds);
      t.clock.advance(s.delaySeconds * 1000); // the queue delivers it when its delay is over
      await runJob(t.container, s.job);
    }
  }
  return delays;
};

const campaignBody = (over: Record<string, unknown> = {}) => ({
  name: "Black Friday",
  message1: "Olá {nome}, seu número {numero} e email {email}: {promo}",
  message2: "",
  confirmation: false,
  scheduledAt: null,
  whatsappId: a.whatsapp.id,
  contactListId: null,
  tagListId: "Nenhuma",
  ...over,
});
const create = (token: string, body: Record<string, unknown>) => t.call("POST", "/campaigns", { token, body });
const get = (token: string, id: number) => t.call("GET", `/campaigns/${id}`, { token });

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
  const saved = await t.call("POST", "/campaign-settings", {
    token: a.adminToken,
    body: { settings: { messageInterval: 5, longerIntervalAfter: 5, greaterInterval: 30, variables: [{ key: "promo", value: "50% off" }] } },
  });
  expect(saved.status).toBe(200);
});

describe("campaigns CRUD", () => {
  it("creates an INATIVA campaign, lists, reads, edits and deletes it", async () => {
    const list = await newList(a, [{ name: "Ana", valid: true }]);
    const created = await create(a.adminToken, campaignBody({ contactListId: list.id }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: "Black Friday", status: "INATIVA", tagListId: "Nenhuma", contactList: { id: list.id }, whatsapp: { id: a.whatsapp.id } });
    await t.container.services.sockets.connect("cmp-admin", a.adminToken);
    const page = await t.call("GET", "/campaigns/", { token: a.adminToken });
    expect(page.status).toBe(200);
    expect(page.body.hasMore).toBe(false);
    expect(page.body.records.map((r: { id: number }) => r.id)).toContain(created.body.id);
    const edited = await t.call("PUT", `/campaigns/${created.body.id}`, { token: a.adminToken, body: campaignBody({ name: "Natal", contactListId: list.id }) });
    expect(edited.status).toBe(200);
    expect((await get(a.adminToken, created.body.id)).body.name).toBe("Natal");
    const channels = t.sender.frames.map((f) => (f.frame as { channel: string }).channel);
    expect(channels).toContain(`company-${a.company.id}-campaign`);
    expect((await t.call("DELETE", `/campaigns/${created.body.id}`, { token: a.adminToken })).status).toBe(200);
    expect((await get(a.adminToken, created.body.id)).status).toBe(404);
  });

  it("refuses a bad name or a past schedule with ERR_VALIDATION and stores nothing", async () => {
    const before = (await t.call("GET", "/campaigns/", { token: a.adminToken })).body.records.length;
    for (const body of [campaignBody({ name: "" }), campaignBody({ name: "A" }), campaignBody({ name: "x".repeat(51) }), campaignBody({ scheduledAt: at(-MIN) })]) {
      const res = await create(a.adminToken, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    expect((await t.call("GET", "/campaigns/", { token: a.adminToken })).body.records.length).toBe(before);
  });

  it("is for admins on a plan with campaigns", async () => {
    expect((await t.call("GET", "/campaigns/", { token: a.userToken })).status).toBe(403);
    const c = await createTenant(t, { plan: { useCampaigns: false } });
    const res = await t.call("GET", "/campaigns/", { token: c.adminToken });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("ERR_NO_PERMISSION");
    expect((await create(c.adminToken, { name: "Nope" })).status).toBe(403);
  });

  it("keeps companies apart: B cannot read, change, start or target A's campaigns, lists or connections", async () => {
    const list = await newList(a, [{ name: "Bia", valid: true }]);
    const mine = await create(a.adminToken, campaignBody({ contactListId: list.id }));
    const id = mine.body.id as number;
    expect((await get(b.adminToken, id)).status).toBe(404);
    expect((await t.call("PUT", `/campaigns/${id}`, { token: b.adminToken, body: campaignBody({ name: "Hack", whatsappId: b.whatsapp.id }) })).status).toBe(404);
    expect((await t.call("POST", `/campaigns/${id}/cancel`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("POST", `/campaigns/${id}/restart`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("DELETE", `/campaigns/${id}/media-upload`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("DELETE", `/campaigns/${id}`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("GET", "/campaigns/", { token: b.adminToken })).body.records.map((r: { id: number }) => r.id)).not.toContain(id);
    const withAList = await create(b.adminToken, campaignBody({ whatsappId: b.whatsapp.id, contactListId: list.id }));
    expect(withAList.status).toBe(404);
    // ids are per company: A's second connection has an id B has none of
    const { id: _id, companyId: _c, createdAt: _at, updatedAt: _up, ...fields } = a.whatsapp;
    const second = await t.container.repos.whatsapps.create(a.company.id, { ...fields, name: "Segunda", isDefault: false, token: `tok-${Date.now()}` }, t.clock.now);
    const withAConnection = await create(b.adminToken, campaignBody({ whatsappId: second.id }));
    expect(withAConnection.status).toBe(404);
    expect(withAConnection.body.error).toBe("ERR_NO_WAPP_FOUND");
    expect((await get(a.adminToken, id)).body).toMatchObject({ name: "Black Friday", status: "INATIVA" });
  });
});

describe("campaign attachment", () => {
  const upload = (token: string, id: number, form: FormData) =>
    t.app.request(`/api/campaigns/${id}/media-upload`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });

  it("attaches a file (spaces become underscores), refuses a form without one, and removes it", async () => {
    const c = await create(a.adminToken, campaignBody());
    const form = new FormData();
    form.append("file", new File([new TextEncoder().encode("%PDF-1.4\n")], "folheto promo.pdf", { type: "application/pdf" }));
    const res = await upload(a.adminToken, c.body.id, form);
    expect(res.status).toBe(200);
    expect((await get(a.adminToken, c.body.id)).body).toMatchObject({ mediaName: "folheto_promo.pdf" });
    const empty = await upload(a.adminToken, c.body.id, new FormData());
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toBe("ERR_VALIDATION");
    expect((await upload(b.adminToken, c.body.id, form)).status).toBe(404);
    const removed = await t.call("DELETE", `/campaigns/${c.body.id}/media-upload`, { token: a.adminToken });
    expect(removed.status).toBe(200);
    expect((await get(a.adminToken, c.body.id)).body).toMatchObject({ mediaName: null, mediaPath: null });
  });
});

describe("campaign status rules", () => {
  it("edits a PROGRAMADA campaign more than an hour ahead, not within the hour", async () => {
    const list = await newList(a, [{ name: "Caio", valid: true }]);
    const far = await create(a.adminToken, campaignBody({ contactListId: list.id, scheduledAt: at(3 * 60 * MIN) }));
    expect(far.body.status).toBe("PROGRAMADA");
    const ok = await t.call("PUT", `/campaigns/${far.body.id}`, { token: a.adminToken, body: campaignBody({ name: "Adiada", contactListId: list.id, scheduledAt: at(2 * 60 * MIN) }) });
    expect(ok.status).toBe(200);
    const near = await create(a.adminToken, campaignBody({ contactListId: list.id, scheduledAt: at(30 * MIN) }));
    const refused = await t.call("PUT", `/campaigns/${near.body.id}`, { token: a.adminToken, body: campaignBody({ name: "Tarde", contactListId: list.id, scheduledAt: near.body.scheduledAt }) });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("ERR_CAMPAIGN_NOT_EDITABLE");
    expect((await get(a.adminToken, near.body.id)).body.name).toBe("Black Friday");
  });

  it("reads the spec's 'YYYY-MM-DD HH:mm:ss' schedule in the company's time zone (São Paulo, UTC-3)", async () => {
    const list = await newList(a, [{ name: "Dora", valid: true }]);
    const instant = new Date(Math.floor((t.clock.now.getTime() + 5 * 60 * MIN) / MIN) * MIN);
    const wall = new Date(instant.getTime() - 3 * 60 * MIN).toISOString().slice(0, 19).replace("T", " ");
    const made = await create(a.adminToken, campaignBody({ contactListId: list.id, scheduledAt: wall }));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ status: "PROGRAMADA", scheduledAt: instant.toISOString() });
  });

  it("refuses cancel and restart out of their status with clear codes", async () => {
    const idle = await create(a.adminToken, campaignBody());
    const cancel = await t.call("POST", `/campaigns/${idle.body.id}/cancel`, { token: a.adminToken });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error).toBe("ERR_CAMPAIGN_INVALID_STATUS");
    const restart = await t.call("POST", `/campaigns/${idle.body.id}/restart`, { token: a.adminToken });
    expect(restart.status).toBe(409);
    expect(restart.body.error).toBe("ERR_CAMPAIGN_INVALID_STATUS");
    expect((await get(a.adminToken, idle.body.id)).body.status).toBe("INATIVA");
  });

  it("scheduling needs a list and a connection", async () => {
    const res = await create(a.adminToken, campaignBody({ scheduledAt: at(10 * MIN) }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("ERR_VALIDATION");
  });
});

describe("campaign dispatch", () => {
  it("sends once to each valid recipient, paced, with placeholders filled, then finishes", async () => {
    const list = await newList(a, [
      { name: "Ana", valid: true, email: "ana@x.com" },
      { name: "Bruno", valid: false },
      { name: "Carla", valid: true },
      { name: "Dani", valid: true },
      { name: "Edu", valid: true },
      { name: "Fran", valid: true },
      { name: "Gabi", valid: true },
    ]);
    const c = await create(a.adminToken, campaignBody({ contactListId: list.id, scheduledAt: at(2 * MIN) }));
    expect(c.status).toBe(200);
    await runTick(t.container);
    expect((await get(a.adminToken, c.body.id)).body.status).toBe("PROGRAMADA");
    t.clock.advance(3 * MIN);
    await runTick(t.container);
    expect((await get(a.adminToken, c.body.id)).body.status).toBe("EM_ANDAMENTO");
    await runTick(t.container); // a second tick starts nothing twice
    const started = takeSteps();
    const first = started.filter(isSendStep);
    expect(first).toHaveLength(1);
    // the background count gives the report its denominator before anything is sent
    for (const count of started.filter((j) => !isSendStep(j))) await runJob(t.container, count.job);
    expect((await get(a.adminToken, c.body.id)).body.counts).toMatchObject({ valid: 6, delivered: 0, progress: 0 });
    // a duplicate delivery of the same job sends nothing more
    await runJob(t.container, first[0]!.job);
    await runJob(t.container, first[0]!.job);
    expect(sendsTo(list.numbers[0]!)).toHaveLength(1);
    expect(textOf(sendsTo(list.numbers[0]!)[0]!)).toContain(`Olá Ana, seu número ${list.numbers[0]} e email ana@x.com: 50% off`);
    const delays = await runAllSteps();
    // messageInterval between messages, the longer pause after the 5th (longerIntervalAfter); invalid ones are skipped
    expect(delays).toEqual([5, 5, 5, 5, 30]);
    expect(sendsTo(list.numbers[1]!)).toHaveLength(0);
    expect([0, 2, 3, 4, 5, 6].map((i) => sendsTo(list.numbers[i]!).length)).toEqual([1, 1, 1, 1, 1, 1]);
    const done = (await get(a.adminToken, c.body.id)).body;
    expect(done.status).toBe("FINALIZADA");
    expect(done.completedAt).not.toBeNull();
    expect(done.counts).toMatchObject({ valid: 6, delivered: 6, progress: 100 });
    // a send that fails later (the connection's result) moves that recipient to failed
    const lost = sendsTo(list.numbers[6]!)[0]!;
    await deliver(t, { type: "command.result", eventId: `ev-${lost.messageId}`, companyId: a.company.id, whatsappId: a.whatsapp.id, commandId: lost.commandId, messageId: lost.messageId, ok: false, error: "not-on-whatsapp" });
    expect((await get(a.adminToken, c.body.id)).body.counts).toMatchObject({ valid: 6, delivered: 5, failed: 1, progress: 83 });
    // the message is in the contact's ticket history
    const contacts = await t.call("GET", `/contacts/?searchParam=${list.numbers[0]}`, { token: a.adminToken });
    expect(contacts.body.contacts?.length ?? 0).toBeGreaterThan(0);
  });

  it("sends the attachment with the message", async () => {
    const list = await newList(a, [{ name: "Lia", valid: true }]);
    t.clock.advance(10 * MIN);
    const c = await create(a.adminToken, campaignBody({ contactListId: list.id }));
    const form = new FormData();
    form.append("file", new File([new Uint8Array([37, 80, 68, 70])], "catalogo.pdf", { type: "application/pdf" }));
    const up = await t.app.request(`/api/campaigns/${c.body.id}/media-upload`, { method: "POST", headers: { authorization: `Bearer ${a.adminToken}` }, body: form });
    expect(up.status).toBe(200);
    const scheduled = await t.call("PUT", `/campaigns/${c.body.id}`, { token: a.adminToken, body: campaignBody({ contactListId: list.id, scheduledAt: at(2 * MIN) }) });
    expect(scheduled.body).toMatchObject({ status: "PROGRAMADA", mediaName: "catalogo.pdf" });
    t.clock.advance(3 * MIN);
    await runTick(t.container);
    await runAllSteps();
    const [sent] = sendsTo(list.numbers[0]!);
    expect(sent?.media).toMatchObject({ filename: "catalogo.pdf", mimetype: "application/pdf" });
    expect(sent?.body).toContain("Olá Lia");
  });

  it("two campaigns on one connection share its pace", async () => {
    const one = await newList(a, [{ name: "Jo", valid: true }]);
    const two = await newList(a, [{ name: "Ka", valid: true }]);
    t.clock.advance(10 * MIN);
    const x = await create(a.adminToken, campaignBody({ contactListId: one.id, scheduledAt: at(2 * MIN) }));
    const y = await create(a.adminToken, campaignBody({ contactListId: two.id, scheduledAt: at(2 * MIN) }));
    t.clock.advance(3 * MIN);
    await runTick(t.container);
    const [first, second] = takeSteps().filter(isSendStep).filter(ofCampaign(x.body.id, y.body.id));
    await runJob(t.container, first!.job);
    await runJob(t.container, second!.job);
    expect(sendsTo(one.numbers[0]!).length + sendsTo(two.numbers[0]!).length).toBe(1);
    // the second waits for the connection's next slot (messageInterval), then sends
    const [waiting] = takeSteps().filter(isSendStep).filter(ofCampaign(x.body.id, y.body.id));
    expect(waiting!.delaySeconds).toBe(5);
    t.clock.advance(5_000);
    await runJob(t.container, waiting!.job);
    expect(sendsTo(one.numbers[0]!).length + sendsTo(two.numbers[0]!).length).toBe(2);
  });

  it("cancel stops further sends; restart continues without resending", async () => {
    const list = await newList(a, [
      { name: "Eva", valid: true },
      { name: "Fabio", valid: true },
      { name: "Gil", valid: true },
    ]);
    const c = await create(a.adminToken, campaignBody({ contactListId: list.id, scheduledAt: at(2 * MIN) }));
    t.clock.advance(3 * MIN);
    await runTick(t.container);
    const [step1] = takeSteps().filter(isSendStep).filter(ofCampaign(c.body.id));
    await runJob(t.container, step1!.job);
    expect(sendsTo(list.numbers[0]!)).toHaveLength(1);
    const cancelled = await t.call("POST", `/campaigns/${c.body.id}/cancel`, { token: a.adminToken });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("CANCELADA");
    const [stale] = takeSteps().filter(ofCampaign(c.body.id));
    await runJob(t.container, stale!.job);
    expect(sendsTo(list.numbers[1]!)).toHaveLength(0);
    // a cancelled campaign still takes message edits, but nothing else
    const renamed = await t.call("PUT", `/campaigns/${c.body.id}`, { token: a.adminToken, body: campaignBody({ name: "Outro", contactListId: list.id, scheduledAt: c.body.scheduledAt }) });
    expect(renamed.status).toBe(409);
    const reworded = await t.call("PUT", `/campaigns/${c.body.id}`, {
      token: a.adminToken,
      body: campaignBody({ message1: "Nova {nome}", contactListId: list.id, scheduledAt: c.body.scheduledAt }),
    });
    expect(reworded.status).toBe(200);
    const restarted = await t.call("POST", `/campaigns/${c.body.id}/restart`, { token: a.adminToken });
    expect(restarted.status).toBe(200);
    expect(restarted.body.status).toBe("EM_ANDAMENTO");
    await runJob(t.container, stale!.job); // the earlier run's job stays void
    await runAllSteps();
    expect(list.numbers.map((n) => sendsTo(n).length)).toEqual([1, 1, 1]);
    expect(textOf(sendsTo(list.numbers[2]!)[0]!)).toContain("Nova Gil");
    expect((await get(a.adminToken, c.body.id)).body).toMatchObject({ status: "FINALIZADA", counts: { delivered: 3 } });
    // deleting it also removes its recipients' shipping records (in a background job)
    const { items } = await t.container.services.contactLists.pageItems(a.company.id, list.id, undefined, 10);
    expect(await t.container.services.campaignDispatch.shippingOf(a.company.id, c.body.id, items[0]!.id)).not.toBeNull();
    expect((await t.call("DELETE", `/campaigns/${c.body.id}`, { token: a.adminToken })).status).toBe(200);
    await runAllSteps();
    expect(await t.container.services.campaignDispatch.shippingOf(a.company.id, c.body.id, items[0]!.id)).toBeNull();
  });

  it("a company past its due date sends nothing; the campaign goes on once it pays", async () => {
    const c2 = await createTenant(t);
    const list = await newList(c2, [{ name: "Iara", valid: true }]);
    const c = await create(c2.adminToken, campaignBody({ whatsappId: c2.whatsapp.id, contactListId: list.id, scheduledAt: at(2 * MIN) }));
    expect(c.status).toBe(200);
    t.clock.advance(3 * MIN);
    await runTick(t.container);
    const due = c2.company.dueDate;
    await t.container.repos.companies.update(c2.company.id, { dueDate: at(-MIN) }, t.clock.now);
    const [step] = takeSteps().filter(isSendStep);
    await runJob(t.container, step!.job);
    expect(sendsTo(list.numbers[0]!)).toHaveLength(0);
    const [paused] = takeSteps();
    expect(paused!.delaySeconds).toBe(900);
    await t.container.repos.companies.update(c2.company.id, { dueDate: due }, t.clock.now);
    await runJob(t.container, paused!.job);
    await runAllSteps();
    expect(sendsTo(list.numbers[0]!)).toHaveLength(1);
    expect((await get(c2.adminToken, c.body.id)).body.status).toBe("FINALIZADA");
  });

  it("confirmation campaigns ask first and send the message after the contact answers", async () => {
    const list = await newList(a, [{ name: "Hugo", valid: true }]);
    const c = await create(
      a.adminToken,
      campaignBody({ contactListId: list.id, scheduledAt: at(2 * MIN), confirmation: true, message1: "Promo para {nome}", confirmationMessage1: "{nome}, quer receber?" }),
    );
    t.clock.advance(3 * MIN);
    await runTick(t.container);
    await runAllSteps();
    const number = list.numbers[0]!;
    expect(sendsTo(number)).toHaveLength(1);
    expect(textOf(sendsTo(number)[0]!)).toContain("Hugo, quer receber?");
    let view = (await get(a.adminToken, c.body.id)).body;
    expect(view).toMatchObject({ status: "EM_ANDAMENTO", counts: { confirmationRequested: 1, delivered: 0 } });
    // the contact answers through WhatsApp (the inbound pipeline), twice: the message goes out once
    await deliver(t, customerMessage(a, { number, body: "Sim" }));
    await deliver(t, customerMessage(a, { number, body: "Sim!" }));
    // (the inbox's own automation may answer too: only the campaign's texts are counted)
    expect(sendsTo(number).filter((c) => textOf(c).includes("Promo para Hugo"))).toHaveLength(1);
    expect(sendsTo(number).filter((c) => textOf(c).includes("quer receber"))).toHaveLength(1);
    view = (await get(a.adminToken, c.body.id)).body;
    expect(view).toMatchObject({ status: "FINALIZADA", counts: { confirmed: 1, delivered: 1, progress: 100 } });
  });

  it("an answer from the number's other form (without the ninth digit) confirms too: both forms are read, side by side, with the message's first reads", async () => {
    const list = await newList(a, [{ name: "Iara", valid: true }]);
    const c = await create(
      a.adminToken,
      campaignBody({ contactListId: list.id, scheduledAt: at(2 * MIN), confirmation: true, message1: "Oferta para {nome}", confirmationMessage1: "{nome}, podemos enviar?" }),
    );
    t.clock.advance(3 * MIN);
    await runTick(t.container);
    await runAllSteps();
    const number = list.numbers[0]!; // 55 11 9xxxxxxxx
    expect(sendsTo(number).filter((x) => textOf(x).includes("podemos enviar"))).toHaveLength(1);
    const withoutNinth = `${number.slice(0, 4)}${number.slice(5)}`;
    expect(withoutNinth).toHaveLength(12);
    // the customer's WhatsApp reports the old form: the awaiting request is keyed by the list's form, read as the
    // second of the two forms (docs/adr/0058)
    await deliver(t, customerMessage(a, { number: withoutNinth, body: "Pode" }));
    const view = (await get(a.adminToken, c.body.id)).body;
    expect(view).toMatchObject({ status: "FINALIZADA", counts: { confirmed: 1, delivered: 1, progress: 100 } });
  });
});
