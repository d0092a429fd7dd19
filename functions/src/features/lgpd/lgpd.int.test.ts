import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { runJob } from "../../app/jobs-consumer";
import { runTick } from "../../app/tick";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../testing/inbox-fixtures";

/**
 * LGPD end to end over the API (issue 14 items 3, 4, 6): a person with a full history (messages with a photo,
 * an attendant's reply, a note, a rating-free closed ticket, a contact list, a campaign shipping, an opt-out),
 * exported and checked inside the ZIP, then erased and searched for in the WHOLE table and the media folder.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let mediaDir: string;

const MIN = 60_000;
const at = (ms: number) => new Date(t.clock.now.getTime() + ms).toISOString();
type SendCommand = Extract<OutboundCommand, { type: "send" }>;
const sendsTo = (number: string) => t.commands.sent.filter((c): c is SendCommand => c.type === "send" && c.chatJid.startsWith(number));

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), "atende-lgpd-media-"));
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0", MEDIA_DIR: mediaDir, ERASURE_HASH_SECRET: "x".repeat(40) });
  a = await createTenant(t);
  b = await createTenant(t);
  const saved = await t.call("POST", "/campaign-settings", { token: a.adminToken, body: { settings: { messageInterval: 5, longerIntervalAfter: 5, greaterInterval: 30, variables: [] } } });
  expect(saved.status).toBe(200);
});

/** A contact list with these people, each checked valid on WhatsApp (as the session host would answer). */
const newList = async (tenant: Tenant, people: { name: string; number: string; email?: string }[]) => {
  const list = await t.call("POST", "/contact-lists", { token: tenant.adminToken, body: { name: `Lista ${Date.now()}-${Math.random()}` } });
  expect(list.status).toBe(200);
  for (const p of people) {
    const item = await t.call("POST", "/contact-list-items", { token: tenant.adminToken, body: { contactListId: list.body.id, name: p.name, number: p.number, email: p.email ?? "" } });
    expect(item.status).toBe(200);
    const check = t.commands.sent.flatMap((c) => (c.type === "checkNumbers" ? c.checks : [])).find((c) => c.number === p.number);
    await t.container.services.contactLists.onNumberChecked({ type: "number.checked", companyId: tenant.company.id, whatsappId: tenant.whatsapp.id, requestId: check!.requestId, number: p.number, exists: true } as never); // envelope fields beyond these are not read
  }
  return list.body.id as number;
};

/** Runs every queued job (campaign steps with their delays; LGPD jobs) until none is left. */
const drainJobs = async (filter: (j: JobMessage) => boolean = () => true) => {
  for (;;) {
    const i = t.jobs.pending.findIndex((p) => filter(p.job));
    if (i < 0) return;
    const [p] = t.jobs.pending.splice(i, 1);
    t.clock.advance(p!.delaySeconds * 1000);
    await runJob(t.container, p!.job);
  }
};
const campaignJobs = (j: JobMessage) => j.type === "feature" && j.name.startsWith("campaign");

/** Runs a campaign to `listId` now; returns its id. */
const runCampaign = async (tenant: Tenant, listId: number, message: string) => {
  const c = await t.call("POST", "/campaigns", {
    token: tenant.adminToken,
    body: { name: "Promo LGPD", message1: message, message2: "", confirmation: false, scheduledAt: at(2 * MIN), whatsappId: tenant.whatsapp.id, contactListId: listId, tagListId: "Nenhuma" },
  });
  expect(c.status).toBe(200);
  t.clock.advance(3 * MIN);
  await runTick(t.container);
  await drainJobs(campaignJobs);
  return c.body.id as number;
};

const ticketOf = async (number: string, tenant = a) => (await adminTickets(t, tenant)).find((x) => x.contact?.number === number);

/** Everything stored, item by item, as text (the whole table: a Scan, in a test only). */
const scanTable = async () => {
  const items: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await t.container.db.doc.send(new ScanCommand({ TableName: t.tableName, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []).map((i) => JSON.stringify(i)));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
};
/** Every file under the media folder: its path and its bytes as text. */
const scanMedia = async (dir = mediaDir): Promise<string[]> => {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await scanMedia(p)));
    else out.push(`${p}\n${(await readFile(p)).toString("latin1")}`);
  }
  return out;
};

