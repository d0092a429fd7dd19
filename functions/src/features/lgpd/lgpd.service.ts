import { randomUUID } from "node:crypto";
import type { EraseResult, LgpdJobView } from "@atende/shared/contracts/http/lgpd";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { AppError } from "../../platform/errors";
import { isDownloadable, startingJob, sweepExpiredJobFiles } from "../../platform/jobs/progress-jobs.repository";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { MediaStore } from "../../platform/storage/media-store.port";
import type { Logger } from "../../platform/logger";
import type { AuditRecorder } from "../audit/audit.port";
import { auditActorOf } from "../audit/audit-diff";
import { buildContactExport, streamContactExport } from "./contact-export.builder";
import type { ErasedNumbersRepository } from "./erased-numbers.repository";
import { planErasure, type ErasureKind, type ErasureStep } from "./erasure-planner";
import { jobView, type LgpdJobRecord, type LgpdJobsRepository } from "./lgpd-jobs.repository";
import type { NumberHasher } from "./number-hash";
import type { ItemKey, PersonalDataRepository, RawItem } from "./personal-data.repository";

export const LGPD_EXPORT_JOB = "lgpd.export";
export const LGPD_ERASE_JOB = "lgpd.erase";
export type LgpdJobPayload = { jobId: string };

/** A finished export can be downloaded for a day, then its ZIP is deleted. */
export const EXPORT_KEEP_HOURS = 24;
/** Up to this many messages an export or erasure runs within the request; above it, as a background job. */
export const DEFAULT_SYNC_MAX_MESSAGES = 300;

export type ExportAnswer =
  | { kind: "zip"; filename: string; stream: ReadableStream<Uint8Array> }
  | { kind: "job"; job: LgpdJobView };
export type EraseAnswer = { kind: "done"; result: EraseResult } | { kind: "job"; job: LgpdJobView };

const OPEN_STATUSES = new Set(["open", "pending"]);

