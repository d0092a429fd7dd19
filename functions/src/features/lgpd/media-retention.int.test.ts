import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runJob } from "../../app/jobs-consumer";
import { runTick } from "../../app/tick";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../testing/inbox-fixtures";
import { MEDIA_RETENTION_JOB } from "./media-retention.job";

/**
 * Media retention (issue 14 item 5): a company that turned it on loses its media older than N days (objects gone,
 * messages marked expired); its newer media and every media of a company that did not turn it on stay. Driven by
 * the minute tick once a day, through the media-by-day index (never a scan).
 */
let t: TestApp;
let on: Tenant;
let off: Tenant;
const DAY = 86_400_000;
const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 9, 9, 9]);

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0", MEDIA_DIR: await mkdtemp(join(tmpdir(), "atende-retention-")) });
  on = await createTenant(t, { dueDate: "2100-01-01T00:00:00.000Z" });
  off = await createTenant(t, { dueDate: "2100-01-01T00:00:00.000Z" });
});

/** A customer photo stored now (the session host stores the object first, then sends the event). */
const photo = async (tenant: Tenant, number: string, name: string) => {
  const key = `${tenant.company.id}/ret/${name}`;
  await t.container.media.put(key, bytes, "image/jpeg");
  await deliver(t, customerMessage(tenant, { number, body: "", extra: { type: "image", timestamp: Math.floor(t.clock.now.getTime() / 1000), media: { key, mimetype: "image/jpeg", filename: name } } }));
  return key;
};
/** A fresh admin token (the test clock moves weeks ahead: earlier tokens have expired). */
const signIn = async (tenant: Tenant) => {
  tenant.adminToken = (await tenant.login(tenant.admin.email)).token;
  return tenant.adminToken;
};
const messagesOf = async (tenant: Tenant, number: string) => {
  await signIn(tenant);
  const tk = (await adminTickets(t, tenant)).find((x) => x.contact?.number === number);
  return (await t.call("GET", `/messages/${tk!.id}`, { token: tenant.adminToken })).body.messages as { id: string; mediaType: string; mediaUrl: string | null; mediaExpiredAt?: string | null }[];
};
const drainRetention = async () => {
  for (;;) {
    const i = t.jobs.pending.findIndex((p) => p.job.type === "feature" && p.job.name === MEDIA_RETENTION_JOB);
    if (i < 0) return;
    const [p] = t.jobs.pending.splice(i, 1);
    await runJob(t.container, p!.job);
  }
};

describe("media retention", () => {
  it("is off by default and validated", async () => {
    expect((await t.call("GET", "/lgpd/settings", { token: on.adminToken })).body.mediaRetentionDays).toBeNull();
    expect((await t.call("PUT", "/lgpd/settings", { token: on.adminToken, body: { mediaRetentionDays: 4000 } })).body.error).toBe("ERR_VALIDATION");
  });

  it("deletes only the old media of the company that turned it on", async () => {
    const oldOn = await photo(on, "5511944440001", "antiga.jpg");
    const oldOff = await photo(off, "5511944440002", "antiga-b.jpg");
    t.clock.advance(35 * DAY);
    const newOn = await photo(on, "5511944440003", "nova.jpg");
    expect((await t.call("PUT", "/lgpd/settings", { token: await signIn(on), body: { mediaRetentionDays: 30 } })).status).toBe(200);

    t.clock.set(new Date(t.clock.now.getTime() + DAY).toISOString().slice(0, 10) + "T02:00:00.000Z");
    await runTick(t.container); // before the daily hour: nothing yet
    await drainRetention();
    expect(await t.container.media.get(oldOn)).not.toBeNull();

    t.clock.advance(2 * 3600_000); // 04:00 UTC
    await runTick(t.container);
    await runTick(t.container); // the same day twice: one run
    expect(t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === MEDIA_RETENTION_JOB)).toHaveLength(1);
    await drainRetention();

    expect(await t.container.media.get(oldOn)).toBeNull();
    expect(await t.container.media.get(newOn)).not.toBeNull();
    expect(await t.container.media.get(oldOff)).not.toBeNull();
    const [expired] = (await messagesOf(on, "5511944440001")).filter((m) => m.mediaType === "image");
    expect(expired).toMatchObject({ mediaType: "image", mediaUrl: null });
    expect(expired!.mediaExpiredAt).toBeTruthy();
    const [kept] = (await messagesOf(on, "5511944440003")).filter((m) => m.mediaType === "image");
    expect(kept!.mediaExpiredAt ?? null).toBeNull();
    expect(kept!.mediaUrl).toBeTruthy();
    const [other] = (await messagesOf(off, "5511944440002")).filter((m) => m.mediaType === "image");
    expect(other!.mediaUrl).toBeTruthy();
  });

  it("a later day sweeps the media that grew old since, and turning it off stops it", async () => {
    t.clock.advance(30 * DAY);
    await runTick(t.container);
    await drainRetention();
    const [expired] = (await messagesOf(on, "5511944440003")).filter((m) => m.mediaType === "image");
    expect(expired!.mediaExpiredAt).toBeTruthy();

    const later = await photo(on, "5511944440004", "depois.jpg");
    expect((await t.call("PUT", "/lgpd/settings", { token: await signIn(on), body: { mediaRetentionDays: null } })).status).toBe(200);
    t.clock.advance(60 * DAY);
    await runTick(t.container);
    await drainRetention();
    expect(await t.container.media.get(later)).not.toBeNull();
  });
});
