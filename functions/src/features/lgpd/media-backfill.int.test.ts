import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { runJob } from "../../app/jobs-consumer";
import { runTick } from "../../app/tick";
import { createLogger } from "../../platform/logger";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../testing/inbox-fixtures";
import { createLgpdSettingsRepository } from "./lgpd-settings.repository";
import { createMediaBackfillRepository } from "./media-backfill.repository";
import { createMediaRetentionJob, MEDIA_RETENTION_JOB } from "./media-retention.job";
import { createMediaRetentionRepository } from "./media-retention.repository";

/**
 * Media stored before the media-by-day index existed (docs/adr/0044): the retention sweep finds them through a
 * one-time backfill that indexes them by their message's day, in bounded jobs, per company, once.
 */
let t: TestApp;
const DAY = 86_400_000;
const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 7, 7, 7]);

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0", MEDIA_DIR: await mkdtemp(join(tmpdir(), "atende-backfill-")) });
});

const signIn = async (tenant: Tenant) => {
  tenant.adminToken = (await tenant.login(tenant.admin.email)).token;
  return tenant.adminToken;
};
const imageOf = async (tenant: Tenant, number: string) => {
  await signIn(tenant);
  const tk = (await adminTickets(t, tenant)).find((x) => x.contact?.number === number);
  const list = (await t.call("GET", `/messages/${tk!.id}`, { token: tenant.adminToken })).body.messages as { id: string; mediaType: string; mediaUrl: string | null; mediaExpiredAt?: string | null }[];
  return list.find((m) => m.mediaType === "image")!;
};
const messageItem = async (tenant: Tenant, id: string) =>
  (await t.container.db.doc.send(new GetCommand({ TableName: t.container.db.tableName, Key: { pk: `CO#${tenant.company.id}#MSG#${id}`, sk: "MSG" } }))).Item!;
/**
 * A customer photo as the platform stored it before the day index existed: the message is written by today's
 * path, then its index entry is taken away (the same item an older version wrote).
 */
const oldPhoto = async (tenant: Tenant, number: string, name: string) => {
  const key = `${tenant.company.id}/old/${name}`;
  await t.container.media.put(key, bytes, "image/jpeg");
  await deliver(t, customerMessage(tenant, { number, body: "", extra: { type: "image", timestamp: Math.floor(t.clock.now.getTime() / 1000), media: { key, mimetype: "image/jpeg", filename: name } } }));
  const m = await imageOf(tenant, number);
  await t.container.db.doc.send(
    new UpdateCommand({ TableName: t.container.db.tableName, Key: { pk: `CO#${tenant.company.id}#MSG#${m.id}`, sk: "MSG" }, UpdateExpression: "REMOVE gsi3pk, gsi3sk" }),
  );
  expect((await messageItem(tenant, m.id)).gsi3pk).toBeUndefined();
  return { key, id: m.id };
};
const drainRetention = async () => {
  for (;;) {
    const i = t.jobs.pending.findIndex((p) => p.job.type === "feature" && p.job.name === MEDIA_RETENTION_JOB);
    if (i < 0) return;
    const [p] = t.jobs.pending.splice(i, 1);
    await runJob(t.container, p!.job);
  }
};
const registry = async (companyId: number) => createLgpdSettingsRepository(t.container.db).findRetention(companyId);