export const createLgpdService = (deps: {
  personalData: PersonalDataRepository;
  jobs: LgpdJobsRepository;
  erased: ErasedNumbersRepository;
  hashNumber: NumberHasher;
  media: MediaStore;
  jobQueue: JobQueue;
  audit: AuditRecorder;
  /** realtime to the company's admins (`company-{id}-lgpd`) */
  publishJob: (companyId: number, job: LgpdJobView) => Promise<unknown>;
  /** realtime: the contact is gone (the contacts list and open drawers drop it) */
  publishContactGone: (companyId: number, contactId: number) => Promise<unknown>;
  logger: Logger;
  clock: () => Date;
  syncMaxMessages?: number;
  /** told what was erased, before the contact is reported gone (the search index forgets them, docs/adr/0035) */
  afterErase?: Array<(companyId: number, ids: { messageIds: string[]; ticketIds: number[] }) => Promise<void>>;
}) => {
  const { personalData, jobs, erased, hashNumber, media, jobQueue, audit, publishJob, publishContactGone, logger, clock } = deps;
  const syncMax = deps.syncMaxMessages ?? DEFAULT_SYNC_MAX_MESSAGES;

  /** The contact, checked: it exists in the caller's company and is a person (not a group). */
  const personOf = async (companyId: number, contactId: number) => {
    const contact = await personalData.findContact(companyId, contactId);
    if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
    if (contact.isGroup) throw new AppError("ERR_CONTACT_IS_GROUP");
    return { contact, number: String(contact.number ?? ""), lid: typeof contact.lid === "string" && contact.lid ? contact.lid : null };
  };

  const newJob = async (auth: AuthContext, kind: "export" | "erase", contactId: number, who: { number: string | null; lid: string | null }): Promise<LgpdJobRecord> => {
    const job: LgpdJobRecord = { ...startingJob(randomUUID(), auth.companyId, clock()), kind, contactId, requestedBy: auth.user.id, number: who.number, lid: who.lid };
    await jobs.create(job);
    await jobQueue.enqueue({ type: "feature", companyId: auth.companyId, name: kind === "export" ? LGPD_EXPORT_JOB : LGPD_ERASE_JOB, payload: { jobId: job.id } });
    await publishJob(auth.companyId, jobView(job));
    return job;
  };

  /** Reports progress at most every 5 points (each report is a write and an event). */
  const progressReporter = (companyId: number, jobId: string) => {
    let last = 0;
    return async (done: number, total: number) => {
      const pct = Math.min(99, Math.floor((done / Math.max(1, total)) * 100));
      if (pct - last < 5) return;
      last = pct;
      const job = await jobs.update(companyId, jobId, { progress: pct }, clock());
      if (job) await publishJob(companyId, jobView(job));
    };
  };

  /** Applies an erasure plan in order (consecutive deletes as batches); `onStep` after each batch or update. */
  const applySteps = async (steps: ErasureStep[], onStep: (done: number) => Promise<void>) => {
    let done = 0;
    let deletes: ItemKey[] = [];
    const flush = async () => {
      if (!deletes.length) return;
      await personalData.deleteItems(deletes);
      done += deletes.length;
      deletes = [];
      await onStep(done);
    };
    for (const s of steps) {
      if (s.op === "delete") {
        deletes.push(s.key);
        if (deletes.length >= 25) await flush();
        continue;
      }
      await flush();
      if (s.op === "update") await personalData.updateItem(s.key, s.set, s.remove);
      else await personalData.updateItem(s.key, {}, [], s.add);
      await onStep(++done);
    }
    await flush();
  };

  /**
   * Erases everything about the person (erasure-planner.ts). The keyed hash of the number is stored first, so an
   * import running meanwhile already refuses the number; the contact item goes last, so a failed run can be
   * repeated. The contact's exports are deleted too.
   */
  const erase = async (companyId: number, contactId: number, who: { number: string; lid: string | null }, onProgress: (done: number, total: number) => Promise<void>) => {
    const data = await personalData.gather(companyId, contactId, who);
    const plan = planErasure(data);
    if (who.number) await erased.put(companyId, { hash: hashNumber(who.number), erasedAt: clock().toISOString(), optedOut: Boolean(data.optOut) });
    const total = plan.mediaKeys.length + plan.steps.length;
    let mediaDone = 0;
    for (const key of plan.mediaKeys) {
      await media.delete(key);
      await onProgress(++mediaDone, total);
    }
    await applySteps(plan.steps, (done) => onProgress(mediaDone + done, total));
    for (const job of await jobs.listByContact(companyId, contactId)) {
      if (job.kind === "export" && job.storageKey) await media.delete(job.storageKey);
      if (job.kind === "export") await jobs.dropFile(companyId, job.id);
    }
    const erasedIds = { messageIds: data.messages.map((m) => String(m.id)), ticketIds: data.tickets.map((t) => Number(t.id)) };
    for (const listener of deps.afterErase ?? []) await listener(companyId, erasedIds);
    await publishContactGone(companyId, contactId);
    return { ...plan.counts, media: plan.mediaKeys.length } as Record<ErasureKind | "media", number>;
  };

  const filenameOf = (contactId: number, at: Date) => `dados-contato-${contactId}-${at.toISOString().slice(0, 10)}.zip`;

  return {
    /** GET /contacts/{id}/export: the ZIP at once (small history) or a background job (large). */
    async exportContact(auth: AuthContext, contactId: number, ip: string): Promise<ExportAnswer> {
      const who = await personOf(auth.companyId, contactId);
      await audit.record({ companyId: auth.companyId, actor: auditActorOf(auth.user), ip, action: "export", record: { kind: "contact", id: contactId }, changes: {} });
      if ((await personalData.countMessages(auth.companyId, contactId)) > syncMax) {
        return { kind: "job", job: jobView(await newJob(auth, "export", contactId, { number: null, lid: null })) };
      }
      const data = await personalData.gather(auth.companyId, contactId, who);
      const now = clock();
      const stream = new ReadableStream<Uint8Array>({
        start: (controller) => {
          streamContactExport(data, { exportedAt: now.toISOString(), readMedia: (k) => media.get(k), sink: (chunk, final) => {
            controller.enqueue(chunk);
            if (final) controller.close();
          } }).catch((err: unknown) => {
            logger.error("lgpd: export stream failed", { companyId: auth.companyId, err: String(err) });
            controller.error(err);
          });
        },
      });
      return { kind: "zip", filename: filenameOf(contactId, now), stream };
    },

    /** The export job: builds the ZIP, stores it for a day, tells the admins where to download it. */
    async runExportJob(companyId: number, payload: LgpdJobPayload): Promise<void> {
      const job = await jobs.find(companyId, payload.jobId);
      if (!job || job.kind !== "export" || job.status !== "running") return;
      try {
        const contact = await personalData.findContact(companyId, job.contactId);
        if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
        const data = await personalData.gather(companyId, job.contactId, { number: String(contact.number ?? ""), lid: typeof contact.lid === "string" && contact.lid ? contact.lid : null });
        const now = clock();
        const bytes = await buildContactExport(data, { exportedAt: now.toISOString(), readMedia: (k) => media.get(k), onProgress: progressReporter(companyId, job.id) });
        const storageKey = `${companyId}/lgpd-exports/${job.id}/${filenameOf(job.contactId, now)}`;
        await media.put(storageKey, bytes, "application/zip");
        const expiresAt = new Date(clock().getTime() + EXPORT_KEEP_HOURS * 3600_000).toISOString();
        const done = await jobs.finishWithFile(companyId, job.id, { storageKey, downloadUrl: `/lgpd/jobs/${job.id}/download`, expiresAt }, clock());
        if (done) await publishJob(companyId, jobView(done));
      } catch (err) {
        logger.error("lgpd: export job failed", { companyId, jobId: job.id, err: String(err) });
        const failed = await jobs.update(companyId, job.id, { status: "failed", progress: 0, error: err instanceof AppError ? err.code : "ERR_INTERNAL", number: null, lid: null }, clock());
        if (failed) await publishJob(companyId, jobView(failed));
      }
    },

    /** GET /lgpd/jobs/{id}: a job of the caller's company. */
    async getJob(auth: AuthContext, jobId: string): Promise<LgpdJobView> {
      const job = await jobs.find(auth.companyId, jobId);
      if (!job) throw new AppError("ERR_NOT_FOUND");
      return jobView(job);
    },
    /** GET /lgpd/jobs/{id}/download: the finished export's ZIP, while it is kept. */
    async download(auth: AuthContext, jobId: string): Promise<{ filename: string; body: Uint8Array }> {
      const job = await jobs.find(auth.companyId, jobId);
      if (job?.kind !== "export" || !isDownloadable(job, clock())) throw new AppError("ERR_NOT_FOUND");
      const obj = await media.get(job.storageKey);
      if (!obj) throw new AppError("ERR_NOT_FOUND");
      return { filename: job.storageKey.split("/").pop() ?? "export.zip", body: obj.body };
    },

    /** DELETE /contacts/{id}?erase=true: at once (small history) or as a background job (large). */
    async eraseContact(auth: AuthContext, contactId: number, ip: string): Promise<EraseAnswer> {
      const who = await personOf(auth.companyId, contactId);
      const tickets = await personalData.ticketsOf(auth.companyId, contactId);
      if (tickets.some((t: RawItem) => OPEN_STATUSES.has(String(t.status)))) throw new AppError("ERR_CONTACT_HAS_OPEN_TICKET");
      // the request itself, before anything is erased (the entry names the record, never the person's data)
      await audit.record({ companyId: auth.companyId, actor: auditActorOf(auth.user), ip, action: "erase", record: { kind: "contact", id: contactId }, changes: {} });
      if ((await personalData.countMessages(auth.companyId, contactId)) > syncMax) {
        return { kind: "job", job: jobView(await newJob(auth, "erase", contactId, { number: who.number, lid: who.lid })) };
      }
      const removed = await erase(auth.companyId, contactId, who, async () => {});
      return { kind: "done", result: { erased: true, contactId, removed } };
    },

    /** The erasure job (its job item carries the number and LID until it finishes). */
    async runEraseJob(companyId: number, payload: LgpdJobPayload): Promise<void> {
      const job = await jobs.find(companyId, payload.jobId);
      if (!job || job.kind !== "erase" || job.status !== "running") return;
      try {
        await erase(companyId, job.contactId, { number: job.number ?? "", lid: job.lid }, progressReporter(companyId, job.id));
        const done = await jobs.update(companyId, job.id, { status: "done", progress: 100, error: null, number: null, lid: null }, clock());
        if (done) await publishJob(companyId, jobView(done));
      } catch (err) {
        // the job stays "running" with its number so the queue's retry repeats it (an erasure must complete)
        logger.error("lgpd: erase job failed, will be retried", { companyId, jobId: job.id, err: String(err) });
        throw err;
      }
    },

    /** Daily: deletes the ZIPs of exports that expired (today's and yesterday's index days). */
    async sweepExpiredExports(now: Date): Promise<number> {
      return sweepExpiredJobFiles(jobs, media, now);
    },
  };
};
export type LgpdService = ReturnType<typeof createLgpdService>;
