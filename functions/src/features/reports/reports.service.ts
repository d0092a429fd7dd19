import { randomUUID } from "node:crypto";
import type { ReportExportInput, ReportExportView, ReportFilters, ReportQuery, ReportResponse, ReportRow, CsatResponse } from "@atende/shared/contracts/http/reports";
import { REPORT_INLINE_EXPORT_ROWS, REPORT_MAX_RANGE_DAYS } from "@atende/shared/contracts/http/reports";
import type { TicketCycle } from "@atende/shared/contracts/http/tickets";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import { searchedDigits } from "@atende/shared/domain/format/phone";
import { addDays, startOfZonedDay, zonedDay } from "@atende/shared/domain/format/time-zone";
import { csatOf, cycleDurations, isAbandoned, slaResults, summarizeCycles } from "@atende/shared/domain/reports/cycle-metrics";
import { AppError } from "../../platform/errors";
import type { Logger } from "../../platform/logger";
import { isDownloadable, startingJob, sweepExpiredJobFiles } from "../../platform/jobs/progress-jobs.repository";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { MediaStore } from "../../platform/storage/media-store.port";
import { collectChunks, REPORT_MIME, reportFileWriter } from "./report-files";
import { exportView, type ReportExportRecord, type ReportExportsRepository } from "./report-exports.repository";

export const REPORT_EXPORT_JOB = "reports.export";
export type ReportExportJobPayload = { exportId: string };
/** A finished export can be downloaded for a day, then its file is deleted. */
export const REPORT_KEEP_HOURS = 24;
/** An export job reads the period this many days at a time (its memory is one window's cycles plus the file). */
const WINDOW_DAYS = 7;
/** Rows are built and written this many at a time (their contacts read together). */
const ROW_BATCH = 1000;
/** BatchGet calls (100 keys each) in flight at once when reading contacts. */
const CONTACT_READS = 4;

type Ref = { id: number; name: string };
/** What the report reads of the inbox (its facade, docs/adr/0023). */
export type ReportInbox = {
  listCyclesBetween(companyId: number, fromIso: string, toIso: string): Promise<TicketCycle[]>;
  contactsByIds(companyId: number, ids: number[]): Promise<Contact[]>;
  listTags(companyId: number): Promise<{ id: number; name: string; color: string }[]>;
};
/** The company's small lists (names of queues, users, connections) and its time zone. */
export type ReportDirectory = {
  queues(companyId: number): Promise<Ref[]>;
  users(companyId: number): Promise<Ref[]>;
  whatsapps(companyId: number): Promise<Ref[]>;
  timeZone(companyId: number): Promise<string>;
};

const normalize = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

