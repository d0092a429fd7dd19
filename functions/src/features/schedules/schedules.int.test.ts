import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { CONNECTION_DEFAULTS } from "@atende/shared/constants/business";
import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { runTick } from "../../app/tick";
import { scheduleMessageId } from "./schedules.job";
import { createSchedulesRepository } from "./schedules.repository";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let b: Tenant;

const MIN = 60_000;
const DAY = 86_400_000;
const at = (ms: number) => new Date(t.clock.now.getTime() + ms).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
});

let phone = 0;
const newContact = async (tenant: Tenant, name: string) => {
  phone++;
  const res = await t.call("POST", "/contacts", { token: tenant.adminToken, body: { name, number: `55119${String(70000000 + phone).padStart(8, "0")}` } });
  expect(res.status).toBe(200);
  return res.body as { id: number; name: string; number: string };
};
const create = (token: string, body: Record<string, unknown>) => t.call("POST", "/schedules", { token, body });
const list = (token: string, query = "") => t.call("GET", `/schedules/${query ? `?${query}` : ""}`, { token });
type SendCommand = Extract<OutboundCommand, { type: "send" }>;
const uploadMedia = async (id: number, token: string, bytes: Uint8Array, name: string, type: string) => {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type }));
  const res = await t.app.request(`/api/schedules/${id}/media-upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const sendsTo = (number: string) => t.commands.sent.filter((c): c is SendCommand => c.type === "send" && c.chatJid.startsWith(number));

/** A second connection of the tenant (not the default). */
const secondConnection = async (tenant: Tenant) =>
  t.container.repos.whatsapps.create(
    tenant.company.id,
    {
      ...CONNECTION_DEFAULTS,
      name: `Segundo ${randomBytes(2).toString("hex")}`,
      number: "",
      status: "CONNECTED",
      isDefault: false,
      channel: "simulator",
      greetingMessage: "",
      complationMessage: "",
      outOfHoursMessage: "",
      ratingMessage: "",
      expiresInactiveMessage: "",
      timeToTransfer: null,
      transferQueueId: null,
      promptId: null,
      integrationId: null,
      queueIds: [],
      token: randomBytes(24).toString("hex"),
      qrcode: "",
      retries: 0,
    },
    t.clock.now,
  );

describe("schedules API", () => {
  it("creates, reads, edits and deletes a schedule, telling the company's admins and its author", async () => {
    const contact = await newContact(a, "Maria Agenda");
    await t.container.services.sockets.connect("sch-admin", a.adminToken);
    await t.container.services.sockets.connect("sch-user", a.userToken);
    const mark = t.sender.frames.length;
    const sendAt = at(2 * DAY);
    const made = await create(a.userToken, { body: "Lembrete da consulta", sendAt, contactId: contact.id, companyId: b.company.id, status: "ENVIADA" });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      body: "Lembrete da consulta",
      sendAt,
      status: "PENDENTE",
      sentAt: null,
      errorMessage: null,
      contactId: contact.id,
      contact: { id: contact.id, name: "Maria Agenda" },
      whatsappId: null,
      userId: a.user.id,
      user: { id: a.user.id, name: "Atendente Teste" },
      companyId: a.company.id,
    });
    const id = made.body.id as number;
    expect((await t.call("GET", `/schedules/${id}`, { token: a.userToken })).body.body).toBe("Lembrete da consulta");

    const later = at(3 * DAY);
    const edited = await t.call("PUT", `/schedules/${id}`, { token: a.userToken, body: { body: "Consulta amanhã", sendAt: later } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ body: "Consulta amanhã", sendAt: later, contact: { name: "Maria Agenda" } });
    expect((await t.call("GET", `/schedules/${id}`, { token: a.adminToken })).body).toMatchObject({ body: "Consulta amanhã", sendAt: later });

    expect((await t.call("DELETE", `/schedules/${id}`, { token: a.userToken })).status).toBe(200);
    expect((await t.call("GET", `/schedules/${id}`, { token: a.userToken })).status).toBe(404);

    const frames = (sock: string) =>
      t.sender.frames
        .slice(mark)
        .filter((f) => f.connectionId === sock)
        .map((f) => f.frame as { channel: string; event: string; data: { action: string; schedule?: { id: number }; scheduleId?: number } });
    for (const sock of ["sch-admin", "sch-user"]) {
      const got = frames(sock).filter((f) => f.event === "schedule");
      expect(got.map((f) => f.channel)).toEqual([`company-${a.company.id}-schedule`, `company-${a.company.id}-schedule`, `company-${a.company.id}-schedule`]);
      expect(got.map((f) => f.data.action)).toEqual(["create", "update", "delete"]);
      expect(got[2]?.data.scheduleId).toBe(id);
    }
  });

  it("reads the spec's 'YYYY-MM-DD HH:mm:ss' in the company's time zone (São Paulo by default), on create and edit", async () => {
    const c = await createTenant(t);
    const contact = await newContact(c, "Cliente Relógio");
    // two days ahead, as a São Paulo wall clock (UTC-3) shows it
    const instant = new Date(Math.floor((t.clock.now.getTime() + 2 * DAY) / MIN) * MIN);
    const wall = (d: Date) => new Date(d.getTime() - 3 * 60 * MIN).toISOString().slice(0, 19).replace("T", " ");
    const made = await create(c.adminToken, { body: "No horário de Brasília", sendAt: wall(instant), contactId: contact.id });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.sendAt).toBe(instant.toISOString());
    const later = new Date(instant.getTime() + 90 * MIN);
    const edited = await t.call("PUT", `/schedules/${made.body.id}`, { token: c.adminToken, body: { sendAt: wall(later) } });
    expect(edited.body.sendAt).toBe(later.toISOString());
    // a wall clock already past in São Paulo is refused
    const past = await create(c.adminToken, { body: "x", sendAt: wall(new Date(t.clock.now.getTime() - 5 * MIN)), contactId: contact.id });
    expect(past).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
  });

  it("refuses a time in the past, a missing body or contact, and another company's contact or connection, storing nothing", async () => {
    const c = await createTenant(t);
    const contact = await newContact(c, "Cliente Validação");
    // an id company C does not have (C's only contact is its first)
    await newContact(b, "Cliente de B 1");
    const foreign = await newContact(b, "Cliente de B 2");
    expect(foreign.id).not.toBe(contact.id);
    const past = await create(c.adminToken, { body: "oi", sendAt: at(-MIN), contactId: contact.id });
    expect(past).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION", data: { field: "sendAt" } } });
    expect((await create(c.adminToken, { body: "   ", sendAt: at(DAY), contactId: contact.id })).body).toMatchObject({ error: "ERR_VALIDATION", issues: [{ path: ["body"] }] });
    expect((await create(c.adminToken, { sendAt: at(DAY), contactId: contact.id })).body.error).toBe("ERR_VALIDATION");
    expect((await create(c.adminToken, { body: "oi", sendAt: at(DAY) })).body).toMatchObject({ error: "ERR_VALIDATION", issues: [{ path: ["contactId"] }] });
    expect((await create(c.adminToken, { body: "oi", sendAt: "amanhã", contactId: contact.id })).body.error).toBe("ERR_VALIDATION");
    expect(await create(c.adminToken, { body: "oi", sendAt: at(DAY), contactId: foreign.id })).toMatchObject({ status: 404, body: { error: "ERR_NO_CONTACT_FOUND" } });
    expect(await create(c.adminToken, { body: "oi", sendAt: at(DAY), contactId: contact.id, whatsappId: (await secondConnection(b)).id })).toMatchObject({
      status: 404,
      body: { error: "ERR_NO_WAPP_FOUND" },
    });
    expect((await list(c.adminToken)).body).toEqual({ schedules: [], hasMore: false });

    // an edit into the past is refused too, and changes nothing
    const ok = await create(c.adminToken, { body: "válido", sendAt: at(DAY), contactId: contact.id });
    const back = await t.call("PUT", `/schedules/${ok.body.id}`, { token: c.adminToken, body: { sendAt: at(-5 * MIN), body: "mudado" } });
    expect(back).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION", data: { field: "sendAt" } } });
    expect((await t.call("GET", `/schedules/${ok.body.id}`, { token: c.adminToken })).body).toMatchObject({ body: "válido", sendAt: ok.body.sendAt });
  });

  it("pages by 20 in send-time order, searches by contact name or text, and bounds by a date range", async () => {
    const c = await createTenant(t);
    const ana = await newContact(c, "Ana Paginada");
    const bia = await newContact(c, "Bia Buscada");
    const base = t.clock.now.getTime() + 10 * DAY;
    for (let i = 0; i < 25; i++) {
      const res = await create(c.adminToken, { body: `Mensagem ${i}`, sendAt: new Date(base + (24 - i) * 3_600_000).toISOString(), contactId: i === 3 ? bia.id : ana.id });
      expect(res.status).toBe(200);
    }
    const p1 = await list(c.adminToken, "pageNumber=1");
    expect(p1.body.schedules).toHaveLength(20);
    expect(p1.body.hasMore).toBe(true);
    const p2 = await list(c.adminToken, "pageNumber=2");
    expect(p2.body.schedules).toHaveLength(5);
    expect(p2.body.hasMore).toBe(false);
    const all = [...p1.body.schedules, ...p2.body.schedules] as { id: number; sendAt: string; body: string }[];
    expect(new Set(all.map((s) => s.id)).size).toBe(25);
    expect(all.map((s) => s.sendAt)).toEqual([...all.map((s) => s.sendAt)].sort());
    expect(all[0]?.body).toBe("Mensagem 24");

    const byName = await list(c.adminToken, "searchParam=BIA");
    expect(byName.body.schedules.map((s: { body: string }) => s.body)).toEqual(["Mensagem 3"]);
    const byText = await list(c.adminToken, "searchParam=mensagem%2012");
    expect(byText.body.schedules.map((s: { body: string }) => s.body)).toEqual(["Mensagem 12"]);

    const from = new Date(base).toISOString();
    const to = new Date(base + 4 * 3_600_000).toISOString();
    const range = await list(c.adminToken, `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    expect(range.body.schedules.map((s: { body: string }) => s.body)).toEqual(["Mensagem 24", "Mensagem 23", "Mensagem 22", "Mensagem 21", "Mensagem 20"]);
  });

  it("shows attendants only their own schedules and admins the whole company's", async () => {
    const c = await createTenant(t);
    const contact = await newContact(c, "Cliente Visível");
    const mine = await create(c.userToken, { body: "do atendente", sendAt: at(DAY), contactId: contact.id });
    const admins = await create(c.adminToken, { body: "do admin", sendAt: at(DAY + MIN), contactId: contact.id });
    expect((await list(c.userToken)).body.schedules.map((s: { body: string }) => s.body)).toEqual(["do atendente"]);
    expect((await list(c.adminToken)).body.schedules.map((s: { body: string }) => s.body)).toEqual(["do atendente", "do admin"]);
    expect((await t.call("GET", `/schedules/${admins.body.id}`, { token: c.userToken })).status).toBe(404);
    expect((await t.call("PUT", `/schedules/${admins.body.id}`, { token: c.userToken, body: { body: "tomado" } })).status).toBe(404);
    expect((await t.call("DELETE", `/schedules/${admins.body.id}`, { token: c.userToken })).status).toBe(404);
    expect((await t.call("PUT", `/schedules/${mine.body.id}`, { token: c.adminToken, body: { body: "ajustado pelo admin" } })).status).toBe(200);
    expect((await t.call("GET", `/schedules/${admins.body.id}`, { token: c.adminToken })).body.body).toBe("do admin");
  });

  it("refuses every call when the plan has no schedules", async () => {
    const c = await createTenant(t, { plan: { useSchedules: false } });
    const contact = await newContact(c, "Sem Plano");
    expect(await list(c.adminToken)).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect(await create(c.adminToken, { body: "oi", sendAt: at(DAY), contactId: contact.id })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect((await t.call("GET", "/schedules/1", { token: c.userToken })).status).toBe(403);
  });

  it("never lets another company read, change or delete a schedule", async () => {
    const contact = await newContact(a, "Cliente de A");
    const made = await create(a.adminToken, { body: "só de A", sendAt: at(DAY), contactId: contact.id });
    const id = made.body.id as number;
    expect((await t.call("GET", `/schedules/${id}`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("PUT", `/schedules/${id}`, { token: b.adminToken, body: { body: "invadido" } })).status).toBe(404);
    expect((await t.call("DELETE", `/schedules/${id}`, { token: b.adminToken })).status).toBe(404);
    expect((await list(b.adminToken)).body.schedules.map((s: { id: number; companyId: number }) => s.companyId)).not.toContain(a.company.id);
    expect((await t.call("GET", `/schedules/${id}`, { token: a.adminToken })).body).toMatchObject({ body: "só de A", status: "PENDENTE" });
    await t.call("DELETE", `/schedules/${id}`, { token: a.adminToken });
  });
});