describe("media retention covers media stored before the day index", () => {
  it("indexes them by their message day and sweeps them, also when the sweep had already passed their day", async () => {
    const on = await createTenant(t, { dueDate: "2100-01-01T00:00:00.000Z" });
    const other = await createTenant(t, { dueDate: "2100-01-01T00:00:00.000Z" });
    const old = await oldPhoto(on, "5511955550001", "antes.jpg");
    const otherOld = await oldPhoto(other, "5511955550002", "outra.jpg");
    t.clock.advance(35 * DAY);
    const recentOld = await oldPhoto(on, "5511955550003", "recente.jpg"); // also without index, but not old enough
    expect((await t.call("PUT", "/lgpd/settings", { token: await signIn(on), body: { mediaRetentionDays: 30 } })).status).toBe(200);
    // as the version before the backfill left it: a sweep already walked past the old photo's day and never saw it
    const today = t.clock.now.toISOString().slice(0, 10);
    const swept = new Date(Date.parse(`${today}T00:00:00Z`) - 31 * DAY).toISOString().slice(0, 10);
    await t.container.db.doc.send(
      new UpdateCommand({ TableName: t.container.db.tableName, Key: { pk: "PLATFORM", sk: `MEDIARET#${on.company.id}` }, UpdateExpression: "SET doneThrough = :d", ExpressionAttributeValues: { ":d": swept } }),
    );

    t.clock.set(new Date(t.clock.now.getTime() + DAY).toISOString().slice(0, 10) + "T04:00:00.000Z");
    await runTick(t.container);
    await drainRetention();

    expect(await t.container.media.get(old.key)).toBeNull();
    expect(await imageOf(on, "5511955550001")).toMatchObject({ mediaUrl: null });
    expect((await imageOf(on, "5511955550001")).mediaExpiredAt).toBeTruthy();
    // the recent one is in its day's index now, and kept
    expect(await t.container.media.get(recentOld.key)).not.toBeNull();
    expect((await messageItem(on, recentOld.id)).gsi3pk).toBe(`CO#${on.company.id}#MEDIADAY#${today}`);
    // the company without retention: nothing read, nothing changed
    expect(await t.container.media.get(otherOld.key)).not.toBeNull();
    expect((await messageItem(other, otherOld.id)).gsi3pk).toBeUndefined();
    expect(await registry(on.company.id)).toMatchObject({ backfilledAt: expect.any(String), backfillCursor: null });

    // once: the next day's run does not walk the contacts again, and the recent photo goes when its day is old
    t.clock.advance(31 * DAY);
    await runTick(t.container);
    await drainRetention();
    expect(await t.container.media.get(recentOld.key)).toBeNull();
  });

  it("runs in bounded jobs that continue where the last stopped, and indexing twice changes nothing", async () => {
    const co = await createTenant(t, { dueDate: "2100-01-01T00:00:00.000Z" });
    const photos: { key: string; id: string }[] = [];
    for (let i = 0; i < 3; i++) photos.push(await oldPhoto(co, `55119555601${i}0`, `lote-${i}.jpg`));
    t.clock.advance(10 * DAY);
    expect((await t.call("PUT", "/lgpd/settings", { token: await signIn(co), body: { mediaRetentionDays: 5 } })).status).toBe(200);

    const db = t.container.db;
    const backfill = createMediaBackfillRepository(db);
    const job = createMediaRetentionJob({
      settings: createLgpdSettingsRepository(db),
      retention: createMediaRetentionRepository(db),
      backfill,
      media: t.container.media,
      jobQueue: t.jobs,
      companySince: async () => new Date(t.clock.now.getTime() - 30 * DAY).toISOString(),
      sweepExpiredExports: async () => 0,
      logger: createLogger("silent"),
      clock: () => t.clock.now,
      limits: { backfillPage: 1, backfillContactsPerRun: 1 },
    });
    t.jobs.pending.splice(0);
    let runs = 0;
    let deleted = 0;
    do {
      t.jobs.pending.splice(0);
      deleted += await job.sweepCompany(co.company.id);
      runs++;
      if (runs === 1) {
        expect(await registry(co.company.id)).toMatchObject({ backfilledAt: null, backfillCursor: expect.stringMatching(/^CONTACT#/) });
      }
    } while (t.jobs.pending.some((p) => p.job.type === "feature" && p.job.name === MEDIA_RETENTION_JOB) && runs < 20);
    // one contact per job (the tenant's own contacts count too), then the sweep
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(deleted).toBe(3);
    for (const p of photos) expect(await t.container.media.get(p.key)).toBeNull();

    // the same message indexed twice: the second write is refused (no index for an expired or indexed message)
    const again = await oldPhoto(co, "5511955569999", "duas-vezes.jpg");
    const item = await messageItem(co, again.id);
    const m = { pk: String(item.pk), sk: String(item.sk), id: again.id, createdAt: String(item.createdAt) };
    expect(await backfill.index(co.company.id, m)).toBe(true);
    expect(await backfill.index(co.company.id, m)).toBe(false);
    expect(await backfill.unindexedOfContact(co.company.id, Number(item.contactId))).toEqual([]);
  });
});
