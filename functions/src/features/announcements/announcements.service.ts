import { randomUUID } from "node:crypto";
import { PAGE_SIZE } from "@atende/shared/constants/business";
import type { AnnouncementEventData, AnnouncementListResponse, AnnouncementResponse } from "@atende/shared/contracts/http/announcements";
import { type AnnouncementInput, DEFAULT_ANNOUNCEMENT_PRIORITY, isAnnouncementImageName } from "@atende/shared/domain/announcements/announcement";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { AppError } from "../../platform/errors";
import { checkUpload } from "../../platform/http/upload-check";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { MediaObject, MediaStore } from "../../platform/storage/media-store.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { RealtimeService } from "../realtime/realtime.service";
import type { Announcement, AnnouncementsRepository } from "./announcements.repository";

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The `feature` job that carries one announcement event to every company, a page of companies per job. */
export const ANNOUNCEMENT_FANOUT_JOB = "announcement.fanout";
const COMPANIES_PER_JOB = 100;

/** One page of company ids (the container adapts the companies listing; this feature never reads it directly). */
export type CompanyIdPage = (limit: number, cursor?: string) => Promise<{ ids: number[]; cursor?: string }>;
export type FanOutPayload = { data: AnnouncementEventData; cursor?: string };

export const toAnnouncementResponse = (a: Announcement): AnnouncementResponse => ({
  id: a.id,
  title: a.title,
  text: a.text,
  priority: a.priority,
  status: a.status,
  mediaPath: a.mediaPath,
  mediaName: a.mediaName,
  // the version in the query lets the browser cache one image per upload
  mediaUrl: a.mediaPath ? `/api/announcements/${a.id}/media?v=${encodeURIComponent(a.mediaPath.split("/").pop() ?? "")}` : null,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});