describe("the minute tick sends due schedules", () => {
  it("sends once at its time into the contact's new ticket through the default connection, and marks it sent", async () => {
    const c = await createTenant(t);
    const contact = await newContact(c, "Cliente Tick");
    const made = await create(c.userToken, { body: "Sua consulta é amanhã", sendAt: at(2 * MIN), contactId: contact.id });
    await runTick(t.container);
    expect(sendsTo(contact.number)).toHaveLength(0);
    expect((await t.call("GET", `/schedules/${made.body.id}`, { token: c.userToken })).body.status).toBe("PENDENTE");

    t.clock.advance(2 * MIN + 1_000);
    await t.container.services.sockets.connect("tick-user", c.userToken);
    const mark = t.sender.frames.length;
    // two overlapping ticks, then a late one: still one message
    await Promise.all([runTick(t.container), runTick(t.container)]);
    await runTick(t.container);
    const sends = sendsTo(contact.number);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ companyId: c.company.id, whatsappId: c.whatsapp.id, body: "Sua consulta é amanhã" });

    const after = (await t.call("GET", `/schedules/${made.body.id}`, { token: c.userToken })).body;
    expect(after).toMatchObject({ status: "ENVIADA", sentAt: t.clock.now.toISOString(), errorMessage: null });
    const ticketId = after.ticketId as number;
    const history = await t.call("GET", `/messages/${ticketId}`, { token: c.userToken });
    expect(history.status).toBe(200);
    expect(history.body.messages.map((m: { body: string; fromMe: boolean }) => [m.body, m.fromMe])).toEqual([["Sua consulta é amanhã", true]]);
    expect(history.body.ticket).toMatchObject({ contactId: contact.id, whatsappId: c.whatsapp.id, status: "open", userId: c.user.id });
    const updates = t.sender.frames.slice(mark).filter((f) => f.connectionId === "tick-user" && (f.frame as { event: string }).event === "schedule");
    expect(updates.map((f) => (f.frame as { data: { schedule: { status: string } } }).data.schedule.status)).toEqual(["ENVIADA"]);
  });

  it("goes through the chosen connection and into the contact's ticket there, even when another connection is the default", async () => {
    const c = await createTenant(t);
    const other = await secondConnection(c);
    const contact = await newContact(c, "Cliente Segundo Número");
    // the contact already has an open ticket on the default connection: the schedule must not go there
    const onDefault = await t.call("POST", "/tickets", { token: c.adminToken, body: { contactId: contact.id, status: "open", userId: c.admin.id, whatsappId: c.whatsapp.id, queueId: c.queues[0]!.id } });
    expect(onDefault.status).toBe(201);
    const made = await create(c.adminToken, { body: "Pelo segundo número", sendAt: at(MIN), contactId: contact.id, whatsappId: other.id });
    expect(made.body.whatsappId).toBe(other.id);
    t.clock.advance(MIN + 1_000);
    await runTick(t.container);
    const sends = sendsTo(contact.number);
    expect(sends.map((s) => s.whatsappId)).toEqual([other.id]);
    const after = (await t.call("GET", `/schedules/${made.body.id}`, { token: c.adminToken })).body;
    expect(after.status).toBe("ENVIADA");
    const history = await t.call("GET", `/messages/${after.ticketId}`, { token: c.adminToken });
    expect(history.body.ticket.whatsappId).toBe(other.id);
    expect(after.ticketId).not.toBe(onDefault.body.id);
    expect(history.body.messages.map((m: { body: string }) => m.body)).toEqual(["Pelo segundo número"]);
  });

  it("writes into the contact's open ticket when there is one", async () => {
    const c = await createTenant(t);
    const contact = await newContact(c, "Cliente Com Ticket");
    const opened = await t.call("POST", "/tickets", { token: c.userToken, body: { contactId: contact.id, status: "open", userId: c.user.id, whatsappId: c.whatsapp.id, queueId: c.queues[0]!.id } });
    expect(opened.status).toBe(201);
    const made = await create(c.userToken, { body: "No mesmo ticket", sendAt: at(MIN), contactId: contact.id });
    t.clock.advance(MIN + 1_000);
    await runTick(t.container);
    const after = (await t.call("GET", `/schedules/${made.body.id}`, { token: c.userToken })).body;
    expect(after).toMatchObject({ status: "ENVIADA", ticketId: opened.body.id });
  });

  it("marks a schedule that cannot be sent as failed with the reason, and an edit tries again", async () => {
    const c = await createTenant(t);
    const contact = await newContact(c, "Cliente Apagado");
    const made = await create(c.adminToken, { body: "Não vai", sendAt: at(MIN), contactId: contact.id });
    expect((await t.call("DELETE", `/contacts/${contact.id}`, { token: c.adminToken })).status).toBe(200);
    t.clock.advance(MIN + 1_000);
    await runTick(t.container);
    expect(sendsTo(contact.number)).toHaveLength(0);
    const failed = (await t.call("GET", `/schedules/${made.body.id}`, { token: c.adminToken })).body;
    expect(failed).toMatchObject({ status: "ERRO", errorMessage: "ERR_NO_CONTACT_FOUND", sentAt: null });

    const fresh = await newContact(c, "Cliente Novo");
    const retry = await t.call("PUT", `/schedules/${made.body.id}`, { token: c.adminToken, body: { contactId: fresh.id, sendAt: at(MIN) } });
    expect(retry.body).toMatchObject({ status: "PENDENTE", errorMessage: null, contact: { name: "Cliente Novo" } });
    t.clock.advance(MIN + 1_000);
    await runTick(t.container);
    expect(sendsTo(fresh.number).map((s) => s.body)).toEqual(["Não vai"]);
    expect((await t.call("GET", `/schedules/${made.body.id}`, { token: c.adminToken })).body.status).toBe("ENVIADA");
    // a sent schedule is history
    const late = await t.call("PUT", `/schedules/${made.body.id}`, { token: c.adminToken, body: { body: "de novo", sendAt: at(DAY) } });
    expect(late).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
  });

  it("leaves a schedule claimed by a tick that crashed mid-send to a later tick, which does not send it again", async () => {
    const c = await createTenant(t);
    const contact = await newContact(c, "Cliente Retomado");
    const made = await create(c.adminToken, { body: "Depois da queda", sendAt: at(MIN), contactId: contact.id });
    t.clock.advance(MIN + 1_000);
    const repo = createSchedulesRepository(t.container.db);
    const due = (await repo.listDue(t.clock.now)).find((s) => s.companyId === c.company.id && s.id === made.body.id)!;
    // the crashed tick: claimed it and sent the message, never recorded the outcome
    expect(await repo.claim(due, t.clock.now, 5 * MIN)).not.toBeNull();
    await t.container.services.messages.sendToContact({ companyId: c.company.id, contactId: contact.id, whatsappId: null, body: due.body, userId: due.userId, id: scheduleMessageId(due) });
    expect(sendsTo(contact.number)).toHaveLength(1);

    await runTick(t.container);
    expect((await t.call("GET", `/schedules/${made.body.id}`, { token: c.adminToken })).body.status).toBe("PENDENTE");
    // the claim's lease (5 minutes) runs out
    t.clock.advance(5 * MIN + 1_000);
    await runTick(t.container);
    expect(sendsTo(contact.number)).toHaveLength(1);
    const after = (await t.call("GET", `/schedules/${made.body.id}`, { token: c.adminToken })).body;
    expect(after.status).toBe("ENVIADA");
    const history = await t.call("GET", `/messages/${after.ticketId}`, { token: c.adminToken });
    expect(history.body.messages.map((m: { body: string }) => m.body)).toEqual(["Depois da queda"]);
  });

  it("does not send for a company whose plan lost schedules, marking it failed", async () => {
    const c = await createTenant(t);
    const contact = await newContact(c, "Cliente Sem Plano");
    const made = await create(c.adminToken, { body: "Plano mudou", sendAt: at(MIN), contactId: contact.id });
    await t.container.repos.plans.update({ ...c.plan, useSchedules: false });
    t.clock.advance(MIN + 1_000);
    await runTick(t.container);
    expect(sendsTo(contact.number)).toHaveLength(0);
    await t.container.repos.plans.update({ ...c.plan, useSchedules: true });
    expect((await t.call("GET", `/schedules/${made.body.id}`, { token: c.adminToken })).body).toMatchObject({ status: "ERRO", errorMessage: "ERR_NO_PERMISSION" });
  });

  it("does not send a schedule moved later before its new time", async () => {
    const c = await createTenant(t);
    const contact = await newContact(c, "Cliente Adiado");
    const made = await create(c.adminToken, { body: "Adiado", sendAt: at(MIN), contactId: contact.id });
    await t.call("PUT", `/schedules/${made.body.id}`, { token: c.adminToken, body: { sendAt: at(DAY) } });
    t.clock.advance(MIN + 1_000);
    await runTick(t.container);
    expect(sendsTo(contact.number)).toHaveLength(0);
    expect((await t.call("GET", `/schedules/${made.body.id}`, { token: c.adminToken })).body.status).toBe("PENDENTE");
    await t.call("DELETE", `/schedules/${made.body.id}`, { token: c.adminToken });
  });

  it("sends a schedule with its attachment: uploaded, replaced and removed through /media-upload, refused across companies and once sent", async () => {
    const c = await createTenant(t);
    const other = await createTenant(t);
    const contact = await newContact(c, "Cliente Anexo");
    const made = await create(c.userToken, { body: "Segue o boleto", sendAt: at(2 * MIN), contactId: contact.id });
    const id = made.body.id as number;
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const pdf = new TextEncoder().encode("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n");

    // another company's user: nothing attached, nothing removed
    expect((await uploadMedia(id, other.adminToken, png, "intruso.png", "image/png")).status).toBe(404);
    expect((await t.call("DELETE", `/schedules/${id}/media-upload`, { token: other.adminToken })).status).toBe(404);
    // no file: refused, nothing stored
    const empty = await t.app.request(`/api/schedules/${id}/media-upload`, { method: "POST", body: new FormData(), headers: { authorization: `Bearer ${c.userToken}` } });
    expect(empty.status).toBe(400);
    expect((await t.call("GET", `/schedules/${id}`, { token: c.userToken })).body).toMatchObject({ mediaPath: null, mediaName: null });

    const first = await uploadMedia(id, c.userToken, png, "foto.png", "image/png");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ mensagem: "Arquivo Anexado", id, mediaName: "foto.png" });
    const replaced = await uploadMedia(id, c.userToken, pdf, "boleto.pdf", "application/pdf");
    expect(replaced.body).toMatchObject({ mensagem: "Arquivo Anexado", mediaName: "boleto.pdf" });
    const stored = (await t.call("GET", `/schedules/${id}`, { token: c.userToken })).body as { mediaPath: string; mediaName: string };
    expect(stored.mediaName).toBe("boleto.pdf");
    expect(stored.mediaPath.startsWith(`${c.company.id}/`)).toBe(true);
    expect((await t.container.media.get(stored.mediaPath))?.body).toEqual(pdf);

    t.clock.advance(2 * MIN + 1_000);
    await runTick(t.container);
    const sends = sendsTo(contact.number);
    expect(sends).toHaveLength(1);
    expect(sends[0]?.media).toMatchObject({ kind: "document", mimetype: "application/pdf", filename: "boleto.pdf" });
    expect((await t.container.media.get(sends[0]!.media!.key))?.body).toEqual(pdf);
    const after = (await t.call("GET", `/schedules/${id}`, { token: c.userToken })).body;
    expect(after.status).toBe("ENVIADA");
    const history = await t.call("GET", `/messages/${after.ticketId}`, { token: c.userToken });
    expect(history.body.messages).toMatchObject([{ fromMe: true, mediaType: "application", mediaName: "boleto.pdf" }]);

    // a sent schedule keeps its attachment
    expect((await uploadMedia(id, c.userToken, png, "tarde.png", "image/png")).status).toBe(403);
    expect((await t.call("DELETE", `/schedules/${id}/media-upload`, { token: c.userToken })).status).toBe(403);
  });

  it("removes an attachment: the schedule then goes as text only", async () => {
    const c = await createTenant(t);
    const contact = await newContact(c, "Cliente Sem Anexo");
    const made = await create(c.adminToken, { body: "Só texto", sendAt: at(MIN), contactId: contact.id });
    const id = made.body.id as number;
    await uploadMedia(id, c.adminToken, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "foto.png", "image/png");
    const removed = await t.call("DELETE", `/schedules/${id}/media-upload`, { token: c.adminToken });
    expect(removed).toMatchObject({ status: 200, body: { mensagem: "Arquivo Excluído", mediaPath: null, mediaName: null } });
    t.clock.advance(MIN + 1_000);
    await runTick(t.container);
    const sends = sendsTo(contact.number);
    expect(sends.map((s) => [s.body, s.media])).toEqual([["Só texto", undefined]]);
  });
});
