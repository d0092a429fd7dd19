import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { runJob } from "../../app/jobs-consumer";
import { hashPassword } from "../auth/password";
import { createTenant, type Tenant } from "../../testing/factories";
import { customerMessage, deliver } from "../../testing/inbox-fixtures";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { DISTRIBUTION_JOB } from "./distribution-trigger";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

type Agent = { id: number; token: string };
const ONE_QUEUE = { queues: [{ name: "Vendas", color: "#111111" }] };

const attendant = async (tenant: Tenant, name: string): Promise<Agent> => {
  const u = await t.container.repos.users.create(
    tenant.company.id,
    {
      name,
      email: `${name.toLowerCase()}-${randomBytes(4).toString("hex")}@teste.com`,
      passwordHash: await hashPassword(tenant.password, 4),
      profile: "user",
      super: false,
      whatsappId: tenant.whatsapp.id,
      allTicket: "desabled",
      queueIds: [tenant.queues[0]!.id],
    },
    t.clock.now,
  );
  return { id: u.id, token: (await tenant.login(u.email)).token };
};
const status = async (agent: Agent, s: "online" | "offline" | "paused", pauseReasonId?: number) => {
  const res = await t.call("PUT", "/agents/me/status", { token: agent.token, body: { status: s, pauseReasonId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const configure = async (tenant: Tenant, body: { mode: string; ownAttendant?: boolean; ownAttendantMinutes?: number }) => {
  const res = await t.call("PUT", `/distribution/queues/${tenant.queues[0]!.id}`, { token: tenant.adminToken, body: { ownAttendant: false, ownAttendantMinutes: 0, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
let numbers = 0;
const newNumber = () => `55119${String(70_000_000 + ++numbers).padStart(8, "0")}`;
const customersWrite = (tenant: Tenant, list: string[]) => Promise.all(list.map((number) => deliver(t, customerMessage(tenant, { number }))));

/** The distribution jobs queued so far (and those they queue), `instances` at a time, as the jobs consumer would; other jobs are dropped. */
const runQueued = async (instances = 1) => {
  for (;;) {
    const batch = t.jobs.pending.splice(0).filter((p) => p.job.type === "feature" && p.job.name === DISTRIBUTION_JOB);
    if (!batch.length) return;
    for (let i = 0; i < batch.length; i += instances) await Promise.all(batch.slice(i, i + instances).map((p) => runJob(t.container, p.job)));
  }
};
type Row = { id: number; status: string; userId: number | null; contact: { number: string } };
const tickets = async (tenant: Tenant): Promise<Row[]> => {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const res = await t.call("GET", `/tickets?showAll=true&pageNumber=${page}`, { token: tenant.adminToken });
    rows.push(...res.body.tickets);
    if (!res.body.hasMore) return rows;
  }
};
const ownerOf = async (tenant: Tenant, number: string) => (await tickets(tenant)).find((r) => r.contact.number === number && r.status !== "closed");
const openCounts = async (tenant: Tenant) => {
  const counts = new Map<number, number>();
  for (const r of await tickets(tenant)) if (r.status === "open" && r.userId) counts.set(r.userId, (counts.get(r.userId) ?? 0) + 1);
  return counts;
};

describe("automatic distribution (issue 13 item 2)", () => {
  it("off (the default): a waiting ticket stays in Aguardando and no run is queued", async () => {
    const a = await createTenant(t, ONE_QUEUE);
    const ana = await attendant(a, "Ana");
    await status(ana, "online");
    expect((await t.call("GET", `/distribution/queues/${a.queues[0]!.id}`, { token: a.adminToken })).body).toEqual({ mode: "off", ownAttendant: false, ownAttendantMinutes: 0 });
    t.jobs.pending.splice(0);
    const n = newNumber();
    await customersWrite(a, [n]);
    expect(t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === DISTRIBUTION_JOB)).toEqual([]);
    expect(await ownerOf(a, n)).toMatchObject({ status: "pending", userId: null });
  });

  it("least busy: online attendants with a free slot get tickets; paused and offline get none; full means the ticket waits until a slot opens", async () => {
    const a = await createTenant(t, { ...ONE_QUEUE, settings: { defaultCapacity: "2" } });
    const ana = await attendant(a, "Ana");
    const bia = await attendant(a, "Bia");
    const lunch = (await t.call("POST", "/pause-reasons", { token: a.adminToken, body: { name: "Almoço" } })).body.id as number;
    await configure(a, { mode: "leastBusy" });
    await status(ana, "online");
    await status(bia, "online");
    await runQueued();

    const [c1, c2, c3] = [newNumber(), newNumber(), newNumber()];
    for (const n of [c1, c2, c3]) {
      await customersWrite(a, [n]);
      await runQueued();
      t.clock.advance(1000);
    }
    // ties (both empty) go to whoever waited longest since their last assignment
    expect((await ownerOf(a, c1))?.userId).toBe(ana.id);
    expect((await ownerOf(a, c2))?.userId).toBe(bia.id);
    expect((await ownerOf(a, c3))?.userId).toBe(ana.id);
    expect(await ownerOf(a, c1)).toMatchObject({ status: "open" });

    // Bia pauses: nobody has a free slot (Ana is at capacity 2), the admin is offline: tickets wait
    await status(bia, "paused", lunch);
    const [c4, c5] = [newNumber(), newNumber()];
    await customersWrite(a, [c4]);
    await runQueued();
    t.clock.advance(1000);
    await customersWrite(a, [c5]);
    await runQueued();
    expect(await ownerOf(a, c4)).toMatchObject({ status: "pending", userId: null });
    expect(await ownerOf(a, c5)).toMatchObject({ status: "pending", userId: null });

    // Ana closes a ticket: the slot goes to the oldest waiting ticket at once
    const first = (await ownerOf(a, c1))!;
    expect((await t.call("PUT", `/tickets/${first.id}`, { token: ana.token, body: { status: "closed" } })).status).toBe(200);
    await runQueued();
    expect((await ownerOf(a, c4))?.userId).toBe(ana.id);
    expect(await ownerOf(a, c5)).toMatchObject({ status: "pending", userId: null });

    // Bia comes back from her pause: she gets the last one
    await status(bia, "online");
    await runQueued();
    expect((await ownerOf(a, c5))?.userId).toBe(bia.id);

    const panel = (await t.call("GET", "/agents", { token: a.adminToken })).body as { userId: number; openTickets: number }[];
    const counts = await openCounts(a);
    for (const p of panel) expect(p.openTickets).toBe(counts.get(p.userId) ?? 0);
    expect(counts.get(a.admin.id)).toBeUndefined();
  });

  it("round robin: the next ticket goes to whoever waited longest since their last assignment, whatever their load", async () => {
    const a = await createTenant(t, { ...ONE_QUEUE, settings: { defaultCapacity: "10" } });
    const ana = await attendant(a, "Ana");
    const bia = await attendant(a, "Bia");
    await configure(a, { mode: "roundRobin" });
    await status(ana, "online");
    // Ana already works two tickets of her own (accepted by hand) before Bia arrives
    const own = [newNumber(), newNumber()];
    await customersWrite(a, own);
    await runQueued();
    expect((await openCounts(a)).get(ana.id)).toBe(2);
    await status(bia, "online");
    const order: (number | null | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      t.clock.advance(1000);
      const n = newNumber();
      await customersWrite(a, [n]);
      await runQueued();
      order.push((await ownerOf(a, n))?.userId);
    }
    expect(order).toEqual([bia.id, ana.id, bia.id, ana.id]);
  });

  it("an offline attendant gets nothing; coming online takes the waiting tickets up to capacity", async () => {
    const a = await createTenant(t, { ...ONE_QUEUE, settings: { defaultCapacity: "2" } });
    const ana = await attendant(a, "Ana");
    await configure(a, { mode: "leastBusy" });
    const waiting = [newNumber(), newNumber(), newNumber()];
    for (const n of waiting) {
      await customersWrite(a, [n]);
      t.clock.advance(1000);
    }
    await runQueued();
    expect((await tickets(a)).filter((r) => r.status === "pending")).toHaveLength(3);
    await status(ana, "online");
    await runQueued();
    const rows = await Promise.all(waiting.map((n) => ownerOf(a, n)));
    expect(rows.map((r) => r?.userId ?? null)).toEqual([ana.id, ana.id, null]); // oldest first, never over capacity
    await status(ana, "offline");
    await t.container.services.distribution.tick();
    expect(await ownerOf(a, waiting[2]!)).toMatchObject({ status: "pending", userId: null });
  });

  it("a burst of 200 customers over 5 attendants, several runs at once: none over capacity, spread even, one owner per ticket", { timeout: 240_000 }, async () => {
    const a = await createTenant(t, { ...ONE_QUEUE, settings: { defaultCapacity: "40" }, plan: { users: 20 } });
    const agents = [];
    for (const name of ["Ana", "Bia", "Caio", "Davi", "Eva"]) agents.push(await attendant(a, name));
    await configure(a, { mode: "leastBusy" });
    for (const ag of agents) await status(ag, "online");
    await runQueued();
    const all = Array.from({ length: 200 }, () => newNumber());
    for (const [round, half] of [all.slice(0, 100), all.slice(100)].entries()) {
      for (let i = 0; i < half.length; i += 25) await customersWrite(a, half.slice(i, i + 25));
      await runQueued(5); // five instances compete for the same tickets and slots
      const counts = [...(await openCounts(a)).entries()];
      const per = agents.map((ag) => counts.find(([u]) => u === ag.id)?.[1] ?? 0);
      const total = per.reduce((s, x) => s + x, 0);
      expect(total).toBe(100 * (round + 1));
      // least busy under five competing runs: within 2 of each other halfway, all exactly at capacity at the end
      expect(Math.max(...per) - Math.min(...per), `spread ${per.join(",")}`).toBeLessThanOrEqual(round === 0 ? 2 : 0);
      expect(Math.max(...per)).toBeLessThanOrEqual(40);
    }
    const rows = await tickets(a);
    expect(rows.filter((r) => r.status === "pending")).toEqual([]);
    // one accept per ticket (never two attendants), and every slot counter equals the tickets really owned
    const accepts = await Promise.all(rows.map((r) => t.container.services.tickets.listChanges(a.company.id, r.id)));
    for (const list of accepts) expect(list.filter((c) => c.action === "accept")).toHaveLength(1);
    for (const ag of agents) expect((await t.container.repos.agents.get(a.company.id, ag.id)).open).toBe(40);
    // one more customer: everybody is full, the ticket waits
    const late = newNumber();
    await customersWrite(a, [late]);
    await runQueued(5);
    expect(await ownerOf(a, late)).toMatchObject({ status: "pending", userId: null });
  });
});

describe("the assignment's conditional writes (no lease involved)", () => {
  it("one ticket assigned at once to two attendants: one wins; ten tickets at once to one attendant with 3 free slots: 3 win; paused: none", { timeout: 120_000 }, async () => {
    const a = await createTenant(t, { ...ONE_QUEUE, settings: { defaultCapacity: "3" } });
    const ana = await attendant(a, "Ana");
    const bia = await attendant(a, "Bia");
    await status(ana, "online");
    await status(bia, "online");
    const queueId = a.queues[0]!.id;
    const numbers = Array.from({ length: 11 }, () => newNumber());
    await customersWrite(a, numbers); // distribution is off for this queue: they all wait
    const waiting = await t.container.services.inbox.distribution.pendingOfQueue(a.company.id, queueId, 50);
    expect(waiting).toHaveLength(11);
    const assign = (ticketId: number, userId: number) => t.container.services.inbox.distribution.assign(a.company.id, ticketId, queueId, userId, 3);

    const [first, ...rest] = waiting;
    const race = await Promise.all([assign(first!.id, ana.id), assign(first!.id, bia.id)]);
    expect(race.filter((o) => o === "assigned")).toHaveLength(1);
    expect(race.filter((o) => o === "taken")).toHaveLength(1);

    const winner = race[0] === "assigned" ? bia : ana; // the other one still has 3 free slots
    const loser = winner === ana ? bia : ana;
    const burst = await Promise.all(rest.map((tk) => assign(tk.id, winner.id)));
    expect(burst.filter((o) => o === "assigned")).toHaveLength(3);
    expect(burst.filter((o) => o === "full")).toHaveLength(7);
    expect((await t.container.repos.agents.get(a.company.id, winner.id)).open).toBe(3);
    expect((await openCounts(a)).get(winner.id)).toBe(3);

    const lunch = (await t.call("POST", "/pause-reasons", { token: a.adminToken, body: { name: "Almoço" } })).body.id as number;
    await status(loser, "paused", lunch);
    const left = await t.container.services.inbox.distribution.pendingOfQueue(a.company.id, queueId, 50);
    expect(await assign(left[0]!.id, loser.id)).toBe("full");
    expect((await openCounts(a)).get(loser.id)).toBe(1);
  });
});

describe("the customer's own attendant (issue 13 item 3)", () => {
  it("a returning customer goes to who served them last if free; when not, after N minutes to the queue's distribution", async () => {
    const a = await createTenant(t, { ...ONE_QUEUE, settings: { defaultCapacity: "5" } });
    const ana = await attendant(a, "Ana");
    const bia = await attendant(a, "Bia");
    const lunch = (await t.call("POST", "/pause-reasons", { token: a.adminToken, body: { name: "Almoço" } })).body.id as number;
    await configure(a, { mode: "leastBusy", ownAttendant: true, ownAttendantMinutes: 5 });
    const client = newNumber();
    await status(bia, "online");
    await customersWrite(a, [client]);
    await runQueued();
    const first = (await ownerOf(a, client))!;
    expect(first.userId).toBe(bia.id);
    await t.call("PUT", `/tickets/${first.id}`, { token: bia.token, body: { status: "closed" } });

    // Ana is online and less busy, yet the customer's own attendant Bia gets them back
    await status(ana, "online");
    t.clock.advance(60_000);
    await customersWrite(a, [client]);
    await runQueued();
    const second = (await ownerOf(a, client))!;
    expect(second.id).not.toBe(first.id);
    expect(second.userId).toBe(bia.id);
    await t.call("PUT", `/tickets/${second.id}`, { token: bia.token, body: { status: "closed" } });

    // Bia pauses: the customer waits for her up to 5 minutes although Ana is free, then the queue takes over
    await status(bia, "paused", lunch);
    t.clock.advance(60_000);
    await customersWrite(a, [client]);
    await runQueued();
    expect(await ownerOf(a, client)).toMatchObject({ status: "pending", userId: null });
    t.clock.advance(4 * 60_000);
    await t.container.services.distribution.tick();
    expect(await ownerOf(a, client)).toMatchObject({ status: "pending", userId: null });
    t.clock.advance(61_000);
    await t.container.services.distribution.tick();
    expect((await ownerOf(a, client))?.userId).toBe(ana.id);
  });
});

describe("distribution settings", () => {
  it("admins set a queue's mode; bad input stores nothing; attendants may not; cross-tenant reads and changes nothing", async () => {
    const a = await createTenant(t, { queues: [{ name: "A1", color: "#111111" }, { name: "A2", color: "#222222" }, { name: "A3", color: "#333333" }] });
    const b = await createTenant(t, ONE_QUEUE);
    const q3 = a.queues[2]!.id;
    const put = (tenant: Tenant, token: string, queueId: number, body: unknown) => t.call("PUT", `/distribution/queues/${queueId}`, { token, body });
    // what a spec-style client sends: 0/1 flags and numbers as text
    expect((await put(a, a.adminToken, q3, { mode: "leastBusy", ownAttendant: 1, ownAttendantMinutes: "15" })).status).toBe(200);
    expect((await t.call("GET", `/distribution/queues/${q3}`, { token: a.adminToken })).body).toEqual({ mode: "leastBusy", ownAttendant: true, ownAttendantMinutes: 15 });
    expect((await put(a, a.adminToken, q3, { mode: "roundRobin", ownAttendant: true, ownAttendantMinutes: 10 })).status).toBe(200);
    expect((await put(a, a.adminToken, q3, { mode: "fastest", ownAttendant: true, ownAttendantMinutes: 10 })).body.error).toBe("ERR_VALIDATION");
    expect((await put(a, a.adminToken, q3, { mode: "off", ownAttendant: true, ownAttendantMinutes: -1 })).body.error).toBe("ERR_VALIDATION");
    expect((await put(a, a.userToken, q3, { mode: "off", ownAttendant: false, ownAttendantMinutes: 0 })).status).toBe(403);
    expect((await put(a, a.adminToken, 999_999, { mode: "off", ownAttendant: false, ownAttendantMinutes: 0 })).body.error).toBe("ERR_NO_QUEUE_FOUND");
    // company B names company A's queue: not found, nothing changed
    expect((await t.call("GET", `/distribution/queues/${q3}`, { token: b.adminToken })).body.error).toBe("ERR_NO_QUEUE_FOUND");
    expect((await put(b, b.adminToken, q3, { mode: "off", ownAttendant: false, ownAttendantMinutes: 0 })).body.error).toBe("ERR_NO_QUEUE_FOUND");
    expect((await t.call("GET", `/distribution/queues/${q3}`, { token: a.userToken })).body).toEqual({ mode: "roundRobin", ownAttendant: true, ownAttendantMinutes: 10 });
    expect(await t.container.repos.queues.findById(b.company.id, q3)).toBeNull();
    expect((await t.call("GET", `/distribution/queues/${q3}`)).status).toBe(401);
  });
});