/** Announcements (spec 3): written by super users, read by every user of every company (inactive ones: super only). */
export const createAnnouncementsService = (deps: {
  announcements: AnnouncementsRepository;
  realtime: RealtimeService;
  media: MediaStore;
  jobs: JobQueue;
  cursors: PageCursors;
  companyIds: CompanyIdPage;
  clock: () => Date;
  /** told per company when an active announcement is created (Web Push, docs/adr/0097), from the fan-out job */
  onPublished?: Array<(companyId: number, a: { id: number; title: string }) => Promise<void>>;
}) => {
  const { announcements, realtime, media, jobs, cursors, companyIds, clock } = deps;

  const assertSuper = (auth: AuthContext) => {
    if (!auth.user.super) throw new AppError("ERR_NO_PERMISSION");
  };
  /** Not found also for an inactive announcement asked for by a non-super user. */
  const find = async (auth: AuthContext, id: number) => {
    const a = await announcements.findById(id);
    if (!a || (!a.status && !auth.user.super)) throw new AppError("ERR_NOT_FOUND");
    return a;
  };
  /**
   * The realtime publisher reaches one company's sockets; an announcement concerns every company. The request
   * only enqueues a job; the job publishes to a page of companies and enqueues the next page (no Scan, bounded work).
   */
  const broadcast = async (auth: AuthContext, data: AnnouncementEventData) => {
    await jobs.enqueue({ type: "feature", companyId: auth.companyId, name: ANNOUNCEMENT_FANOUT_JOB, payload: { data } satisfies FanOutPayload });
  };
  /** Inactive announcements are private to the operators: everyone else drops them. */
  const eventOf = (a: Announcement, action: "create" | "update"): AnnouncementEventData =>
    a.status ? { action, record: toAnnouncementResponse(a) } : { action: "delete", id: a.id };
  const save = async (auth: AuthContext, before: Announcement, changes: Partial<Announcement>) => {
    const next: Announcement = { ...before, ...changes, updatedAt: clock().toISOString() };
    await announcements.replace(next);
    await broadcast(auth, eventOf(next, "update"));
    return toAnnouncementResponse(next);
  };

  return {
    /** GET /announcements: newest first, searchable by title; non-super users see only active ones. */
    async list(auth: AuthContext, q: { searchParam: string; pageNumber: number }): Promise<AnnouncementListResponse> {
      const onlyActive = !auth.user.super;
      const term = q.searchParam.trim().toLowerCase();
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["announcements", onlyActive, term]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => announcements.page(onlyActive, term, PAGE_SIZE, cursor),
      });
      return { records: items.map(toAnnouncementResponse), hasMore };
    },
    async get(auth: AuthContext, id: number): Promise<AnnouncementResponse> {
      return toAnnouncementResponse(await find(auth, id));
    },
    async create(auth: AuthContext, input: AnnouncementInput): Promise<AnnouncementResponse> {
      assertSuper(auth);
      const a = await announcements.create(
        { title: input.title, text: input.text, priority: input.priority ?? DEFAULT_ANNOUNCEMENT_PRIORITY, status: input.status ?? true, mediaPath: null, mediaName: null },
        clock(),
      );
      await broadcast(auth, eventOf(a, "create"));
      return toAnnouncementResponse(a);
    },
    async update(auth: AuthContext, id: number, input: Partial<AnnouncementInput>): Promise<AnnouncementResponse> {
      assertSuper(auth);
      const before = await find(auth, id);
      return save(auth, before, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
    },
    async remove(auth: AuthContext, id: number): Promise<void> {
      assertSuper(auth);
      const a = await find(auth, id);
      await announcements.remove(a.id);
      await broadcast(auth, { action: "delete", id: a.id });
    },
    /** POST /announcements/{id}/media-upload: one image (.png, .jpg, .jpeg, checked by name and content). */
    async uploadMedia(auth: AuthContext, id: number, file: UploadedFile): Promise<AnnouncementResponse> {
      assertSuper(auth);
      const before = await find(auth, id);
      if (file.bytes.length > MAX_IMAGE_BYTES) throw new AppError("ERR_VALIDATION", { field: "file" });
      const type = checkUpload(file, "announcement").sniffed.mime;
      if (!isAnnouncementImageName(file.name)) throw new AppError("ERR_VALIDATION", { field: "file", reason: "png, jpg, jpeg" });
      const path = `platform/announcements/${id}/${randomUUID()}.${type === "image/png" ? "png" : "jpg"}`;
      await media.put(path, file.bytes, type);
      return save(auth, before, { mediaPath: path, mediaName: file.name.replace(/\s+/g, "_") });
    },
    /** DELETE /announcements/{id}/media-upload */
    async removeMedia(auth: AuthContext, id: number): Promise<AnnouncementResponse> {
      assertSuper(auth);
      const before = await find(auth, id);
      return save(auth, before, { mediaPath: null, mediaName: null });
    },
    /** GET /announcements/{id}/media: the image, for everyone who may see the announcement. */
    async media(auth: AuthContext, id: number): Promise<MediaObject> {
      const a = await find(auth, id);
      const obj = a.mediaPath ? await media.get(a.mediaPath) : null;
      if (!obj) throw new AppError("ERR_NOT_FOUND");
      return obj;
    },
    /** The fan-out job: publishes to one page of companies, then enqueues the next page. */
    async fanOut(originCompanyId: number, payload: FanOutPayload): Promise<void> {
      const page = await companyIds(COMPANIES_PER_JOB, payload.cursor);
      await Promise.all(page.ids.map((companyId) => realtime.publish<AnnouncementEventData>(companyId, "announcement", payload.data)));
      const created = payload.data.action === "create" ? payload.data.record : null;
      if (created) for (const companyId of page.ids) for (const fn of deps.onPublished ?? []) await fn(companyId, { id: created.id, title: created.title });
      if (page.cursor) {
        await jobs.enqueue({ type: "feature", companyId: originCompanyId, name: ANNOUNCEMENT_FANOUT_JOB, payload: { data: payload.data, cursor: page.cursor } satisfies FanOutPayload });
      }
    },
  };
};
export type AnnouncementsService = ReturnType<typeof createAnnouncementsService>;
