import { beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import type { ReportRow } from "@atende/shared/contracts/http/reports";
import { runJob } from "../../app/jobs-consumer";
import { runTick } from "../../app/tick";
import { adminTickets, customerMessage, deliver } from "../../testing/inbox-fixtures";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

/**
 * GET /ticket/reports, /reports/csat and the exports against a hand-computed fixture (docs/adr/0034-reports.md).
 * Company A (America/Sao_Paulo, UTC-3), March 2026:
 * - Ana (10 Mar 09:00 local): picks Vendas at once; the attendant accepts at +4 min and answers at +5; at +6 the admin
 *   transfers it to Suporte and to himself; closed at +10 (rating asked); Ana answers 3.
 *   → wait 240 s, first response 300 s, handling 360 s, path Vendas > Suporte, attendants Atendente Teste, Admin
 *   Teste, rating 3.
 * - Bruno (+20 min): picks Suporte, tagged "VIP", closed by the admin from the waiting list at +25 → abandoned.
 * - "=HYPERLINK(...)" (+30 min): still waiting in the menu (pending, no queue).
 * - one cycle on 27 Feb (outside the month).
 */
const MIN = 60_000;
let t: TestApp;
let a: Tenant;
let b: Tenant;
const MARCH = "dateFrom=2026-03-01&dateTo=2026-03-31";
const ANA = "5511970000101";
const BRUNO = "5511970000102";
const EVIL = "5511970000103";
const EVIL_NAME = "=HYPERLINK(\"http://x\")";
let anaTicket: number;
let brunoTicket: number;
let vip: number;

const says = (tenant: Tenant, number: string, body: string, pushName: string) => deliver(t, customerMessage(tenant, { number, body, pushName }));
const ticketOf = async (tenant: Tenant, number: string) => (await adminTickets(t, tenant)).find((x) => x.contact.number === number && x.status !== "closed")!;

beforeAll(async () => {
  t = await createTestApp({ REPORTS_INLINE_EXPORT_ROWS: "2" });
  a = await createTenant(t, { settings: { userRating: "enabled" } });
  b = await createTenant(t);
  const [vendas, suporte] = a.queues;

  t.clock.set("2026-02-27T15:00:00.000Z");
  await says(a, "5511970000109", "fevereiro", "Antigo");

  t.clock.set("2026-03-10T12:00:00.000Z");
  await says(a, ANA, "oi", "Ana Souza");
  await says(a, ANA, "1", "Ana Souza");
  anaTicket = (await ticketOf(a, ANA)).id;
  t.clock.advance(4 * MIN);
  expect((await t.call("PUT", `/tickets/${anaTicket}`, { token: a.userToken, body: { status: "open" } })).status).toBe(200);
  t.clock.advance(MIN);
  expect((await t.call("POST", `/messages/${anaTicket}`, { token: a.userToken, body: { body: "Olá Ana, em que posso ajudar?" } })).status).toBe(201);
  t.clock.advance(MIN);
  expect((await t.call("PUT", `/tickets/${anaTicket}`, { token: a.adminToken, body: { queueId: suporte!.id, userId: a.admin.id, status: "open" } })).status).toBe(200);
  t.clock.advance(4 * MIN);
  expect((await t.call("PUT", `/tickets/${anaTicket}`, { token: a.adminToken, body: { status: "closed" } })).status).toBe(200);
  t.clock.advance(MIN);
  await says(a, ANA, "3", "Ana Souza");

  t.clock.set("2026-03-10T12:20:00.000Z");
  await says(a, BRUNO, "bom dia", "Bruno Lima");
  await says(a, BRUNO, "2", "Bruno Lima");
  brunoTicket = (await ticketOf(a, BRUNO)).id;
  const tag = await t.call("POST", "/tags", { token: a.adminToken, body: { name: "VIP", color: "#ff0000" } });
  vip = tag.body.id;
  expect((await t.call("PUT", `/ticket-tags/${brunoTicket}/${vip}`, { token: a.adminToken })).status).toBe(200);
  t.clock.advance(5 * MIN);
  expect((await t.call("PUT", `/tickets/${brunoTicket}`, { token: a.adminToken, body: { status: "closed" } })).status).toBe(200);

  t.clock.set("2026-03-10T12:30:00.000Z");
  await says(a, EVIL, "olá", EVIL_NAME);
  expect(vendas).toBeTruthy();
});

const report = async (tenant: Tenant, query: string) => {
  const res = await t.call("GET", `/ticket/reports?${query}`, { token: tenant.adminToken });
  expect(res.status).toBe(200);
  return res.body as { tickets: ReportRow[]; totalTickets: number; summary: Record<string, number> };
};

describe("GET /ticket/reports", () => {
  it("answers one row per attention cycle of the period with the hand-computed figures", async () => {
    const [vendas, suporte] = a.queues;
    const r = await report(a, MARCH);
    expect(r.totalTickets).toBe(3);
    expect(r.tickets.map((x) => x.contact?.number)).toEqual([EVIL, BRUNO, ANA]);
    const ana = r.tickets[2]!;
    expect(ana).toMatchObject({
      ticketId: anaTicket,
      status: "closed",
      contact: { name: "Ana Souza", number: ANA },
      whatsapp: { id: a.whatsapp.id, name: a.whatsapp.name },
      queue: { id: suporte!.id, name: "Suporte" },
      queuePath: [
        { id: vendas!.id, name: "Vendas" },
        { id: suporte!.id, name: "Suporte" },
      ],
      user: { id: a.admin.id, name: "Admin Teste" },
      users: [
        { id: a.user.id, name: "Atendente Teste" },
        { id: a.admin.id, name: "Admin Teste" },
      ],
      queuedAt: "2026-03-10T12:00:00.000Z",
      acceptedAt: "2026-03-10T12:04:00.000Z",
      finishedAt: "2026-03-10T12:10:00.000Z",
      firstResponseAt: "2026-03-10T12:05:00.000Z",
      waitSeconds: 240,
      firstResponseSeconds: 300,
      handlingSeconds: 360,
      abandoned: false,
      rating: 3,
      ratingRequested: true,
      tags: [],
    });
    const bruno = r.tickets[1]!;
    expect(bruno).toMatchObject({ status: "closed", queuePath: [{ name: "Suporte" }], users: [], user: null, waitSeconds: null, handlingSeconds: null, abandoned: true, rating: null, tags: [{ id: vip, name: "VIP", color: "#ff0000" }] });
    const evil = r.tickets[0]!;
    expect(evil).toMatchObject({ status: "pending", queue: null, queuePath: [], contact: { name: EVIL_NAME }, abandoned: false });
    expect(r.summary).toMatchObject({ total: 3, pending: 1, open: 0, closed: 2, abandoned: 1, avgWaitTime: 4, avgFirstResponseTime: 5, avgSupportTime: 6 });
    // protocol numbers: YYYYMMDD of the company's day + a daily sequence, one per cycle
    expect(r.tickets.map((x) => x.protocol)).toEqual([expect.stringMatching(/^20260310\d+$/), expect.stringMatching(/^20260310\d+$/), expect.stringMatching(/^20260310\d+$/)]);
    expect(new Set(r.tickets.map((x) => x.protocol)).size).toBe(3);
  });

  it("filters by queue path, attendant, tag, status, rating, abandoned, search text and pages", async () => {
    const [vendas, suporte] = a.queues;
    const ids = async (q: string) => (await report(a, `${MARCH}&${q}`)).tickets.map((x) => x.ticketId);
    expect(await ids(`queueIds=[${vendas!.id}]`)).toEqual([anaTicket]);
    expect(await ids(`queueIds=${suporte!.id}`)).toEqual([brunoTicket, anaTicket]);
    expect(await ids(`userIds=${a.user.id}`)).toEqual([anaTicket]);
    expect(await ids(`tags=[${vip}]`)).toEqual([brunoTicket]);
    expect(await ids("status=closed")).toEqual([brunoTicket, anaTicket]);
    expect(await ids("rating=3")).toEqual([anaTicket]);
    expect(await ids("rating=unrated&status=closed")).toEqual([brunoTicket]);
    expect(await ids("abandoned=1")).toEqual([brunoTicket]);
    expect(await ids("searchParam=ana%20souza")).toEqual([anaTicket]);
    expect(await ids("searchParam=970000102")).toEqual([brunoTicket]);
    expect(await ids("searchParam=(11)%2097000-0102")).toEqual([brunoTicket]);
    // a name with digits in it is a name: its digits match neither a ticket id nor a phone number
    expect(await ids(`searchParam=Souza%20${brunoTicket}`)).toEqual([]);
    expect(await ids("searchParam=Lima%20970000102")).toEqual([]);
    const anaProtocol = (await report(a, MARCH)).tickets.find((x) => x.ticketId === anaTicket)!.protocol!;
    expect(await ids(`searchParam=${anaProtocol}`)).toEqual([anaTicket]);
    expect(await ids(`whatsappIds=${a.whatsapp.id}`)).toHaveLength(3);
    // what the spec's clients send: empty values are "not given", 0/1 flags
    expect(await ids("queueIds=&userIds=&status=&rating=&sla=&searchParam=&abandoned=0")).toHaveLength(3);
    const page2 = await report(a, `${MARCH}&pageSize=1&pageNumber=2`);
    expect(page2.tickets.map((x) => x.ticketId)).toEqual([brunoTicket]);
    expect(page2.totalTickets).toBe(3);
    // the period: February holds one cycle, the default (no dates) is the current month of the clock
    expect((await report(a, "dateFrom=2026-02-01&dateTo=2026-02-28")).totalTickets).toBe(1);
    expect((await report(a, "")).totalTickets).toBe(3);
  });

  it("refuses bad filters and non-admins; another company's admin reads nothing of A", async () => {
    for (const q of ["dateFrom=2026-13-01", "dateFrom=2026-03-10&dateTo=2026-03-01", "dateFrom=2025-01-01&dateTo=2026-03-01", "status=lost", "rating=5", "pageSize=1000", "queueIds=abc"]) {
      const res = await t.call("GET", `/ticket/reports?${q}`, { token: a.adminToken });
      expect(res.status, q).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    expect((await t.call("GET", `/ticket/reports?${MARCH}`, { token: a.userToken })).status).toBe(403);
    expect((await t.call("GET", `/ticket/reports?${MARCH}`)).status).toBe(401);
    const other = await report(b, `${MARCH}&queueIds=${a.queues[0]!.id}&userIds=${a.user.id}`);
    expect(other.totalTickets).toBe(0);
    expect((await report(b, MARCH)).totalTickets).toBe(0);
    const csat = await t.call("GET", `/reports/csat?${MARCH}`, { token: b.adminToken });
    expect(csat.body.total).toMatchObject({ requests: 0, answers: 0 });
  });

  it("gives the dashboard's figures for the same period", async () => {
    const dash = await t.call("GET", "/dashboard?date_from=2026-03-01&date_to=2026-03-31", { token: a.adminToken });
    const r = await report(a, MARCH);
    expect(dash.body.counters).toMatchObject({
      supportPending: r.summary.pending,
      supportHappening: r.summary.open,
      supportFinished: r.summary.closed,
      avgWaitTime: r.summary.avgWaitTime,
      avgSupportTime: r.summary.avgSupportTime,
    });
    const days = await t.call("GET", "/dashboard/ticketsDay?initialDate=2026-03-01&finalDate=2026-03-31", { token: a.adminToken });
    expect(days.body.count).toBe(r.totalTickets);
    const admin = dash.body.attendants.find((x: { id: number }) => x.id === a.admin.id);
    expect(admin).toMatchObject({ tickets: 1, rating: 3, avgSupportTime: 6 });
  });
});

describe("GET /reports/csat", () => {
  it("computes score and response rate in total, per attendant and per queue", async () => {
    const res = await t.call("GET", `/reports/csat?${MARCH}`, { token: a.adminToken });
    expect(res.status).toBe(200);
    // Ana's close asked for a rating (answered 3); Bruno's close from the waiting list (no attendant) asked for none
    expect(res.body.total).toEqual({ requests: 1, answers: 1, unsatisfied: 0, satisfied: 0, verySatisfied: 1, score: 100, responseRate: 100 });
    expect(res.body.byUser).toEqual([{ id: a.admin.id, name: "Admin Teste", requests: 1, answers: 1, unsatisfied: 0, satisfied: 0, verySatisfied: 1, score: 100, responseRate: 100 }]);
    expect(res.body.byQueue).toEqual([{ id: a.queues[1]!.id, name: "Suporte", requests: 1, answers: 1, unsatisfied: 0, satisfied: 0, verySatisfied: 1, score: 100, responseRate: 100 }]);
    // the filters apply: the attendant who only accepted it has no rating of their own
    expect((await t.call("GET", `/reports/csat?${MARCH}&status=pending`, { token: a.adminToken })).body.total).toMatchObject({ requests: 0, answers: 0, score: null, responseRate: null });
    expect((await t.call("GET", `/reports/csat?${MARCH}`, { token: a.userToken })).status).toBe(403);
  });
});

const download = async (tenant: Tenant, id: string) => {
  const res = await t.app.request(`/api/reports/exports/${id}/download`, { headers: { authorization: `Bearer ${tenant.adminToken}` } }, { incoming: { socket: { remoteAddress: "127.0.0.1" } } });
  return { status: res.status, type: res.headers.get("content-type"), disposition: res.headers.get("content-disposition"), bytes: new Uint8Array(await res.arrayBuffer()) };
};

describe("exports", () => {
  it("writes a small export at once: CSV for Brazilian Excel, formula-safe", async () => {
    const res = await t.call("POST", "/reports/exports", { token: a.adminToken, body: { format: "csv", dateFrom: "2026-03-01", dateTo: "2026-03-31", status: "pending" } });
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ status: "done", progress: 100, rows: 1, format: "csv" });
    const file = await download(a, res.body.job.id);
    expect(file.status).toBe(200);
    expect(file.type).toContain("text/csv");
    expect(file.disposition).toContain("relatorio-2026-03-01-2026-03-31.csv");
    expect([...file.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder("utf-8", { ignoreBOM: true }).decode(file.bytes).slice(1).split("\r\n");
    expect(lines[0]!.split(";").slice(0, 4)).toEqual(["Protocolo", "Ticket", "Contato", "Número"]);
    expect(lines).toHaveLength(3); // header, one row, the final line break
    const cells = lines[1]!.split(";");
    // the customer's name starting with = is written with a leading apostrophe (and quoted: it holds a quote)
    expect(cells[2]).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(cells[3]).toBe(EVIL);
    expect(cells[9]).toBe("Aguardando");
    expect(cells[10]).toBe("2026-03-10 09:30:00"); // company wall time
    // another company cannot read it
    expect((await download(b, res.body.job.id)).status).toBe(404);
    expect((await t.call("GET", `/reports/exports/${res.body.job.id}`, { token: b.adminToken })).status).toBe(404);
  });

  it("runs a larger export as a job with progress, an XLSX that reads back, kept for a day", async () => {
    await t.container.services.sockets.connect("rep-admin", a.adminToken);
    const mark = t.sender.frames.length;
    const res = await t.call("POST", "/reports/exports", { token: a.adminToken, body: { format: "xlsx", dateFrom: "2026-03-01", dateTo: "2026-03-31", locale: "en" } });
    expect(res.status).toBe(202);
    expect(res.body.job).toMatchObject({ status: "running", progress: 0, downloadUrl: null });
    const id = res.body.job.id as string;
    expect((await download(a, id)).status).toBe(404);
    const i = t.jobs.pending.findIndex((p) => p.job.type === "feature" && p.job.name === "reports.export");
    const [p] = t.jobs.pending.splice(i, 1);
    // another company's job run with this id changes nothing
    await runJob(t.container, { ...(p!.job as { type: "feature"; name: string; payload: Record<string, unknown> }), companyId: b.company.id });
    expect((await t.call("GET", `/reports/exports/${id}`, { token: a.adminToken })).body.status).toBe("running");
    await runJob(t.container, p!.job);
    const progress = t.sender.frames
      .slice(mark)
      .map((f) => f.frame as { event: string; data: { job: { id: string; progress: number; status: string } } })
      .filter((f) => f.event === "report" && f.data.job.id === id)
      .map((f) => f.data.job.progress);
    // a month read a week at a time: 4 progress steps, then done
    expect(progress).toEqual([22, 45, 67, 90, 100]);
    const job = await t.call("GET", `/reports/exports/${id}`, { token: a.adminToken });
    expect(job.body).toMatchObject({ status: "done", rows: 3, downloadUrl: `/reports/exports/${id}/download` });

    const file = await download(a, id);
    expect(file.status).toBe(200);
    expect(file.type).toContain("spreadsheetml");
    const book = XLSX.read(file.bytes, { type: "array", cellDates: false });
    expect(book.SheetNames).toEqual(["Report"]);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Report!, { header: 1, raw: true });
    expect(rows[0]!.slice(0, 4)).toEqual(["Protocol", "Ticket", "Contact", "Number"]);
    expect(rows.slice(1).map((r) => r[3])).toEqual([ANA, BRUNO, EVIL]); // oldest first
    const ana = rows[1]!;
    expect(ana[1]).toBe(anaTicket);
    expect(ana[6]).toBe("Vendas > Suporte");
    expect(ana[8]).toBe("Atendente Teste > Admin Teste");
    expect(Math.round((ana[13] as number) * 86_400)).toBe(240); // wait as a duration (days)
    expect(Math.round((ana[15] as number) * 86_400)).toBe(360);
    expect(ana[17]).toBe(3);
    const opened = XLSX.SSF.parse_date_code(ana[10] as number);
    expect([opened.y, opened.m, opened.d, opened.H, opened.M]).toEqual([2026, 3, 10, 9, 0]);
    // a text cell is text, never a formula
    expect(rows[3]![2]).toBe(EVIL_NAME);
    expect(Object.values(book.Sheets.Report!).some((c) => typeof c === "object" && c !== null && "f" in c)).toBe(false);

    // kept for a day: then the download is gone and the tick deletes the file
    t.clock.advance(24 * 3600_000 + MIN);
    expect((await download(a, id)).status).toBe(404);
    await runTick(t.container);
    const after = await t.call("GET", `/reports/exports/${id}`, { token: a.adminToken });
    expect(after.body).toMatchObject({ status: "failed", error: "expired", downloadUrl: null });
    expect(await t.container.media.get(`${a.company.id}/report-exports/${id}/relatorio-2026-03-01-2026-03-31.xlsx`)).toBeNull();
  });

  it("refuses a bad export request and non-admins", async () => {
    expect((await t.call("POST", "/reports/exports", { token: a.adminToken, body: { format: "pdf" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/reports/exports", { token: a.userToken, body: { format: "csv" } })).status).toBe(403);
    expect((await t.call("GET", "/reports/exports/not-an-id", { token: a.adminToken })).status).toBe(404);
    // another company's admin naming A's queues and users exports none of A's cycles
    const other = await t.call("POST", "/reports/exports", { token: b.adminToken, body: { format: "csv", dateFrom: "2026-03-01", dateTo: "2026-03-31", queueIds: [a.queues[0]!.id], userIds: [a.user.id] } });
    expect(other.status).toBe(200);
    expect(other.body.job).toMatchObject({ status: "done", rows: 0 });
    const lines = new TextDecoder("utf-8", { ignoreBOM: true }).decode((await download(b, other.body.job.id)).bytes).split("\r\n");
    expect(lines.filter(Boolean)).toHaveLength(1); // the header only
  });
});
