import { existsSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { QUEUE_COLORS } from "@atende/shared/domain/queues/queues";
import { runJob } from "../app/jobs-consumer";
import { createTenant, type Tenant } from "../testing/factories";
import { adminTickets, customerMessage, deliver } from "../testing/inbox-fixtures";
import { createTestApp, type TestApp } from "../testing/test-app";

/**
 * Tenant isolation across the whole API (docs/security.md "Tenant isolation"): company B's admin or attendant calls
 * company A's routes with A's real ids; B gets the catalogue's not-found (or forbidden) answer, and A's record,
 * read back as A, is unchanged.
 *
 * Most features keep their cross-tenant case beside their other tests (the route map below names the file); this
 * file holds the cases a feature file lacked, and the map itself: every route the app registers must be listed, so
 * a new route without a cross-tenant test fails here.
 *
 * Ids are per company (counters per company), so B may own a record with the same number as A's: each case first
 * makes sure B has no record with the id it names, otherwise B would legitimately reach its own.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  const mediaDir = await mkdtemp(join(tmpdir(), "atende-cross-tenant-"));
  // every export and erasure runs as a job here (a history of one message is "large")
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0", MEDIA_DIR: mediaDir, LGPD_SYNC_MAX_MESSAGES: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
});

const asA = (method: string, path: string, body?: unknown) => t.call(method, path, { token: a.adminToken, body });
const asB = (method: string, path: string, body?: unknown) => t.call(method, path, { token: b.adminToken, body });

/** Runs the queued LGPD jobs (exports, erasures) until none is left. */
const drainLgpdJobs = async () => {
  for (;;) {
    const i = t.jobs.pending.findIndex((p) => p.job.type === "feature" && p.job.name.startsWith("lgpd."));
    if (i < 0) return;
    const [p] = t.jobs.pending.splice(i, 1);
    await runJob(t.container, p!.job);
  }
};

let seq = 0;
/** A customer of A writes in: A's ticket and contact (B receives nothing in this file, so it has no ticket or contact). */
const customerOfA = async (body: string) => {
  const number = `55119${String(70000000 + ++seq)}`;
  await deliver(t, customerMessage(a, { number, body, pushName: `Cliente ${seq}` }));
  const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
  expect(ticket).toBeDefined();
  return { number, ticket, contactId: ticket.contact.id };
};

describe("LGPD jobs, settings and the opt-out list", () => {
  it("B neither reads nor downloads A's export job; A's job is unchanged and still downloads", async () => {
    const { contactId } = await customerOfA("quero uma cópia dos meus dados");
    const started = await asA("GET", `/contacts/${contactId}/export`);
    expect(started.status).toBe(202);
    const jobId = started.body.job.id as string;
    await drainLgpdJobs();
    const before = await asA("GET", `/lgpd/jobs/${jobId}`);
    expect(before.body).toMatchObject({ id: jobId, kind: "export", contactId, status: "done", progress: 100 });
    for (const path of [`/lgpd/jobs/${jobId}`, `/lgpd/jobs/${jobId}/download`]) {
      const res = await asB("GET", path);
      expect([path, res.status, res.body?.error]).toEqual([path, 404, "ERR_NOT_FOUND"]);
    }
    // B's attendant is refused before anything is looked up
    expect((await t.call("GET", `/lgpd/jobs/${jobId}`, { token: b.userToken })).status).toBe(403);
    expect((await asA("GET", `/lgpd/jobs/${jobId}`)).body).toEqual(before.body);
    const zip = await t.app.request(`/api/lgpd/jobs/${jobId}/download`, { headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
  });

  it("B neither starts nor reads A's erasure; A's contact stays", async () => {
    const { contactId, ticket } = await customerOfA("apaguem meus dados");
    const pending = t.jobs.pending.length;
    const res = await asB("DELETE", `/contacts/${contactId}?erase=true`);
    expect([res.status, res.body.error]).toEqual([404, "ERR_NO_CONTACT_FOUND"]);
    expect(t.jobs.pending.length).toBe(pending);
    expect((await asA("GET", `/contacts/${contactId}`)).body).toMatchObject({ id: contactId, number: ticket.contact.number });
  });

  it("B's settings and opt-out list are its own: saving them changes nothing of A's, the CSV holds none of A's numbers", async () => {
    const mine = { optOutKeywords: ["SAIR"], optOutConfirmation: "Você não receberá mais mensagens.", optOutInAnyTicket: true, mediaRetentionDays: null };
    expect((await asA("PUT", "/lgpd/settings", mine)).status).toBe(200);
    const { number, contactId } = await customerOfA("Sair");
    expect((await asA("GET", `/contacts/${contactId}/opt-out`)).body.optedOut).toBe(true);
    const settingsBefore = (await asA("GET", "/lgpd/settings")).body;

    expect((await asB("PUT", "/lgpd/settings", { optOutKeywords: ["PARE"], optOutInAnyTicket: false, mediaRetentionDays: 30 })).status).toBe(200);
    expect((await asB("GET", "/opt-outs")).body.optOuts).toEqual([]);
    const csv = await t.app.request("/api/opt-outs/export", { headers: { authorization: `Bearer ${b.adminToken}` } });
    expect(csv.status).toBe(200);
    expect(await csv.text()).not.toContain(number);
    const clear = await asB("DELETE", `/contacts/${contactId}/opt-out`);
    expect([clear.status, clear.body.error]).toEqual([404, "ERR_NO_CONTACT_FOUND"]);

    expect((await asA("GET", "/lgpd/settings")).body).toEqual(settingsBefore);
    expect((await asA("GET", `/contacts/${contactId}/opt-out`)).body.optedOut).toBe(true);
    expect((await asA("GET", "/opt-outs")).body.optOuts.map((o: { number: string }) => o.number)).toContain(number);
  });
});

describe("connections by A's real id", () => {
  it("B can neither read, change, delete nor drive A's second connection (an id B does not have)", async () => {
    const made = await asA("POST", "/whatsapp", { name: "Segunda de A", greetingMessage: "Olá", queueIds: [] });
    expect(made.status).toBe(200);
    const id = made.body.id as number;
    expect((await asB("GET", "/whatsapp/")).body.map((w: { id: number }) => w.id)).not.toContain(id);
    const before = (await asA("GET", `/whatsapp/${id}`)).body;
    const sentBefore = t.commands.sent.length;
    for (const [method, path, body] of [
      ["GET", `/whatsapp/${id}`, undefined],
      ["PUT", `/whatsapp/${id}`, { name: "Roubada", greetingMessage: "x", queueIds: [] }],
      ["DELETE", `/whatsapp/${id}`, undefined],
      ["POST", `/whatsappsession/${id}`, undefined],
      ["PUT", `/whatsappsession/${id}`, undefined],
      ["DELETE", `/whatsappsession/${id}`, undefined],
      ["POST", `/whatsappsession/${id}/pairingcode`, { number: "11 94444-3333" }],
      ["GET", `/cloud-api/${id}/templates`, undefined],
      ["POST", `/cloud-api/${id}/templates/sync`, undefined],
      ["POST", `/cloud-api/${id}/test`, undefined],
    ] as const) {
      const res = await asB(method, path, body);
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 404, "ERR_NO_WAPP_FOUND"]);
    }
    expect(t.commands.sent.length).toBe(sentBefore);
    expect((await asA("GET", `/whatsapp/${id}`)).body).toEqual(before);
  });
});

describe("uploads onto A's records", () => {
  it("B cannot attach a file to A's queue (an id B does not have): nothing stored on A's queue", async () => {
    const made = await asA("POST", "/queue", { name: "Financeiro A", color: QUEUE_COLORS[5], greetingMessage: "Olá" });
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    expect(await t.container.repos.queues.findById(b.company.id, id)).toBeNull();
    const before = (await asA("GET", `/queue/${id}`)).body;
    const form = new FormData();
    form.append("file", new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], "intruso.png", { type: "image/png" }));
    const up = await t.app.request(`/api/queue/${id}/media-upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${b.adminToken}` } });
    expect([up.status, ((await up.json()) as { error?: string }).error]).toEqual([404, "ERR_NOT_FOUND"]);
    const removed = await asB("DELETE", `/queue/${id}/media-upload`);
    expect([removed.status, removed.body.error]).toEqual([404, "ERR_NOT_FOUND"]);
    expect((await asA("GET", `/queue/${id}`)).body).toEqual(before);
  });
});

