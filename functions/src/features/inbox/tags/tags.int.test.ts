import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { runJob } from "../../../app/jobs-consumer";
import { createPageCursors } from "../../../platform/db/page-cursors";
import { hashPassword } from "../../auth/password";
import { createTagsRepository } from "./tags.repository";
import { createTagsService, TAG_UNLINK_JOB } from "./tags.service";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
});

const createTag = (token: string, body: Record<string, unknown>) => t.call("POST", "/tags", { token, body });
const names = (rows: { name: string }[]) => rows.map((r) => r.name);
const tagOf = async (tenant: Tenant, id: number) => (await t.call("GET", `/tags/${id}`, { token: tenant.adminToken })).body as { ticketsCount: number; name: string; kanban: number };
const number = () => `55119${randomBytes(4).readUInt32BE() % 100_000_000}`.padEnd(13, "0");

/** An open ticket in the tenant's first queue (the attendant's), through the API as a user would make it. */
const openTicket = async (tenant: Tenant) => {
  const contact = await t.call("POST", "/contacts", { token: tenant.adminToken, body: { name: "Cliente Tag", number: number() } });
  expect(contact.status).toBeLessThan(300);
  const ticket = await t.call("POST", "/tickets", { token: tenant.adminToken, body: { contactId: contact.body.id, queueId: tenant.queues[0]!.id, status: "open" } });
  expect(ticket.status).toBeLessThan(300);
  return ticket.body as { id: number; uuid: string };
};
const ticketTags = async (tenant: Tenant, ticketId: number) =>
  ((await t.call("GET", `/tickets/${ticketId}`, { token: tenant.adminToken })).body.tags as { id: number }[]).map((x) => x.id);

const supervisorOf = async (tenant: Tenant) => {
  const email = `sup-${randomBytes(4).toString("hex")}@teste.com`;
  await t.container.repos.users.create(
    tenant.company.id,
    { name: "Supervisor", email, passwordHash: await hashPassword(tenant.password, 4), profile: "supervisor", super: false, whatsappId: tenant.whatsapp.id, allTicket: "desabled", queueIds: [tenant.queues[0]!.id] },
    new Date(),
  );
  return (await tenant.login(email)).token;
};

