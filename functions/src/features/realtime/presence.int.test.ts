import { beforeAll, describe, expect, it } from "vitest";
import { consumeJobs } from "../../app/jobs-consumer";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
});

const sqsEvent = (bodies: unknown[]) => ({
  Records: bodies.map((b, i) => ({ messageId: `m${i}`, body: JSON.stringify(b) })),
}) as never;

describe("user presence", () => {
  it("a userStatus ping marks the user online, tells the company, and an unanswered check 5 minutes later marks them offline", async () => {
    const { token } = await a.login(a.user.email);
    expect((await t.container.services.sockets.connect("p-1", token)).statusCode).toBe(200);
    const before = t.sender.frames.length;
    await t.container.services.sockets.message("p-1", JSON.stringify({ action: "userStatus" }));

    expect((await t.container.repos.users.findById(a.company.id, a.user.id))?.online).toBe(true);
    // the whole user, as GET /users/{id} answers it (with its queues): spec clients replace theirs with it (issue 28)
    const online = await t.call("GET", `/users/${a.user.id}`, { token: a.adminToken });
    expect(online.body).toMatchObject({ id: a.user.id, online: true, queues: [expect.objectContaining({ id: a.queues[0]!.id })] });
    expect(t.sender.frames.slice(before).map((f) => f.frame)).toContainEqual({
      channel: `company-${a.company.id}-user`,
      event: "user",
      data: { action: "update", user: online.body },
    });
    const check = t.jobs.pending.at(-1)!;
    expect(check.job).toMatchObject({ type: "user.offlineCheck", companyId: a.company.id, userId: a.user.id });
    expect(check.delaySeconds).toBeGreaterThanOrEqual(300);

    // a newer ping happened in between: the old check changes nothing
    t.clock.advance(60_000);
    await t.container.services.sockets.message("p-1", JSON.stringify({ action: "userStatus" }));
    const res = await consumeJobs(t.container, sqsEvent([check.job]));
    expect(res.batchItemFailures).toEqual([]);
    expect((await t.container.repos.users.findById(a.company.id, a.user.id))?.online).toBe(true);

    // the latest check with no newer ping: offline, and the company is told
    const latest = t.jobs.pending.at(-1)!;
    const mark = t.sender.frames.length;
    await consumeJobs(t.container, sqsEvent([latest.job]));
    expect((await t.container.repos.users.findById(a.company.id, a.user.id))?.online).toBe(false);
    const offline = await t.call("GET", `/users/${a.user.id}`, { token: a.adminToken });
    expect(offline.body).toMatchObject({ online: false, queues: online.body.queues });
    expect(t.sender.frames.slice(mark).map((f) => f.frame)).toContainEqual({
      channel: `company-${a.company.id}-user`,
      event: "user",
      data: { action: "update", user: offline.body },
    });
  });

  it("rejects unknown frames and frames from unknown sockets", async () => {
    expect((await t.container.services.sockets.message("p-unknown", JSON.stringify({ action: "userStatus" }))).statusCode).toBe(410);
    expect((await t.container.services.sockets.message("p-1", "not json")).statusCode).toBe(400);
    expect((await t.container.services.sockets.message("p-1", JSON.stringify({ action: "hack" }))).statusCode).toBe(400);
  });

  it("joinTickets / leaveTickets keep the socket's rooms", async () => {
    const { token } = await a.login(a.admin.email);
    await t.container.services.sockets.connect("p-2", token);
    await t.container.services.sockets.message("p-2", JSON.stringify({ action: "joinTickets", data: "open" }));
    await t.container.services.sockets.message("p-2", JSON.stringify({ action: "joinChatBox", data: "abc" }));
    expect((await t.container.repos.connections.findById("p-2"))?.rooms).toEqual(["tickets:open", "ticket:abc"]);
    await t.container.services.sockets.message("p-2", JSON.stringify({ action: "leaveTickets", data: "open" }));
    expect((await t.container.repos.connections.findById("p-2"))?.rooms).toEqual(["ticket:abc"]);
    await t.container.services.sockets.disconnect("p-2");
    expect(await t.container.repos.connections.findById("p-2")).toBeNull();
  });
});
