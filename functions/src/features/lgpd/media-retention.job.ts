import type { JobQueue } from "../../platform/queues/jobs.port";
import type { MediaStore } from "../../platform/storage/media-store.port";
import type { Logger } from "../../platform/logger";
import type { LgpdSettingsRepository, RetentionEntry } from "./lgpd-settings.repository";
import type { MediaRetentionRepository } from "./media-retention.repository";
import type { MediaBackfillRepository } from "./media-backfill.repository";

export const MEDIA_RETENTION_JOB = "lgpd.mediaRetention";
export type MediaRetentionPayload = Record<string, never>;

/** The daily run starts with the first tick at or after this UTC hour (00:00 in Brasília). */
export const DAILY_RUN_HOUR_UTC = 3;
/** Messages one job invocation expires before it hands the rest to a new job (keeps each run short). */
const BATCH = 100;
const PER_RUN = 2000;
/** On the first run, how far back the sweep starts when the company's creation day is unknown. */
const FIRST_RUN_LOOKBACK_DAYS = 3650;
/** The index backfill (ADR 0044): contacts read per page, and at most this many contacts or indexed media per job. */
const BACKFILL_PAGE = 25;
const BACKFILL_CONTACTS_PER_RUN = 500;
const BACKFILL_MEDIA_PER_RUN = 2000;

const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (day: string, n: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000));

/**
 * Media retention (docs/adr/0030): a company that turned it on has its message media older than N days deleted
 * from storage, the messages keep their text and show "mídia expirada".
 * - `tick(now)`: every minute; once a day (claimed with a conditional write) it enqueues one job per company in
 *   the retention registry (only companies that turned it on; never the list of all companies) and sweeps
 *   expired exports.
 * - `sweepCompany(companyId)`: walks the media-by-day index from the day after the last swept one up to the
 *   last whole day older than N days; each message: object deleted, message marked expired, out of the index.
 */
export const createMediaRetentionJob = (deps: {
  settings: LgpdSettingsRepository;
  retention: MediaRetentionRepository;
  backfill: MediaBackfillRepository;
  media: MediaStore;
  jobQueue: JobQueue;
  /** the company's creation time (where a first sweep starts) */
  companySince: (companyId: number) => Promise<string | null>;
  sweepExpiredExports: (now: Date) => Promise<number>;
  logger: Logger;
  clock: () => Date;
  /** tests: smaller bounds for the backfill's batches */
  limits?: { backfillPage?: number; backfillContactsPerRun?: number; backfillMediaPerRun?: number };
}) => {
  const { settings, retention, media, jobQueue, companySince, logger, clock } = deps;
  const page = deps.limits?.backfillPage ?? BACKFILL_PAGE;
  const contactsPerRun = deps.limits?.backfillContactsPerRun ?? BACKFILL_CONTACTS_PER_RUN;
  const mediaPerRun = deps.limits?.backfillMediaPerRun ?? BACKFILL_MEDIA_PER_RUN;

  /**
   * One bounded step of the one-time index backfill (docs/adr/0044): media stored before the day index existed get
   * their entry by the message's day. True when the walk is over (the sweep may run); false when a new job continues.
   */
  const backfillStep = async (entry: RetentionEntry): Promise<boolean> => {
    const { companyId } = entry;
    let cursor = entry.backfillCursor;
    let minDay = entry.backfillMinDay;
    let contacts = 0;
    let indexed = 0;
    for (;;) {
      const { ids, next } = await deps.backfill.contactsPage(companyId, page, cursor);
      for (const contactId of ids) {
        for (const m of await deps.backfill.unindexedOfContact(companyId, contactId)) {
          if (await deps.backfill.index(companyId, m)) indexed++;
          const day = m.createdAt.slice(0, 10);
          if (!minDay || day < minDay) minDay = day;
        }
      }
      contacts += ids.length;
      if (!next) break;
      cursor = next;
      if (contacts >= contactsPerRun || indexed >= mediaPerRun) {
        await deps.backfill.saveProgress(companyId, cursor, minDay);
        await jobQueue.enqueue({ type: "feature", companyId, name: MEDIA_RETENTION_JOB, payload: {} });
        logger.info("media retention: index backfill continues in a new job", { companyId, contacts, indexed });
        return false;
      }
    }
    await deps.backfill.finish(companyId, clock(), minDay, entry.doneThrough);
    logger.info("media retention: index backfill done", { companyId, indexed, minDay });
    return true;
  };
  return {
    async tick(now: Date): Promise<boolean> {
      if (now.getUTCHours() < DAILY_RUN_HOUR_UTC) return false;
      if (!(await settings.claimDailyRun(dayOf(now)))) return false;
      for (const entry of await settings.listRetention()) {
        await jobQueue.enqueue({ type: "feature", companyId: entry.companyId, name: MEDIA_RETENTION_JOB, payload: {} });
      }
      await deps.sweepExpiredExports(now);
      return true;
    },

    /** One company's sweep; returns how many media files were deleted in this run. */
    async sweepCompany(companyId: number): Promise<number> {
      let entry = await settings.findRetention(companyId);
      if (!entry) return 0;
      if (!entry.backfilledAt) {
        if (!(await backfillStep(entry))) return 0;
        entry = await settings.findRetention(companyId);
        if (!entry) return 0;
      }
      const now = clock();
      // a day is swept when every media of it is older than N days: the last such day is (today - N - 1)
      const lastDay = addDays(dayOf(now), -entry.days - 1);
      const since = await companySince(companyId);
      let day = entry.doneThrough ? addDays(entry.doneThrough, 1) : (since ? since.slice(0, 10) : addDays(lastDay, -FIRST_RUN_LOOKBACK_DAYS));
      // media older than the company (a history synced from the phone) were indexed by the backfill on their own day
      if (!entry.doneThrough && entry.backfillMinDay && entry.backfillMinDay < day) day = entry.backfillMinDay;
      let deleted = 0;
      while (day <= lastDay) {
        for (;;) {
          const batch = await retention.listDay(companyId, day, BATCH);
          for (const m of batch) {
            if (m.mediaKey) await media.delete(m.mediaKey);
            await retention.markExpired(m, now);
            deleted++;
          }
          if (batch.length < BATCH) break;
          if (deleted >= PER_RUN) {
            // more to do: a fresh job continues from this day (it leaves the index as it goes)
            await jobQueue.enqueue({ type: "feature", companyId, name: MEDIA_RETENTION_JOB, payload: {} });
            logger.info("media retention: continuing in a new job", { companyId, day, deleted });
            return deleted;
          }
        }
        await settings.markSwept(companyId, day);
        day = addDays(day, 1);
      }
      if (deleted) logger.info("media retention: media expired", { companyId, deleted });
      return deleted;
    },
  };
};
export type MediaRetentionJob = ReturnType<typeof createMediaRetentionJob>;