describe("a flow's media upload (POST /flows/media)", () => {
  it("B's upload is stored under B's company; B cannot read A's uploaded file, A still can", async () => {
    const up = async (token: string, name: string) => {
      const form = new FormData();
      form.append("file", new File([new TextEncoder().encode("%PDF-1.4\n%x\n")], name, { type: "application/pdf" }));
      const res = await t.app.request("/api/flows/media", { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(201);
      return ((await res.json()) as { key: string }).key;
    };
    const keyA = await up(a.adminToken, "de-a.pdf");
    const keyB = await up(b.adminToken, "de-b.pdf");
    expect(keyA.startsWith(`${a.company.id}/`)).toBe(true);
    expect(keyB.startsWith(`${b.company.id}/`)).toBe(true);
    const get = (token: string, key: string) => t.app.request(`/api/media/${key}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await get(b.adminToken, keyA)).status).toBe(404);
    expect((await get(a.adminToken, keyA)).status).toBe(200);
  });
});

describe("search inside a ticket", () => {
  it("B searching A's ticket gets ERR_NO_TICKET_FOUND and no match; the search list shows none of A's", async () => {
    const { ticket } = await customerOfA("o medidor de água quebrou");
    expect((await adminTickets(t, b)).map((x) => x.id)).not.toContain(ticket.id);
    const mine = await asA("GET", `/search/tickets/${ticket.id}?q=medidor`);
    expect(mine.body.matches).toHaveLength(1);
    const theirs = await asB("GET", `/search/tickets/${ticket.id}?q=medidor`);
    expect([theirs.status, theirs.body.error, theirs.body.matches]).toEqual([404, "ERR_NO_TICKET_FOUND", undefined]);
    expect((await t.call("GET", `/search/tickets/${ticket.id}?q=medidor`, { token: b.userToken })).status).toBe(404);
    expect((await asB("GET", "/search?q=medidor")).body.results).toEqual([]);
    expect((await asA("GET", `/search/tickets/${ticket.id}?q=medidor`)).body).toEqual(mine.body);
  });
});

describe("company-wide reads and writes that name A's company", () => {
  it("the dashboard's ticketsDay and ticketsUsers ignore another companyId: B counts none of A's tickets", async () => {
    await customerOfA("bom dia");
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: a.company.timezone }).format(t.clock.now);
    const range = `initialDate=${today}&finalDate=${today}&companyId=${a.company.id}`;
    const total = (r: { body: { data?: { total: number }[]; count?: number } }) => (r.body.data ?? []).reduce((s, x) => s + Number(x.total), 0);
    expect(total(await asA("GET", `/dashboard/ticketsDay?${range}`))).toBeGreaterThan(0);
    expect(total(await asB("GET", `/dashboard/ticketsDay?${range}`))).toBe(0);
    expect((await asB("GET", `/dashboard/ticketsUsers?${range}`)).body.count).toBe(0);
  });

  it("a user created by B's admin naming A's companyId lands in B; A's users are unchanged", async () => {
    const aUsers = (await asA("GET", "/users/list")).body;
    const made = await asB("POST", "/users", { name: "Infiltrada", email: "infiltrada@teste.com", password: "senha123", profile: "admin", queueIds: [], companyId: a.company.id });
    expect(made.status).toBe(201);
    expect(made.body.companyId).toBe(b.company.id);
    expect((await asA("GET", "/users/list")).body).toEqual(aUsers);
    // and naming A's company in the list's query still lists B's own
    const listed = (await asB("GET", `/users/list?companyId=${a.company.id}`)).body as { id: number; companyId: number }[];
    expect(listed.map((u) => u.id)).toContain(made.body.id);
    expect(listed.every((u) => u.companyId === b.company.id)).toBe(true);
  });

  it("B's company settings and campaign settings are its own: saving them changes nothing of A's", async () => {
    const settingsBefore = (await asA("GET", "/settings")).body;
    const campaignBefore = (await asA("GET", "/campaign-settings")).body;
    expect((await asB("PUT", "/settings/userRating", { value: "enabled" })).status).toBe(200);
    expect((await asB("PUT", "/settings/scheduleType", { value: "queue" })).status).toBe(200);
    expect((await asB("POST", "/campaign-settings", { settings: { messageInterval: 5, variables: [{ key: "loja", value: "Loja de B" }] } })).status).toBe(200);
    expect((await asA("GET", "/settings")).body).toEqual(settingsBefore);
    expect((await asA("GET", "/campaign-settings")).body).toEqual(campaignBefore);
  });
});

describe("contact merge across companies (issue 34)", () => {
  it("B can neither merge A's contacts (either side) nor see them among its duplicates", async () => {
    const one = (await asA("POST", "/contacts", { name: "Gêmea Um", number: "5511933330001", email: "gemea@ex.com" })).body.id as number;
    const two = (await asA("POST", "/contacts", { name: "Gêmea Dois", number: "5511933330002", email: "gemea@ex.com" })).body.id as number;
    const own = (await asB("POST", "/contacts", { name: "De B", number: "5511933330003" })).body.id as number;
    for (const id of [one, two]) expect(id === own, "B has no contact with A's id").toBe(false);
    expect((await asB("POST", `/contacts/${one}/merge`, { intoId: two })).body).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
    expect((await asB("POST", `/contacts/${one}/merge`, { intoId: own, dryRun: true })).body).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
    expect((await asB("POST", `/contacts/${own}/merge`, { intoId: two })).body).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
    expect((await asB("GET", "/contacts/duplicates")).body.groups.flatMap((g: { contacts: { id: number }[] }) => g.contacts.map((c) => c.id))).not.toContain(one);
    expect((await asA("GET", `/contacts/${one}`)).body).toMatchObject({ id: one, name: "Gêmea Um" });
    expect((await asA("GET", `/contacts/${two}`)).body).toMatchObject({ id: two, name: "Gêmea Dois" });
    expect((await asA("GET", "/contacts/duplicates")).body.groups).toContainEqual({ reason: "email", contacts: [expect.objectContaining({ id: one }), expect.objectContaining({ id: two })] });
  });
});

/**
 * Every route the app registers, by path prefix (the longest that matches wins), and where its cross-tenant case
 * is. `tenant`: routes of one company's data, with the test files (under functions/src) that call them as another
 * company; `public` / `platform` / `own`: no company's ids to cross (anyone; the operator's platform-wide records,
 * which companies at most read; the caller's own session), with the test that shows who is refused. The table in docs/security.md is this map.
 */
type Coverage = { kind: "tenant" | "public" | "platform" | "own"; tests: string[] };
const ROUTES: Record<string, Coverage> = {
  "/version": { kind: "public", tests: ["platform/http/origin-verify.int.test.ts"] },
  "/health": { kind: "public", tests: ["platform/http/health.int.test.ts"] },
  "/auth": { kind: "own", tests: ["features/auth/auth.int.test.ts", "features/auth/sessions-end.int.test.ts"] },
  "/auth/mfa": { kind: "tenant", tests: ["features/mfa/mfa.int.test.ts"] },
  "/companies": { kind: "platform", tests: ["features/companies/companies.int.test.ts"] },
  "/companies/cadastro": { kind: "public", tests: ["features/signup/signup.int.test.ts"] },
  "/companies/listPlan": { kind: "tenant", tests: ["features/auth/auth.int.test.ts"] },
  "/companies/:id/schedules": { kind: "tenant", tests: ["features/settings/settings.int.test.ts"] },
  "/companies/:id/timezone": { kind: "tenant", tests: ["features/sla/sla.int.test.ts"] },
  "/forgetpassword": { kind: "public", tests: ["features/password-reset/password-reset.int.test.ts"] },
  "/resetpasswords": { kind: "public", tests: ["features/password-reset/password-reset.int.test.ts"] },
  "/public": { kind: "public", tests: ["features/helps/helps.int.test.ts"] },
  "/settings/media-upload": { kind: "platform", tests: ["features/helps/helps.int.test.ts"] },
  "/settings": { kind: "tenant", tests: ["features/settings/settings.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/queue": { kind: "tenant", tests: ["features/queues/queues.int.test.ts", "contract/spec-2-administration.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/queue-options": { kind: "tenant", tests: ["features/queue-options/queue-options.int.test.ts"] },
  "/whatsapp": { kind: "tenant", tests: ["features/whatsapps/whatsapps.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/whatsappsession": { kind: "tenant", tests: ["features/whatsapps/whatsapps.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/whatsapp-restart": { kind: "own", tests: ["features/whatsapps/whatsapps.int.test.ts"] },
  "/users": { kind: "tenant", tests: ["features/users/users.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/plans": { kind: "platform", tests: ["features/companies/companies.int.test.ts"] },
  "/helps": { kind: "platform", tests: ["features/helps/helps.int.test.ts"] },
  "/session-hosts": { kind: "platform", tests: ["features/session-hosts/session-hosts.int.test.ts"] },
  "/dashboard": { kind: "tenant", tests: ["features/dashboard/dashboard.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/audit-logs": { kind: "tenant", tests: ["features/audit/audit.int.test.ts"] },
  "/agents": { kind: "tenant", tests: ["features/presence/presence.int.test.ts"] },
  "/pause-reasons": { kind: "tenant", tests: ["features/presence/presence.int.test.ts"] },
  "/holidays": { kind: "tenant", tests: ["features/sla/sla.int.test.ts"] },
  "/distribution": { kind: "tenant", tests: ["features/distribution/distribution.int.test.ts"] },
  "/copilot": { kind: "tenant", tests: ["../../infra/local/src/stand-ins/ai/copilot.int.test.ts"] },
  "/tickets/:id/copilot": { kind: "tenant", tests: ["../../infra/local/src/stand-ins/ai/copilot.int.test.ts"] },
  "/search": { kind: "tenant", tests: ["features/search/search.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/tickets": { kind: "tenant", tests: ["features/inbox/tickets/tickets.int.test.ts", "contract/spec-1-core.int.test.ts"] },
  "/tickets/:ticketId/whispers": { kind: "tenant", tests: ["features/supervisor/supervisor.int.test.ts"] },
  "/supervisor": { kind: "tenant", tests: ["features/supervisor/supervisor.int.test.ts"] },
  "/ticket": { kind: "tenant", tests: ["features/inbox/tickets/tickets.int.test.ts"] },
  "/ticket/reports": { kind: "tenant", tests: ["features/reports/reports.int.test.ts"] },
  "/ticket-tags": { kind: "tenant", tests: ["features/inbox/tickets/tickets.int.test.ts"] },
  "/tags": { kind: "tenant", tests: ["features/inbox/tags/tags.int.test.ts", "features/inbox/tickets/tickets.int.test.ts"] },
  "/messages": { kind: "tenant", tests: ["features/inbox/messages/messages.int.test.ts", "features/inbox/tickets/tickets.int.test.ts"] },
  "/messages/send": { kind: "tenant", tests: ["features/external-api/external-api.int.test.ts"] },
  "/message": { kind: "tenant", tests: ["features/inbox/messages/messages.int.test.ts"] },
  "/contacts/duplicates": { kind: "tenant", tests: ["features/inbox/contacts/contact-merge.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/contacts/:id/merge": { kind: "tenant", tests: ["features/inbox/contacts/contact-merge.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/contacts/:id/same-contact": { kind: "tenant", tests: ["features/inbox/contacts/contact-merge-webchat.int.test.ts"] },
  "/contacts": { kind: "tenant", tests: ["features/inbox/contacts/contacts.int.test.ts", "features/inbox/contacts/contacts-import.int.test.ts", "features/lgpd/lgpd.int.test.ts"] },
  "/ticket-notes": { kind: "tenant", tests: ["features/inbox/notes/ticket-notes.int.test.ts", "features/inbox/tickets/tickets.int.test.ts"] },
  "/media": { kind: "tenant", tests: ["features/inbox/media/media.int.test.ts"] },
  "/opt-outs": { kind: "tenant", tests: ["features/lgpd/lgpd.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/lgpd": { kind: "tenant", tests: ["features/lgpd/lgpd.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/reports": { kind: "tenant", tests: ["features/reports/reports.int.test.ts"] },
  "/quick-messages": { kind: "tenant", tests: ["features/quick-messages/quick-messages.int.test.ts", "contract/spec-3-feature-modules.int.test.ts"] },
  "/prompt": { kind: "tenant", tests: ["features/prompts/prompts.int.test.ts", "../../infra/local/src/stand-ins/ai/bots.int.test.ts"] },
  "/flows": { kind: "tenant", tests: ["features/flows/flows.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/queueIntegration": { kind: "tenant", tests: ["features/queue-integrations/queue-integrations.int.test.ts", "../../infra/local/src/stand-ins/dialogflow/queue-integration-secrets.int.test.ts"] },
  "/announcements": { kind: "platform", tests: ["features/announcements/announcements.int.test.ts"] },
  "/files": { kind: "tenant", tests: ["features/files/file-lists.int.test.ts", "contract/spec-3-feature-modules.int.test.ts"] },
  "/chats": { kind: "tenant", tests: ["features/chats/chats.int.test.ts"] },
  "/push": { kind: "tenant", tests: ["features/push/push.int.test.ts", "../../infra/local/src/stand-ins/push/push.int.test.ts"] },
  "/schedules": { kind: "tenant", tests: ["features/schedules/schedules.int.test.ts", "contract/spec-3-feature-modules.int.test.ts"] },
  "/contact-lists": { kind: "tenant", tests: ["features/contact-lists/contact-lists.int.test.ts"] },
  "/contact-list-items": { kind: "tenant", tests: ["features/contact-lists/contact-lists.int.test.ts", "contract/spec-3-feature-modules.int.test.ts"] },
  "/campaign-settings": { kind: "tenant", tests: ["features/campaign-settings/campaign-settings.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/campaigns": { kind: "tenant", tests: ["features/campaigns/campaigns.int.test.ts", "features/channels/cloud-api/cloud-api-templates.int.test.ts"] },
  "/invoices": { kind: "tenant", tests: ["features/invoices/invoices.int.test.ts"] },
  "/subscription": { kind: "tenant", tests: ["features/invoices/invoices.int.test.ts"] },
  "/cloud-api": { kind: "tenant", tests: ["features/channels/cloud-api/cloud-api.int.test.ts", "contract/cross-tenant.int.test.ts"] },
  "/channels/cloud-api/webhook": { kind: "tenant", tests: ["features/channels/cloud-api/cloud-api-webhook.int.test.ts"] },
  "/webchat": { kind: "tenant", tests: ["features/channels/webchat/webchat.int.test.ts"] },
  "/channels/telegram/webhook": { kind: "tenant", tests: ["features/channels/telegram/telegram.int.test.ts"] },
  "/channels/meta/webhook": { kind: "tenant", tests: ["features/channels/meta/meta-webhook.int.test.ts", "features/channels/meta/meta.int.test.ts"] },
};

/** The map's entry for a route path (without /api): the longest prefix, by whole segments. */
const coverageOf = (path: string) => {
  const prefixes = Object.keys(ROUTES).filter((p) => path === p || path.startsWith(`${p}/`));
  const best = prefixes.sort((x, y) => y.length - x.length)[0];
  return best ? { prefix: best, ...ROUTES[best]! } : null;
};

describe("the route map", () => {
  it("lists every registered route, and each named test file exists and calls that path", () => {
    const registered = t.app.routes.filter((r) => r.method !== "ALL").map((r) => ({ method: r.method, path: r.path.replace(/^\/api/, "").replace(/\/$/, "") || "/" }));
    expect(registered.length).toBeGreaterThan(250);
    const unlisted = registered.filter((r) => !coverageOf(r.path)).map((r) => `${r.method} ${r.path}`);
    expect(unlisted, JSON.stringify(unlisted)).toEqual([]);
    const root = new URL("../", import.meta.url);
    for (const [prefix, c] of Object.entries(ROUTES)) {
      expect(c.tests.length, prefix).toBeGreaterThan(0);
      // the file names the path: its last fixed segment (an id segment names nothing)
      const needle = `/${prefix.split("/").filter((s) => s && !s.startsWith(":")).at(-1)}`;
      for (const file of c.tests) {
        const url = new URL(file, root);
        expect(existsSync(url), `${prefix}: ${file}`).toBe(true);
        const text = readFileSync(url, "utf8");
        // this file's own cases, not the map below (which names every path)
        const calls = file === "contract/cross-tenant.int.test.ts" ? text.slice(0, text.indexOf("const ROUTES")) : text;
        expect(calls.includes(needle), `${prefix}: ${file} names ${needle}`).toBe(true);
      }
    }
    // no entry is left over from a route that is gone
    const used = new Set(registered.map((r) => coverageOf(r.path)?.prefix));
    expect(Object.keys(ROUTES).filter((p) => !used.has(p)), "unused").toEqual([]);
  });
});
