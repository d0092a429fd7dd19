import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { runJob } from "../../app/jobs-consumer";
import { createWsRoot } from "../../app/ws-root";
import { createWsHandler } from "../../handlers/ws";
import { createLogger } from "../../platform/logger";
import { hashPassword } from "../auth/password";
import { DISTRIBUTION_JOB } from "../distribution/distribution-trigger";
import { createTenant, type Tenant } from "../../testing/factories";
import { customerMessage, deliver } from "../../testing/inbox-fixtures";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { AGENT_SOCKET_BACK_JOB, AGENT_SOCKETS_GONE_JOB, OFFLINE_GRACE_SECONDS, RESUME_WINDOW_MS } from "./socket-presence";

/**
 * The agent status follows the sockets (docs/adr/0044): the last socket gone -> offline after a grace (history row,
 * status event, no more automatic assignments); back soon -> the status they had.
 */
let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t, { queues: [{ name: "Vendas", color: "#111111" }], settings: { defaultCapacity: "5" } });
  const res = await t.call("PUT", `/distribution/queues/${a.queues[0]!.id}`, { token: a.adminToken, body: { mode: "roundRobin", ownAttendant: false, ownAttendantMinutes: 0 } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // the admin's screen: the status events other screens get arrive here
  expect((await t.container.services.sockets.connect(WATCH, a.adminToken)).statusCode).toBe(200);
});
const WATCH = "sp-admin-screen";