describe("a person's export and erasure", () => {
  const NUMBER = "5511977776666";
  const WITHOUT_NINTH = "551177776666";
  const NAME = "Joana Erasmo Prado";
  const PHOTO = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
  let contactId = 0;
  let ticketId = 0;
  let listId = 0;
  let campaignId = 0;
  let dashboardBefore: unknown;

  it("builds a full history: messages with a photo, a reply, a note, a closed ticket, a list, a campaign, an opt-out", async () => {
    await deliver(t, customerMessage(a, { number: NUMBER, body: `Oi, aqui é a ${NAME}`, pushName: NAME }));
    const photoKey = `${a.company.id}/lgpd-test/foto-${NUMBER}.jpg`;
    await t.container.media.put(photoKey, PHOTO, "image/jpeg");
    await deliver(t, customerMessage(a, { number: NUMBER, body: "", pushName: NAME, extra: { type: "image", media: { key: photoKey, mimetype: "image/jpeg", filename: `foto-${NUMBER}.jpg` } } }));
    const tk = await ticketOf(NUMBER);
    expect(tk).toBeDefined();
    ticketId = tk!.id;
    contactId = tk!.contact.id;
    expect((await t.call("PUT", `/tickets/${ticketId}`, { token: a.adminToken, body: { status: "open" } })).status).toBe(200);
    expect((await t.call("POST", `/messages/${ticketId}`, { token: a.adminToken, body: { body: `Olá ${NAME}, tudo bem?` } })).status).toBe(201);
    expect((await t.call("POST", "/ticket-notes", { token: a.adminToken, body: { note: `Nota sobre ${NAME}`, ticketId, contactId } })).status).toBeLessThan(300);
    expect((await t.call("PUT", `/tickets/${ticketId}`, { token: a.adminToken, body: { status: "closed" } })).status).toBe(200);

    listId = await newList(a, [{ name: NAME, number: NUMBER, email: "joana.erasmo@example.com" }]);
    campaignId = await runCampaign(a, listId, "Olá {nome}, oferta para você");
    expect(sendsTo(NUMBER).some((c) => JSON.stringify(c).includes("oferta"))).toBe(true);

    // the customer answers the campaign with SAIR: opted out, with a confirmation
    await deliver(t, customerMessage(a, { number: NUMBER, body: "Sair", pushName: NAME }));
    const state = await t.call("GET", `/contacts/${contactId}/opt-out`, { token: a.adminToken });
    expect(state.body).toMatchObject({ optedOut: true, optOut: { source: "campaign", campaignId, message: "Sair" } });
    // the campaign message opened a new ticket: it is closed before the erasure (an open one refuses it, below)
    for (const open of (await adminTickets(t, a)).filter((x) => x.contact?.id === contactId && x.status !== "closed")) {
      if (open.status === "pending") expect((await t.call("PUT", `/tickets/${open.id}`, { token: a.adminToken, body: { status: "open" } })).status).toBe(200);
      expect((await t.call("PUT", `/tickets/${open.id}`, { token: a.adminToken, body: { status: "closed" } })).status).toBe(200);
    }
    dashboardBefore = (await t.call("GET", "/dashboard/ticketsAttendance?initialDate=2000-01-01&finalDate=2100-01-01", { token: a.adminToken })).body;
  });

  it("keeps the routes to admins of the contact's own company", async () => {
    for (const [method, path] of [
      ["GET", `/contacts/${contactId}/export`],
      ["GET", `/contacts/${contactId}/opt-out`],
      ["DELETE", `/contacts/${contactId}/opt-out`],
      ["DELETE", `/contacts/${contactId}?erase=true`],
    ] as const) {
      const other = await t.call(method, path, { token: b.adminToken });
      expect(other.status, `${method} ${path} as B`).toBe(404);
      expect(other.body.error).toBe("ERR_NO_CONTACT_FOUND");
      expect((await t.call(method, path, { token: a.userToken })).status, `${method} ${path} as attendant`).toBe(403);
    }
    // B's own opt-out list and settings do not show A's
    expect((await t.call("GET", "/opt-outs", { token: b.adminToken })).body.optOuts).toEqual([]);
    expect((await t.call("GET", `/contacts/${contactId}/opt-out`, { token: a.adminToken })).body.optedOut).toBe(true);
  });

  it("exports everything about the person as one ZIP", async () => {
    const res = await t.app.request(`/api/contacts/${contactId}/export`, { headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const json = (p: string) => JSON.parse(strFromU8(files[p]!));
    expect(json("contato.json").contact).toMatchObject({ id: contactId, name: NAME, number: NUMBER });
    expect(json("contato.json").optOut).toMatchObject({ message: "Sair", source: "campaign" });
    expect(json("atendimentos.json").map((x: { id: number }) => x.id)).toContain(ticketId);
    const bodies = json("mensagens.json").map((m: { body: string }) => m.body);
    expect(bodies).toEqual(expect.arrayContaining([`Oi, aqui é a ${NAME}`, `Olá ${NAME}, tudo bem?`, "Sair"]));
    const photo = json("mensagens.json").find((m: { file: string | null }) => m.file);
    expect(files[photo.file]).toEqual(PHOTO);
    expect(strFromU8(files["mensagens.csv"]!)).toContain(`Oi, aqui é a ${NAME}`);
    expect(json("notas.json")).toEqual([expect.objectContaining({ note: `Nota sobre ${NAME}` })]);
    expect(json("listas-de-contatos.json")).toEqual([expect.objectContaining({ contactListId: listId, name: NAME, number: NUMBER })]);
    expect(json("campanhas.json")).toEqual([expect.objectContaining({ campaignId, number: NUMBER, state: "delivered" })]);
    const audit = await t.call("GET", "/audit-logs?action=export", { token: a.adminToken });
    if (audit.status === 200) expect(JSON.stringify(audit.body)).toContain(`"id":"${contactId}"`);
  });

  it("refuses to erase a group or a contact with an open ticket", async () => {
    await deliver(t, customerMessage(a, { number: "5511977775555", body: "ainda em atendimento" }));
    const open = await ticketOf("5511977775555");
    const res = await t.call("DELETE", `/contacts/${open!.contact.id}?erase=true`, { token: a.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("ERR_CONTACT_HAS_OPEN_TICKET");
  });

  it("erases the person: nothing in the whole table or the media store holds the number or the name", async () => {
    const before = await scanTable();
    expect(before.filter((i) => i.includes(NUMBER)).length).toBeGreaterThan(3); // the search below finds what it looks for
    expect(before.some((i) => i.includes(NAME))).toBe(true);
    expect((await scanMedia()).some((f) => f.includes(NUMBER))).toBe(true);

    const res = await t.call("DELETE", `/contacts/${contactId}?erase=true`, { token: a.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ erased: true, contactId, removed: { contact: 1, note: 1, listItem: 1, shipping: 1, optOut: 1, media: 1 } });
    expect(res.body.removed.message).toBeGreaterThanOrEqual(4);

    const after = await scanTable();
    for (const needle of [NUMBER, WITHOUT_NINTH, NAME, "Erasmo", "joana.erasmo@example.com"]) {
      expect(after.filter((i) => i.includes(needle)), needle).toEqual([]);
    }
    for (const needle of [NUMBER, WITHOUT_NINTH, "Erasmo"]) expect((await scanMedia()).filter((f) => f.includes(needle)), needle).toEqual([]);

    expect((await t.call("GET", `/contacts/${contactId}`, { token: a.adminToken })).status).toBe(404);
    // the request itself is in the audit trail (who, what), without the person's data (the scan above covers it)
    const audit = await t.call("GET", `/audit-logs?action=erase&recordKind=contact&recordId=${contactId}`, { token: a.adminToken });
    expect(audit.status).toBe(200);
    expect(audit.body.logs).toEqual([expect.objectContaining({ action: "erase", record: expect.objectContaining({ kind: "contact", id: String(contactId) }) })]);
    // the figures stay: the ticket's attention cycle and the campaign's counts
    const dashboardAfter = (await t.call("GET", "/dashboard/ticketsAttendance?initialDate=2000-01-01&finalDate=2100-01-01", { token: a.adminToken })).body;
    expect(dashboardAfter).toEqual(dashboardBefore);
    const campaign = await t.call("GET", `/campaigns/${campaignId}`, { token: a.adminToken });
    expect(campaign.body).toMatchObject({ status: "FINALIZADA" });
  });

  it("does not silently bring the person back: imports refuse the number with a reason", async () => {
    const item = await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { contactListId: listId, name: "Outra Pessoa", number: WITHOUT_NINTH, email: "" } });
    expect(item.status).toBe(409);
    expect(item.body.error).toBe("ERR_NUMBER_ERASED");
    const created = await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Reimportada", number: NUMBER, email: "" } });
    expect(created.status).toBe(409);
    expect(created.body.error).toBe("ERR_NUMBER_ERASED");
    // the erased person had opted out: campaigns and the API keep skipping the number
    const api = await t.call("POST", "/messages/send", { headers: { authorization: `Bearer ${a.whatsapp.token}` }, body: { number: NUMBER, body: "oi" } });
    expect(api.status).toBe(409);
    expect(api.body.error).toBe("ERR_NUMBER_OPTED_OUT");
  });
});

describe("opt-outs", () => {
  it("a reply to a campaign opts out, the confirmation goes back, and the next campaign skips the number (shown as opted out)", async () => {
    const number = "5511966665555";
    const listId = await newList(a, [{ name: "Paulo Optout", number }, { name: "Rita Recebe", number: "5511966664444" }]);
    await runCampaign(a, listId, "Oferta {nome}");
    expect(sendsTo(number)).toHaveLength(1);
    await deliver(t, customerMessage(a, { number, body: "PARAR." }));
    const confirmations = sendsTo(number).filter((c) => JSON.stringify(c).includes("não receberá mais"));
    expect(confirmations).toHaveLength(1);
    const list = await t.call("GET", "/opt-outs", { token: a.adminToken });
    expect(list.body.optOuts).toEqual(expect.arrayContaining([expect.objectContaining({ number, source: "campaign", message: "PARAR." })]));

    const sentBefore = sendsTo(number).length;
    const second = await runCampaign(a, listId, "Nova oferta {nome}");
    expect(sendsTo(number)).toHaveLength(sentBefore);
    expect(sendsTo("5511966664444").length).toBe(2);
    const report = await t.call("GET", `/campaigns/${second}`, { token: a.adminToken });
    expect(report.body.status).toBe("FINALIZADA");
    const shippings = await t.container.services.campaignDispatch.shippingOf(a.company.id, second, (await t.call("GET", `/contact-list-items?contactListId=${listId}`, { token: a.adminToken })).body.contacts.find((c: { number: string }) => c.number === number).id);
    expect(shippings).toMatchObject({ state: "failed", error: "ERR_NUMBER_OPTED_OUT" });
  });

  it("outside a campaign, the word counts only when the company says so; clearing lets messages through again", async () => {
    const number = "5511955554444";
    await deliver(t, customerMessage(a, { number, body: "stop" }));
    const tk = await ticketOf(number);
    expect((await t.call("GET", `/contacts/${tk!.contact.id}/opt-out`, { token: a.adminToken })).body.optedOut).toBe(false);
    expect((await t.call("PUT", "/lgpd/settings", { token: a.adminToken, body: { optOutInAnyTicket: true, optOutKeywords: ["stop", "descadastrar"] } })).status).toBe(200);
    await deliver(t, customerMessage(a, { number, body: "Descadastrar" }));
    expect((await t.call("GET", `/contacts/${tk!.contact.id}/opt-out`, { token: a.adminToken })).body).toMatchObject({ optedOut: true, optOut: { source: "ticket" } });
    const api = await t.call("POST", "/messages/send", { headers: { authorization: `Bearer ${a.whatsapp.token}` }, body: { number, body: "oi" } });
    expect(api.body.error).toBe("ERR_NUMBER_OPTED_OUT");
    const cleared = await t.call("DELETE", `/contacts/${tk!.contact.id}/opt-out`, { token: a.adminToken });
    expect(cleared.body).toEqual({ optedOut: false, optOut: null });
    expect((await t.call("POST", "/messages/send", { headers: { authorization: `Bearer ${a.whatsapp.token}` }, body: { number, body: "oi" } })).status).toBe(200);
  });

  it("lists with the shared paging and exports CSV; settings are validated", async () => {
    const csv = await t.app.request("/api/opt-outs/export", { headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(await csv.text()).toContain("5511966665555");
    const bad = await t.call("GET", "/opt-outs?pageNumber=0", { token: a.adminToken });
    expect(bad.body.error).toBe("ERR_VALIDATION");
    const badSettings = await t.call("PUT", "/lgpd/settings", { token: a.adminToken, body: { mediaRetentionDays: 0 } });
    expect(badSettings.status).toBe(400);
    expect(badSettings.body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/lgpd/settings", { token: b.adminToken })).body).toMatchObject({ optOutInAnyTicket: false, mediaRetentionDays: null });
    expect((await t.call("GET", "/opt-outs", { token: a.userToken })).status).toBe(403);
  });
});