export const createReportsService = (deps: {
  inbox: ReportInbox;
  directory: ReportDirectory;
  exports: ReportExportsRepository;
  media: MediaStore;
  jobQueue: JobQueue;
  /** realtime to the user who asked (`company-{id}-report`) */
  publishExport: (companyId: number, userId: number, view: ReportExportView) => Promise<unknown>;
  logger: Logger;
  clock: () => Date;
  inlineRows?: number;
}) => {
  const { inbox, directory, exports, media, jobQueue, logger, clock } = deps;
  const inlineRows = deps.inlineRows ?? REPORT_INLINE_EXPORT_ROWS;

  /** The period in the company's time zone: [dateFrom 00:00, dateTo 24:00); without dates, the current month so far. */
  const rangeOf = async (companyId: number, f: Pick<ReportFilters, "dateFrom" | "dateTo">) => {
    const tz = await directory.timeZone(companyId);
    const today = zonedDay(clock(), tz);
    const fromDay = f.dateFrom ?? (f.dateTo ? f.dateTo.slice(0, 8) + "01" : today.slice(0, 8) + "01");
    const toDay = f.dateTo ?? (f.dateFrom && f.dateFrom > today ? f.dateFrom : today);
    if (fromDay > toDay) throw new AppError("ERR_VALIDATION", { reason: "dateFrom after dateTo" });
    if ((Date.parse(toDay) - Date.parse(fromDay)) / 86_400_000 + 1 > REPORT_MAX_RANGE_DAYS) throw new AppError("ERR_VALIDATION", { reason: "range too long" });
    return { tz, fromDay, toDay, from: startOfZonedDay(fromDay, tz).toISOString(), to: startOfZonedDay(addDays(toDay, 1), tz).toISOString() };
  };

  const lookups = async (companyId: number) => {
    const [queues, users, whatsapps, tags] = await Promise.all([directory.queues(companyId), directory.users(companyId), directory.whatsapps(companyId), inbox.listTags(companyId)]);
    return {
      queues: new Map(queues.map((q) => [q.id, q])),
      users: new Map(users.map((u) => [u.id, u])),
      whatsapps: new Map(whatsapps.map((w) => [w.id, w])),
      tags: new Map(tags.map((t) => [t.id, t])),
    };
  };
  type Lookups = Awaited<ReturnType<typeof lookups>>;

  const pathOf = (c: TicketCycle) => c.queuePath ?? (c.queueId !== null ? [c.queueId] : []);
  const usersOf = (c: TicketCycle) => c.userIds ?? (c.userId !== null ? [c.userId] : []);
  const anyOf = (wanted: number[], have: number[]) => !wanted.length || have.some((x) => wanted.includes(x));

  /** Every filter that needs nothing but the cycle itself. */
  const cycleFilter = (f: ReportFilters) => (c: TicketCycle) => {
    if (!anyOf(f.queueIds, pathOf(c))) return false;
    if (f.whatsappIds.length && (c.whatsappId === null || !f.whatsappIds.includes(c.whatsappId))) return false;
    if (!anyOf(f.userIds, usersOf(c))) return false;
    if (!anyOf(f.tags, c.tagIds ?? [])) return false;
    if (f.status && c.status !== f.status) return false;
    if (f.rating === "rated" && !c.rating) return false;
    if (f.rating === "unrated" && c.rating) return false;
    if (f.rating && /^[1-3]$/.test(f.rating) && c.rating !== Number(f.rating)) return false;
    if (f.sla && slaResults(c.sla).overall !== f.sla) return false;
    if (f.abandoned === true && !isAbandoned(c)) return false;
    return true;
  };

  /** Contacts of a set of cycles: BatchGets of 100 keys, CONTACT_READS of them at a time. */
  const contactsOf = async (companyId: number, cycles: readonly TicketCycle[]) => {
    const ids = [...new Set(cycles.map((c) => c.contactId))];
    const found = new Map<number, Contact>();
    for (let i = 0; i < ids.length; i += 100 * CONTACT_READS) {
      const slices = Array.from({ length: CONTACT_READS }, (_, k) => ids.slice(i + k * 100, i + (k + 1) * 100)).filter((s) => s.length);
      for (const list of await Promise.all(slices.map((s) => inbox.contactsByIds(companyId, s)))) for (const c of list) found.set(c.id, c);
    }
    return found;
  };

  /**
   * The search text: protocol, ticket id, contact name (accents and case ignored) or number digits (only of a term
   * that is a number, `searchedDigits`).
   */
  const searchFilter = (term: string, contacts: Map<number, Contact>) => {
    const text = normalize(term.trim());
    const digits = searchedDigits(term);
    return (c: TicketCycle) => {
      if (c.protocol && c.protocol.includes(term.trim())) return true;
      if (digits && String(c.ticketId) === digits) return true;
      const contact = contacts.get(c.contactId);
      if (!contact) return false;
      if (normalize(contact.name ?? "").includes(text)) return true;
      return digits.length >= 3 && String(contact.number ?? "").includes(digits);
    };
  };

  const toRow = (c: TicketCycle, contacts: Map<number, Contact>, l: Lookups): ReportRow => {
    const ref = (m: Map<number, Ref>, id: number | null) => (id === null ? null : (m.get(id) ?? { id, name: `#${id}` }));
    const contact = contacts.get(c.contactId);
    return {
      ticketId: c.ticketId,
      protocol: c.protocol ?? null,
      status: c.status,
      contact: contact ? { id: contact.id, name: contact.name, number: String(contact.number ?? "") } : null,
      whatsapp: ref(l.whatsapps, c.whatsappId),
      queue: ref(l.queues, c.queueId),
      queuePath: pathOf(c).map((id) => ref(l.queues, id)!),
      user: ref(l.users, c.userId),
      users: usersOf(c).map((id) => ref(l.users, id)!),
      queuedAt: c.queuedAt,
      acceptedAt: c.acceptedAt,
      firstResponseAt: c.firstResponseAt ?? null,
      finishedAt: c.finishedAt,
      ...cycleDurations(c),
      abandoned: isAbandoned(c),
      rating: c.rating,
      ratingRequested: Boolean(c.ratingRequestedAt ?? c.ratedAt),
      sla: slaResults(c.sla),
      tags: (c.tagIds ?? []).flatMap((id) => {
        const t = l.tags.get(id);
        return t ? [{ id: t.id, name: t.name, color: t.color }] : [];
      }),
    };
  };

  /** The period's cycles with every filter applied (contacts read only when the search needs them). */
  const filtered = async (companyId: number, f: ReportFilters, from: string, to: string) => {
    let cycles = (await inbox.listCyclesBetween(companyId, from, to)).filter(cycleFilter(f));
    let contacts: Map<number, Contact> | null = null;
    if (f.searchParam.trim()) {
      contacts = await contactsOf(companyId, cycles);
      cycles = cycles.filter(searchFilter(f.searchParam, contacts));
    }
    return { cycles, contacts };
  };

  const newestFirst = (a: TicketCycle, b: TicketCycle) => b.queuedAt.localeCompare(a.queuedAt) || b.ticketId - a.ticketId;

  /** Writes the export's file: the period a window at a time, rows oldest first. */
  const writeExport = async (job: ReportExportRecord, onProgress: (percent: number, rows: number) => Promise<void>) => {
    const companyId = job.companyId;
    const f = job.filters;
    const range = await rangeOf(companyId, f);
    const l = await lookups(companyId);
    const out = collectChunks();
    const writer = reportFileWriter(f.format, out.sink, { locale: f.locale ?? "pt", timeZone: range.tz });
    const totalDays = (Date.parse(range.toDay) - Date.parse(range.fromDay)) / 86_400_000 + 1;
    let rows = 0;
    for (let day = range.fromDay; day <= range.toDay; day = addDays(day, WINDOW_DAYS)) {
      const lastDay = addDays(day, WINDOW_DAYS - 1) < range.toDay ? addDays(day, WINDOW_DAYS - 1) : range.toDay;
      const from = startOfZonedDay(day, range.tz).toISOString();
      const to = startOfZonedDay(addDays(lastDay, 1), range.tz).toISOString();
      const { cycles, contacts } = await filtered(companyId, f, from, to);
      cycles.sort((a, b) => a.queuedAt.localeCompare(b.queuedAt) || a.ticketId - b.ticketId);
      for (let i = 0; i < cycles.length; i += ROW_BATCH) {
        const batch = cycles.slice(i, i + ROW_BATCH);
        const people = contacts ?? (await contactsOf(companyId, batch));
        writer.rows(batch.map((c) => toRow(c, people, l)));
      }
      rows += cycles.length;
      const done = (Date.parse(lastDay) - Date.parse(range.fromDay)) / 86_400_000 + 1;
      if (lastDay < range.toDay) await onProgress(Math.min(99, Math.floor((done / totalDays) * 100)), rows);
    }
    writer.end();
    return { bytes: out.bytes(), rows, range };
  };

  const fileName = (job: ReportExportRecord, range: { fromDay: string; toDay: string }) => `relatorio-${range.fromDay}-${range.toDay}.${job.format}`;

  const store = async (job: ReportExportRecord, written: Awaited<ReturnType<typeof writeExport>>) => {
    const storageKey = `${job.companyId}/report-exports/${job.id}/${fileName(job, written.range)}`;
    await media.put(storageKey, written.bytes, REPORT_MIME[job.format]);
    const expiresAt = new Date(clock().getTime() + REPORT_KEEP_HOURS * 3600_000).toISOString();
    return exports.finishWithFile(job.companyId, job.id, { storageKey, downloadUrl: `/reports/exports/${job.id}/download`, expiresAt, rows: written.rows }, clock());
  };

  return {
    rangeOf,

    /** GET /ticket/reports: one row per attention cycle of the period, newest first, and the figures of the whole set. */
    async list(auth: AuthContext, q: ReportQuery): Promise<ReportResponse> {
      const range = await rangeOf(auth.companyId, q);
      const { cycles, contacts } = await filtered(auth.companyId, q, range.from, range.to);
      cycles.sort(newestFirst);
      const page = cycles.slice((q.pageNumber - 1) * q.pageSize, q.pageNumber * q.pageSize);
      const [l, people] = await Promise.all([lookups(auth.companyId), contacts ? Promise.resolve(contacts) : contactsOf(auth.companyId, page)]);
      return { tickets: page.map((c) => toRow(c, people, l)), totalTickets: cycles.length, summary: summarizeCycles(cycles) };
    },

    /** GET /reports/csat: score and response rate, in total, per attendant (owner at close) and per queue. */
    async csat(auth: AuthContext, f: ReportFilters): Promise<CsatResponse> {
      const range = await rangeOf(auth.companyId, f);
      const { cycles } = await filtered(auth.companyId, f, range.from, range.to);
      const l = await lookups(auth.companyId);
      const group = (keyOf: (c: TicketCycle) => number | null, names: Map<number, Ref>) => {
        const groups = new Map<number | null, TicketCycle[]>();
        for (const c of cycles) groups.set(keyOf(c), [...(groups.get(keyOf(c)) ?? []), c]);
        return [...groups]
          .map(([id, list]) => ({ id, name: id === null ? "" : (names.get(id)?.name ?? `#${id}`), ...csatOf(list) }))
          .filter((g) => g.requests > 0 || g.answers > 0)
          .sort((a, b) => (a.id === null ? 1 : b.id === null ? -1 : a.name.localeCompare(b.name)));
      };
      return { total: csatOf(cycles), byUser: group((c) => c.userId, l.users), byQueue: group((c) => c.queueId, l.queues) };
    },

    /**
     * POST /reports/exports: a CSV or XLSX of the filtered report. Up to `inlineRows` rows it is written at once
     * (the answer is the finished export); above, the `reports.export` job writes it and reports progress.
     * Either way the file is kept for a day behind GET /reports/exports/{id}/download.
     */
    async startExport(auth: AuthContext, input: ReportExportInput): Promise<ReportExportView> {
      const range = await rangeOf(auth.companyId, input);
      const job: ReportExportRecord = { ...startingJob(randomUUID(), auth.companyId, clock()), format: input.format, rows: 0, requestedBy: auth.user.id, filters: input };
      // the size decides: counting reads only the period's cycle items (no contact, no ticket)
      const count = (await inbox.listCyclesBetween(auth.companyId, range.from, range.to)).filter(cycleFilter(input)).length;
      await exports.create(job);
      if (count <= inlineRows) {
        const done = await store(job, await writeExport(job, async () => {}));
        return exportView(done ?? job);
      }
      await jobQueue.enqueue({ type: "feature", companyId: auth.companyId, name: REPORT_EXPORT_JOB, payload: { exportId: job.id } });
      return exportView(job);
    },

    /** The `reports.export` job: writes the file window by window, publishing progress, then stores it for a day. */
    async runExportJob(companyId: number, payload: ReportExportJobPayload): Promise<void> {
      const job = await exports.find(companyId, String(payload.exportId));
      if (!job || job.status !== "running") return;
      const publish = (r: ReportExportRecord | null) => (r ? deps.publishExport(companyId, r.requestedBy, exportView(r)) : undefined);
      try {
        const written = await writeExport(job, async (percent, rows) => void (await publish(await exports.update(companyId, job.id, { progress: percent, rows }, clock()))));
        await publish(await store(job, written));
      } catch (err) {
        logger.error("reports: export job failed", { companyId, exportId: job.id, err: String(err) });
        await publish(await exports.update(companyId, job.id, { status: "failed", error: err instanceof AppError ? err.code : "ERR_INTERNAL" }, clock()));
      }
    },

    /** GET /reports/exports/{id}: an export of the caller's company. */
    async getExport(auth: AuthContext, id: string): Promise<ReportExportView> {
      const job = await exports.find(auth.companyId, id);
      if (!job) throw new AppError("ERR_NOT_FOUND");
      return exportView(job);
    },

    /** GET /reports/exports/{id}/download: the finished file while it is kept (a day). */
    async download(auth: AuthContext, id: string): Promise<{ filename: string; mimetype: string; body: Uint8Array }> {
      const job = await exports.find(auth.companyId, id);
      if (!isDownloadable(job, clock())) throw new AppError("ERR_NOT_FOUND");
      const obj = await media.get(job.storageKey);
      if (!obj) throw new AppError("ERR_NOT_FOUND");
      return { filename: job.storageKey.split("/").pop() ?? `relatorio.${job.format}`, mimetype: REPORT_MIME[job.format], body: obj.body };
    },

    /** Daily (minute tick, once a day): deletes the files of exports that expired (today's and yesterday's index days). */
    async sweepExpired(now: Date): Promise<number> {
      return sweepExpiredJobFiles(exports, media, now, { error: "expired" });
    },
  };
};
export type ReportsService = ReturnType<typeof createReportsService>;