describe("tags page", () => {
  it("creates, reads, edits and deletes a tag, telling the company's browsers and no other company's", async () => {
    await t.container.services.sockets.connect("tag-a", a.userToken);
    await t.container.services.sockets.connect("tag-b", b.userToken);
    const mark = t.sender.frames.length;
    const made = await createTag(a.adminToken, { name: "Urgente", color: "#FF0000", kanban: 1, companyId: b.company.id });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "Urgente", color: "#FF0000", kanban: 1, ticketsCount: 0, companyId: a.company.id, userId: a.admin.id });
    const id = made.body.id as number;
    expect((await t.call("GET", `/tags/${id}`, { token: a.userToken })).body).toMatchObject({ id, name: "Urgente" });

    const edited = await t.call("PUT", `/tags/${id}`, { token: a.adminToken, body: { name: "Muito urgente", color: "#00FF00", kanban: 0 } });
    expect(edited.body).toMatchObject({ id, name: "Muito urgente", color: "#00FF00", kanban: 0 });
    // the old name is free again
    expect((await createTag(a.adminToken, { name: "urgente" })).status).toBe(201);

    expect((await t.call("DELETE", `/tags/${id}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("GET", `/tags/${id}`, { token: a.adminToken })).body).toEqual({ error: "ERR_NOT_FOUND" });

    const frames = t.sender.frames.slice(mark).map((f) => ({ to: f.connectionId, ...(f.frame as { channel: string; data: { action: string } }) }));
    const toA = frames.filter((f) => f.to === "tag-a");
    expect(toA.every((f) => f.channel === `company-${a.company.id}-tag`)).toBe(true);
    expect(toA.map((f) => f.data.action)).toEqual(["create", "update", "create", "delete"]);
    expect(frames.filter((f) => f.to === "tag-b")).toEqual([]);
  });

  it("refuses a missing, short or duplicated name and a bad colour, storing nothing", async () => {
    const c = await createTenant(t);
    for (const body of [{}, { name: "" }, { name: "  " }, { name: "ab" }, { name: "Valido", color: "red; drop" }, { name: "Valido", kanban: 2 }]) {
      expect(await createTag(c.adminToken, body)).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    }
    expect((await createTag(c.adminToken, { name: "Cliente VIP" })).status).toBe(201);
    expect(await createTag(c.userToken, { name: "cliente vip" })).toMatchObject({ status: 409, body: { error: "ERR_DUPLICATED_NAME" } });
    const other = await createTag(c.adminToken, { name: "Outra" });
    expect(await t.call("PUT", `/tags/${other.body.id}`, { token: c.adminToken, body: { name: "CLIENTE VIP" } })).toMatchObject({ status: 409, body: { error: "ERR_DUPLICATED_NAME" } });
    expect(await t.call("PUT", `/tags/${other.body.id}`, { token: c.adminToken, body: { name: "xy" } })).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    const list = await t.call("GET", `/tags/?${new URLSearchParams({ pageNumber: "1" })}`, { token: c.adminToken });
    expect(list.body).toMatchObject({ count: 2, hasMore: false });
    expect(names(list.body.tags)).toEqual(["Cliente VIP", "Outra"]);
    // names are unique per company only
    expect((await createTag(b.adminToken, { name: "Cliente VIP" })).status).toBe(201);
  });

  it("pages 20 at a time by name and searches by a lower-cased part of the name", async () => {
    const c = await createTenant(t);
    for (let i = 0; i < 23; i++) await createTag(c.adminToken, { name: `Etiqueta ${String(i).padStart(2, "0")}` });
    await createTag(c.adminToken, { name: "Financeiro" });
    const p1 = await t.call("GET", `/tags/?${new URLSearchParams({ searchParam: "", pageNumber: "1" })}`, { token: c.userToken });
    expect(p1.body.tags).toHaveLength(20);
    expect(p1.body).toMatchObject({ count: 24, hasMore: true });
    expect(names(p1.body.tags)[0]).toBe("Etiqueta 00");
    const p2 = await t.call("GET", `/tags/?${new URLSearchParams({ pageNumber: "2" })}`, { token: c.userToken });
    expect(names(p2.body.tags)).toEqual(["Etiqueta 20", "Etiqueta 21", "Etiqueta 22", "Financeiro"]);
    expect(p2.body.hasMore).toBe(false);
    const found = await t.call("GET", `/tags/?${new URLSearchParams({ searchParam: "FINAN", pageNumber: "1" })}`, { token: c.userToken });
    expect(names(found.body.tags)).toEqual(["Financeiro"]);
    // GET /tags?companyId= (selects): every tag of the caller's company, whatever id is given
    const all = await t.call("GET", `/tags?${new URLSearchParams({ companyId: String(a.company.id) })}`, { token: c.adminToken });
    expect(all.body).toMatchObject({ count: 24, hasMore: false });
    expect(all.body.tags).toHaveLength(24);
    expect(await t.call("GET", `/tags/?${new URLSearchParams({ pageNumber: "0" })}`, { token: c.adminToken })).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
  });

  it("counts the tickets of each tag as tickets are tagged, untagged and deleted", async () => {
    const c = await createTenant(t);
    const vip = (await createTag(c.adminToken, { name: "VIP" })).body.id as number;
    const late = (await createTag(c.adminToken, { name: "Atrasado" })).body.id as number;
    const t1 = await openTicket(c);
    const t2 = await openTicket(c);
    const t3 = await openTicket(c);

    expect((await t.call("PUT", `/ticket-tags/${t1.id}/${vip}`, { token: c.adminToken })).status).toBe(200);
    await t.call("PUT", `/ticket-tags/${t2.id}/${vip}`, { token: c.adminToken });
    await t.call("PUT", `/ticket-tags/${t2.id}/${vip}`, { token: c.adminToken }); // twice: still one link
    await t.call("POST", "/tags/sync", { token: c.adminToken, body: { ticketId: t3.id, tags: [{ id: vip }, { id: late }] } });
    expect((await tagOf(c, vip)).ticketsCount).toBe(3);
    expect((await tagOf(c, late)).ticketsCount).toBe(1);

    await t.call("POST", "/tags/sync", { token: c.adminToken, body: { ticketId: t3.id, tags: [{ id: late }] } });
    expect((await tagOf(c, vip)).ticketsCount).toBe(2);
    await t.call("DELETE", `/ticket-tags/${t1.id}`, { token: c.adminToken });
    expect((await tagOf(c, vip)).ticketsCount).toBe(1);
    expect((await t.call("DELETE", `/tickets/${t2.id}`, { token: c.adminToken })).status).toBe(200);
    expect((await tagOf(c, vip)).ticketsCount).toBe(0);
    expect((await tagOf(c, late)).ticketsCount).toBe(1);
    // the page list shows the counts too
    const list = await t.call("GET", `/tags/?${new URLSearchParams({ pageNumber: "1" })}`, { token: c.adminToken });
    expect(list.body.tags.map((x: { name: string; ticketsCount: number }) => [x.name, x.ticketsCount])).toEqual([
      ["Atrasado", 1],
      ["VIP", 0],
    ]);
  });

  it("takes a deleted tag off its tickets and refuses tagging with it", async () => {
    const c = await createTenant(t);
    const gone = (await createTag(c.adminToken, { name: "Temporaria" })).body.id as number;
    const kept = (await createTag(c.adminToken, { name: "Permanente" })).body.id as number;
    const t1 = await openTicket(c);
    const t2 = await openTicket(c);
    await t.call("POST", "/tags/sync", { token: c.adminToken, body: { ticketId: t1.id, tags: [{ id: gone }, { id: kept }] } });
    await t.call("PUT", `/ticket-tags/${t2.id}/${gone}`, { token: c.adminToken });
    expect((await t.call("DELETE", `/tags/${gone}`, { token: c.adminToken })).status).toBe(200);
    expect(await ticketTags(c, t1.id)).toEqual([kept]);
    expect(await ticketTags(c, t2.id)).toEqual([]);
    expect((await tagOf(c, kept)).ticketsCount).toBe(1);
    expect(await t.call("PUT", `/ticket-tags/${t2.id}/${gone}`, { token: c.adminToken })).toMatchObject({ status: 404, body: { error: "ERR_NOT_FOUND" } });
    // the stored tickets no longer carry it
    const auth = await t.container.services.auth.authenticate(c.adminToken);
    expect((await t.container.services.tickets.findVisible(auth, t1.id)).tagIds).toEqual([kept]);
    expect((await t.container.services.tickets.findVisible(auth, t2.id)).tagIds).toEqual([]);
    expect(await t.call("GET", "/tags/list", { token: c.adminToken }).then((r) => names(r.body))).toEqual(["Permanente"]);
  });
});

describe("deleting a tag with many tickets", () => {
  it("takes it off the first tickets in the request and the rest in a job", async () => {
    const c = await createTenant(t);
    const tagId = (await createTag(c.adminToken, { name: "Muitos" })).body.id as number;
    const tickets = [await openTicket(c), await openTicket(c), await openTicket(c)];
    for (const tk of tickets) await t.call("PUT", `/ticket-tags/${tk.id}/${tagId}`, { token: c.adminToken });
    // the same service as the app's, with a request budget of one ticket
    const svc = createTagsService({
      tags: createTagsRepository(t.container.db),
      realtime: t.container.services.realtime,
      cursors: createPageCursors(t.container.db),
      ticketTags: (companyId, ticketId, id) => t.container.services.tickets.removeTagFromTicket(companyId, ticketId, id),
      jobs: t.jobs,
      clock: () => new Date(),
      inlineUnlink: 1,
    });
    const auth = await t.container.services.auth.authenticate(c.adminToken);
    const queued = t.jobs.pending.length;
    await svc.remove(auth, tagId);
    const jobs = t.jobs.pending.slice(queued).map((p) => p.job);
    expect(jobs).toEqual([{ type: "feature", companyId: c.company.id, name: TAG_UNLINK_JOB, payload: { tagId } }]);
    // views hide a deleted tag at once; the stored tickets lose it in the request (one) and in the job (the rest)
    const stored = () => Promise.all(tickets.map(async (tk) => (await t.container.services.tickets.findVisible(auth, tk.id)).tagIds));
    expect((await stored()).filter((ids) => ids.includes(tagId))).toHaveLength(2);
    await runJob(t.container, jobs[0]!);
    expect(await stored()).toEqual([[], [], []]);
    expect(t.jobs.pending.length).toBe(queued + 1);
  });
});

describe("kanban", () => {
  it("lists the kanban tags (lanes) by name; refused without the plan's useKanban", async () => {
    const c = await createTenant(t);
    await createTag(c.adminToken, { name: "Zeta lane", kanban: 1, color: "#123456" });
    await createTag(c.adminToken, { name: "Alfa lane", kanban: 1 });
    await createTag(c.adminToken, { name: "Sem quadro" });
    const res = await t.call("GET", "/tags/kanban", { token: c.userToken });
    expect(res.status).toBe(200);
    expect(names(res.body.lista)).toEqual(["Alfa lane", "Zeta lane"]);
    expect(res.body.lista[1]).toMatchObject({ color: "#123456", kanban: 1 });

    const noKanban = await createTenant(t, { plan: { useKanban: false } });
    expect(await t.call("GET", "/tags/kanban", { token: noKanban.adminToken })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect(await t.call("GET", "/ticket/kanban", { token: noKanban.adminToken })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
  });

  it("moves a ticket between lanes: old link removed, new one added; the board shows it in the new lane", async () => {
    const c = await createTenant(t);
    const todo = (await createTag(c.adminToken, { name: "A fazer", kanban: 1 })).body.id as number;
    const doing = (await createTag(c.adminToken, { name: "Fazendo", kanban: 1 })).body.id as number;
    const ticket = await openTicket(c);
    const board = async () =>
      ((await t.call("GET", `/ticket/kanban?${new URLSearchParams({ queueIds: JSON.stringify([c.queues[0]!.id]) })}`, { token: c.userToken })).body.tickets as { id: number; tags: { id: number }[] }[]).find(
        (x) => x.id === ticket.id,
      );
    expect((await board())?.tags).toEqual([]);
    await t.call("PUT", `/ticket-tags/${ticket.id}/${todo}`, { token: c.userToken });
    expect((await board())?.tags.map((x) => x.id)).toEqual([todo]);
    // the board's move, as the browser does it
    expect((await t.call("DELETE", `/ticket-tags/${ticket.id}`, { token: c.userToken })).status).toBe(200);
    expect((await t.call("PUT", `/ticket-tags/${ticket.id}/${doing}`, { token: c.userToken })).status).toBe(200);
    expect((await board())?.tags.map((x) => x.id)).toEqual([doing]);
    expect([(await tagOf(c, todo)).ticketsCount, (await tagOf(c, doing)).ticketsCount]).toEqual([0, 1]);
  });
});

describe("who may do what", () => {
  it("gives the kanban switch to admin and supervisor only; an attendant keeps plain tags", async () => {
    const c = await createTenant(t);
    const sup = await supervisorOf(c);
    expect(await createTag(c.userToken, { name: "Lane do atendente", kanban: 1 })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect((await t.call("GET", `/tags/?${new URLSearchParams({ pageNumber: "1" })}`, { token: c.adminToken })).body.count).toBe(0);
    const lane = await createTag(sup, { name: "Lane do supervisor", kanban: 1 });
    expect(lane.status).toBe(201);
    const plain = await createTag(c.userToken, { name: "Etiqueta comum" });
    expect(plain.status).toBe(201);
    // the attendant may rename a plain tag but not switch it onto the board, nor change or delete a lane
    expect((await t.call("PUT", `/tags/${plain.body.id}`, { token: c.userToken, body: { name: "Etiqueta renomeada" } })).status).toBe(200);
    expect(await t.call("PUT", `/tags/${plain.body.id}`, { token: c.userToken, body: { kanban: 1 } })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect(await t.call("PUT", `/tags/${lane.body.id}`, { token: c.userToken, body: { name: "Outra lane" } })).toMatchObject({ status: 403 });
    expect(await t.call("DELETE", `/tags/${lane.body.id}`, { token: c.userToken })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect(await tagOf(c, lane.body.id)).toMatchObject({ name: "Lane do supervisor", kanban: 1 });
    expect(await tagOf(c, plain.body.id)).toMatchObject({ name: "Etiqueta renomeada", kanban: 0 });
    // the supervisor may switch it on, the admin may delete the lane
    expect((await t.call("PUT", `/tags/${plain.body.id}`, { token: sup, body: { kanban: 1 } })).body.kanban).toBe(1);
    expect((await t.call("DELETE", `/tags/${lane.body.id}`, { token: c.adminToken })).status).toBe(200);
    expect((await t.call("DELETE", `/tags/${plain.body.id}`, { token: c.userToken })).status).toBe(403);
  });

  it("keeps company A's tags and tickets out of company B's reach", async () => {
    const c = await createTenant(t);
    const d = await createTenant(t);
    // ids are per company: C's tag and ticket get ids D does not have (D's own would answer 200 legitimately)
    await createTag(c.adminToken, { name: "Primeira" });
    const tag = (await createTag(c.adminToken, { name: "Segredo", kanban: 1 })).body.id as number;
    await openTicket(c);
    const ticket = await openTicket(c);
    await t.call("PUT", `/ticket-tags/${ticket.id}/${tag}`, { token: c.adminToken });
    const dTag = (await createTag(d.adminToken, { name: "Do outro" })).body.id as number;
    const dTicket = await openTicket(d);

    expect((await t.call("GET", `/tags/${tag}`, { token: d.adminToken })).status).toBe(404);
    expect((await t.call("PUT", `/tags/${tag}`, { token: d.adminToken, body: { name: "Roubada" } })).status).toBe(404);
    expect((await t.call("DELETE", `/tags/${tag}`, { token: d.adminToken })).status).toBe(404);
    expect(names((await t.call("GET", `/tags/?${new URLSearchParams({ pageNumber: "1" })}`, { token: d.adminToken })).body.tags)).toEqual(["Do outro"]);
    expect((await t.call("GET", "/tags/kanban", { token: d.adminToken })).body.lista).toEqual([]);
    // B may not tag A's ticket (with either company's tag), nor untag it, nor tag its own ticket with A's tag
    for (const [method, path] of [
      ["PUT", `/ticket-tags/${ticket.id}/${dTag}`],
      ["PUT", `/ticket-tags/${ticket.id}/${tag}`],
      ["DELETE", `/ticket-tags/${ticket.id}`],
      ["PUT", `/ticket-tags/${dTicket.id}/${tag}`],
    ] as const) {
      expect([403, 404]).toContain((await t.call(method, path, { token: d.adminToken })).status);
    }
    expect(await tagOf(c, tag)).toMatchObject({ name: "Segredo", ticketsCount: 1 });
    expect(await ticketTags(c, ticket.id)).toEqual([tag]);
    expect(await ticketTags(d, dTicket.id)).toEqual([]);
    expect((await tagOf(d, dTag)).ticketsCount).toBe(0);
  });
});

describe("tags per ticket", () => {
  it("a ticket carries at most 20 tags (synced at once or one by one): a 21st is refused with ERR_TOO_MANY_TAGS and changes nothing; with 20 it still closes", async () => {
    const c = await createTenant(t);
    const ids: number[] = [];
    for (let i = 0; i < 21; i++) ids.push((await createTag(c.adminToken, { name: `Etiqueta ${i}`, color: "#123456" })).body.id as number);
    const ticket = await openTicket(c);
    const full = await t.call("POST", "/tags/sync", { token: c.adminToken, body: { ticketId: ticket.id, tags: ids.slice(0, 20).map((id) => ({ id })) } });
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    const tooMany = await t.call("POST", "/tags/sync", { token: c.adminToken, body: { ticketId: ticket.id, tags: ids.map((id) => ({ id })) } });
    expect([tooMany.status, tooMany.body]).toEqual([400, { error: "ERR_TOO_MANY_TAGS", data: { max: 20 } }]);
    const oneMore = await t.call("PUT", `/ticket-tags/${ticket.id}/${ids[20]}`, { token: c.adminToken });
    expect([oneMore.status, oneMore.body]).toEqual([400, { error: "ERR_TOO_MANY_TAGS", data: { max: 20 } }]);
    expect((await ticketTags(c, ticket.id)).sort((x, y) => x - y)).toEqual(ids.slice(0, 20).sort((x, y) => x - y));
    // the status change of a live ticket with the most tags fits in one transaction
    const closed = await t.call("PUT", `/tickets/${ticket.id}`, { token: c.adminToken, body: { status: "closed" } });
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe("closed");
  });
});