type Agent = { id: number; email: string; token: string };
/** Fresh tokens after the test clock moved past their lifetime. */
const signIn = async (agent: Agent) => {
  agent.token = (await a.login(agent.email)).token;
};
let adminAt = 0;
const adminToken = async () => {
  if (t.clock.now.getTime() - adminAt > 5 * 60_000) {
    a.adminToken = (await a.login(a.admin.email)).token;
    adminAt = t.clock.now.getTime();
    // a new sign-in ends the older session's sockets (ADR 0064): the admin's screen opens again, as a browser would
    t.sender.gone.delete(WATCH);
    expect((await t.container.services.sockets.connect(WATCH, a.adminToken)).statusCode).toBe(200);
  }
  return a.adminToken;
};
let sockets = 0;
const attendant = async (name: string): Promise<Agent> => {
  const u = await t.container.repos.users.create(
    a.company.id,
    {
      name,
      email: `${name.toLowerCase()}-${randomBytes(4).toString("hex")}@teste.com`,
      passwordHash: await hashPassword(a.password, 4),
      profile: "user",
      super: false,
      whatsappId: a.whatsapp.id,
      allTicket: "desabled",
      queueIds: [a.queues[0]!.id],
    },
    t.clock.now,
  );
  return { id: u.id, email: u.email, token: (await a.login(u.email)).token };
};
const setStatus = async (agent: Agent, status: string, pauseReasonId?: number) => {
  const res = await t.call("PUT", "/agents/me/status", { token: agent.token, body: { status, pauseReasonId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const statusOf = async (agent: Agent) => (await t.call("GET", "/agents", { token: await adminToken() })).body.find((x: { userId: number }) => x.userId === agent.id) as { status: string; pauseReasonId: number | null; pauseReason: string | null };
const open = async (agent: Agent) => {
  const id = `sp-${++sockets}`;
  expect((await t.container.services.sockets.connect(id, agent.token)).statusCode).toBe(200);
  return id;
};
const close = (id: string) => t.container.services.sockets.disconnect(id);
/** Takes the queued jobs of one name out of the queue (the others stay). */
const take = (name: string) => {
  const out = t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === name);
  t.jobs.pending.splice(0, t.jobs.pending.length, ...t.jobs.pending.filter((p) => !out.includes(p)));
  return out;
};
const runAll = async (name: string) => {
  for (const p of take(name)) await runJob(t.container, p.job);
};
const statusEvents = (from: number, agent: Agent) =>
  t.sender.frames
    .slice(from)
    .filter((f) => f.connectionId === WATCH)
    .map((f) => f.frame as { channel: string; data: { action: string; agent?: { userId: number; status: string } } })
    .filter((f) => f.channel === `company-${a.company.id}-user` && f.data.action === "status" && f.data.agent?.userId === agent.id)
    .map((f) => f.data.agent!.status);
const history = async (agent: Agent) => (await t.call("GET", `/agents/${agent.id}/history`, { token: await adminToken() })).body as { status: string; pauseReasonId: number | null; by: number | null }[];
let numbers = 0;
const customerWrites = async () => {
  const number = `55119${String(71_000_000 + ++numbers).padStart(8, "0")}`;
  await deliver(t, customerMessage(a, { number }));
  await runAll(DISTRIBUTION_JOB);
  return () =>
    adminToken().then((token) => t.call("GET", "/tickets?showAll=true", { token })).then((r) => (r.body.tickets as { status: string; userId: number | null; contact: { number: string } }[]).find((x) => x.contact.number === number)!);
};

describe("the agent status follows the sockets (ADR 0044)", () => {
  it("closing one of two sockets keeps the attendant online; closing both sets them offline after the grace, and distribution skips them", async () => {
    const ana = await attendant("Ana");
    await setStatus(ana, "online");
    const [s1, s2] = [await open(ana), await open(ana)];
    take(AGENT_SOCKET_BACK_JOB);
    const served = await customerWrites(); // online with her sockets: distribution gives her the customer
    expect(await served()).toMatchObject({ status: "open", userId: ana.id });

    await close(s1);
    const first = take(AGENT_SOCKETS_GONE_JOB);
    expect(first).toHaveLength(1);
    expect(first[0]!.delaySeconds).toBe(OFFLINE_GRACE_SECONDS);
    t.clock.advance(OFFLINE_GRACE_SECONDS * 1000);
    await runJob(t.container, first[0]!.job);
    expect((await statusOf(ana)).status).toBe("online");

    const mark = t.sender.frames.length;
    await close(s2);
    // nothing changes at once: a reload or a blip reconnects within the grace
    expect((await statusOf(ana)).status).toBe("online");
    const gone = take(AGENT_SOCKETS_GONE_JOB);
    expect(gone.map((g) => g.delaySeconds)).toEqual([OFFLINE_GRACE_SECONDS]);
    t.clock.advance(OFFLINE_GRACE_SECONDS * 1000);
    await runJob(t.container, gone[0]!.job);
    expect((await statusOf(ana)).status).toBe("offline");
    expect(statusEvents(mark, ana)).toEqual(["offline"]);
    expect((await history(ana))[0]).toMatchObject({ status: "offline", by: null });
    // a repeated delivery of the job (SQS is at-least-once) changes nothing
    await runJob(t.container, gone[0]!.job);
    expect((await history(ana)).filter((h) => h.status === "offline")).toHaveLength(1);

    const ticket = await customerWrites();
    expect(await ticket()).toMatchObject({ status: "pending", userId: null });
  });

  it("a reload (the new socket connects within the grace) changes nothing", async () => {
    const bia = await attendant("Bia");
    await setStatus(bia, "online");
    const s1 = await open(bia);
    await close(s1);
    const gone = take(AGENT_SOCKETS_GONE_JOB);
    await open(bia);
    take(AGENT_SOCKET_BACK_JOB);
    t.clock.advance(OFFLINE_GRACE_SECONDS * 1000);
    const before = (await history(bia)).length;
    for (const g of gone) await runJob(t.container, g.job);
    expect((await statusOf(bia)).status).toBe("online");
    expect(await history(bia)).toHaveLength(before);
    await setStatus(bia, "offline"); // out of the way of the next tests' distribution
  });

  it("a paused attendant: the pause ends with the offline row; back soon, the same pause comes back", async () => {
    const cris = await attendant("Cris");
    const lunch = (await t.call("POST", "/pause-reasons", { token: await adminToken(), body: { name: "Almoço" } })).body as { id: number };
    await setStatus(cris, "paused", lunch.id);
    await close(await open(cris));
    t.clock.advance(OFFLINE_GRACE_SECONDS * 1000);
    await runAll(AGENT_SOCKETS_GONE_JOB);
    expect(await statusOf(cris)).toMatchObject({ status: "offline", pauseReasonId: null, pauseReason: null });
    expect((await history(cris)).slice(0, 2)).toMatchObject([
      { status: "offline", pauseReasonId: null, by: null },
      { status: "paused", pauseReasonId: lunch.id, by: cris.id },
    ]);

    t.clock.advance(5 * 60_000);
    const mark = t.sender.frames.length;
    await open(cris);
    expect(t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === AGENT_SOCKET_BACK_JOB)).toHaveLength(1);
    await runAll(AGENT_SOCKET_BACK_JOB);
    expect(await statusOf(cris)).toMatchObject({ status: "paused", pauseReasonId: lunch.id, pauseReason: "Almoço" });
    expect((await history(cris))[0]).toMatchObject({ status: "paused", pauseReasonId: lunch.id, by: null });
    expect(statusEvents(mark, cris)).toEqual(["paused"]);
  });

  it("an online attendant back soon is online again and takes the customers waiting meanwhile", async () => {
    const duda = await attendant("Duda");
    await setStatus(duda, "online");
    await close(await open(duda));
    t.clock.advance(OFFLINE_GRACE_SECONDS * 1000);
    await runAll(AGENT_SOCKETS_GONE_JOB);
    expect((await statusOf(duda)).status).toBe("offline");
    const ticket = await customerWrites();
    expect((await ticket()).userId).not.toBe(duda.id);

    t.clock.advance(60_000);
    await open(duda);
    await runAll(AGENT_SOCKET_BACK_JOB);
    expect((await statusOf(duda)).status).toBe("online");
    await runAll(DISTRIBUTION_JOB);
    expect(await ticket()).toMatchObject({ status: "open", userId: duda.id });
  });

  it("stays offline when they come back late, or when they chose offline or signed out meanwhile", async () => {
    const eva = await attendant("Eva");
    await setStatus(eva, "online");
    await close(await open(eva));
    t.clock.advance(OFFLINE_GRACE_SECONDS * 1000);
    await runAll(AGENT_SOCKETS_GONE_JOB);
    t.clock.advance(RESUME_WINDOW_MS + 1000);
    await signIn(eva);
    await open(eva);
    await runAll(AGENT_SOCKET_BACK_JOB);
    expect((await statusOf(eva)).status).toBe("offline");

    const fabi = await attendant("Fabi");
    await setStatus(fabi, "online");
    await close(await open(fabi));
    t.clock.advance(OFFLINE_GRACE_SECONDS * 1000);
    await runAll(AGENT_SOCKETS_GONE_JOB);
    await setStatus(fabi, "offline"); // their own choice now
    await open(fabi);
    expect(take(AGENT_SOCKET_BACK_JOB)).toHaveLength(0);
    await runJob(t.container, { type: "feature", companyId: a.company.id, name: AGENT_SOCKET_BACK_JOB, payload: { userId: fabi.id } });
    expect((await statusOf(fabi)).status).toBe("offline");

    const ivo = await attendant("Ivo");
    await setStatus(ivo, "online");
    await close(await open(ivo));
    t.clock.advance(OFFLINE_GRACE_SECONDS * 1000);
    await runAll(AGENT_SOCKETS_GONE_JOB);
    const session = await a.login(ivo.email);
    expect((await t.call("DELETE", "/auth/logout", { token: session.token, cookie: session.cookie })).status).toBeLessThan(300);
    await signIn(ivo);
    await open(ivo);
    expect(take(AGENT_SOCKET_BACK_JOB)).toHaveLength(0);
    expect((await statusOf(ivo)).status).toBe("offline");
  });

  it("the 5-minute ping check sets offline an attendant with no socket left, and leaves one with a live socket", async () => {
    const gil = await attendant("Gil");
    await setStatus(gil, "online");
    const s = await open(gil);
    await t.container.services.sockets.message(s, JSON.stringify({ action: "userStatus" }));
    const check = t.jobs.pending.filter((p) => p.job.type === "user.offlineCheck").at(-1)!;
    t.clock.advance(check.delaySeconds * 1000);
    await runJob(t.container, check.job); // no newer ping, but the socket is there: the status stays
    expect((await statusOf(gil)).status).toBe("online");

    // the socket vanished without a $disconnect the status saw (the publisher removes a socket API Gateway calls gone)
    await t.container.repos.connections.remove(a.company.id, s);
    await runJob(t.container, check.job); // the retry of the check (SQS) or a later one
    expect((await statusOf(gil)).status).toBe("offline");
    expect((await history(gil))[0]).toMatchObject({ status: "offline", by: null });
  });

  it("the WebSocket Lambda's root queues the check on $disconnect, as the local gateway's container does", async () => {
    const hugo = await attendant("Hugo");
    await setStatus(hugo, "online");
    const handler = createWsHandler(createWsRoot(t.container.config, { db: t.container.db, sender: t.sender, jobs: t.jobs, clock: () => t.clock.now, logger: createLogger("silent") }));
    const ev = (routeKey: string, connectionId: string, token?: string) =>
      ({ requestContext: { connectionId, routeKey }, queryStringParameters: token ? { token } : undefined }) as never;
    expect(await handler(ev("$connect", "sp-ws-1=", hugo.token))).toMatchObject({ statusCode: 200 });
    expect(await handler(ev("$disconnect", "sp-ws-1="))).toMatchObject({ statusCode: 200 });
    const gone = take(AGENT_SOCKETS_GONE_JOB);
    expect(gone.map((g) => [g.job, g.delaySeconds])).toEqual([[{ type: "feature", companyId: a.company.id, name: AGENT_SOCKETS_GONE_JOB, payload: { userId: hugo.id } }, OFFLINE_GRACE_SECONDS]]);
    t.clock.advance(OFFLINE_GRACE_SECONDS * 1000);
    await runJob(t.container, gone[0]!.job);
    expect((await statusOf(hugo)).status).toBe("offline");
    expect(await handler(ev("$connect", "sp-ws-2=", hugo.token))).toMatchObject({ statusCode: 200 });
    await runAll(AGENT_SOCKET_BACK_JOB);
    expect((await statusOf(hugo)).status).toBe("online");
  });
});
