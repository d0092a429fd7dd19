import { randomUUID } from "node:crypto";
import { PAGE_SIZE } from "@atende/shared/constants/business";
import { instantOf } from "@atende/shared/domain/format/time-zone";
import type { ScheduleEventData, ScheduleListResponse, ScheduleMediaResponse, ScheduleResponse } from "@atende/shared/contracts/http/schedules";
import { isFutureSendAt, type ScheduleInput, type ScheduleUpdateInput } from "@atende/shared/domain/schedules/schedule";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { AppError } from "../../platform/errors";
import { checkAttachment } from "../../platform/http/upload-check";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import { type MediaStore, mediaKeyFor } from "../../platform/storage/media-store.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { InboxService } from "../inbox/inbox.service";
import type { RealtimeService } from "../realtime/realtime.service";
import type { UsersService } from "../users/users.service";
import type { WhatsappsService } from "../whatsapps/whatsapps.service";
import type { Schedule } from "@atende/shared/domain/schedules/schedule";
import type { TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import type { ScheduleScope, SchedulesRepository } from "./schedules.repository";

/** An attachment of a scheduled message: what WhatsApp takes for a document. */
const MAX_SCHEDULE_MEDIA_BYTES = 64 * 1024 * 1024;

export const toScheduleResponse = (s: Schedule): ScheduleResponse => ({
  id: s.id,
  body: s.body,
  sendAt: s.sendAt,
  sentAt: s.sentAt,
  status: s.status,
  errorMessage: s.errorMessage,
  contactId: s.contactId,
  contact: { id: s.contactId, name: s.contactName, number: s.contactNumber },
  whatsappId: s.whatsappId,
  userId: s.userId,
  user: { id: s.userId, name: s.userName },
  ticketId: s.ticketId,
  mediaPath: s.mediaPath,
  mediaName: s.mediaName,
  template: s.template ?? null,
  companyId: s.companyId,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

/** Admins see and manage every schedule of the company; supervisors and attendants only their own. */
const isAdmin = (auth: AuthContext) => auth.user.profile === "admin";
const scopeOf = (auth: AuthContext): ScheduleScope => (isAdmin(auth) ? { all: true } : { all: false, userId: auth.user.id });

export const createSchedulesService = (deps: {
  schedules: SchedulesRepository;
  contacts: { get: InboxService["getContact"] };
  whatsapps: Pick<WhatsappsService, "show">;
  users: Pick<UsersService, "listRecordsByCompany">;
  realtime: RealtimeService;
  media: Pick<MediaStore, "put">;
  cursors: PageCursors;
  clock: () => Date;
  /** the company's time zone: a wall-clock `sendAt` (the spec's `YYYY-MM-DD HH:mm:ss`) is read in it */
  timeZoneOf: (companyId: number) => Promise<string>;
  /**
   * The connection's template rules (the Cloud API feature): a synced, approved template with every variable valued
   * on a Cloud API connection, its preview; a QR connection takes none (ERR_CHANNEL_UNSUPPORTED). Absent: no templates.
   */
  templates?: { prepareTemplate(companyId: number, whatsappId: number, template: TemplateSend): Promise<{ body: string }> };
}) => {
  const { schedules, contacts, whatsapps, users, realtime, media, cursors, clock, timeZoneOf } = deps;

  /** Not found also when the caller may not see it (someone else's schedule, another company's id). */
  const find = async (auth: AuthContext, id: number) => {
    const s = await schedules.findById(auth.companyId, id);
    if (!s || (!isAdmin(auth) && s.userId !== auth.user.id)) throw new AppError("ERR_NOT_FOUND");
    return s;
  };

  const assertFuture = (sendAt: string) => {
    if (!isFutureSendAt(sendAt, clock())) throw new AppError("ERR_VALIDATION", { field: "sendAt", reason: "SCHEDULE_IN_PAST" });
  };

  /** The contact and connection of the caller's company (another company's ids are not found). */
  const resolveTargets = async (auth: AuthContext, input: { contactId?: number; whatsappId?: number | null }) => {
    const contact = input.contactId !== undefined ? await contacts.get(auth, input.contactId) : undefined;
    if (input.whatsappId !== undefined && input.whatsappId !== null) await whatsapps.show(auth, input.whatsappId);
    return contact ? { contactId: contact.id, contactName: contact.name, contactNumber: contact.number } : {};
  };

  /**
   * The message a schedule will send, checked: free text must not be empty; a template needs a chosen connection
   * (templates belong to one number), no attachment (a template message carries none of ours) and must be sendable
   * there now (synced, approved, every variable valued). Answers the text to store: the template's preview, so the
   * list, the calendar and the search show what the customer will read.
   */
  const messageOf = async (companyId: number, s: { whatsappId: number | null; template: TemplateSend | null; body: string; mediaPath: string | null }) => {
    if (!s.template) {
      if (!s.body.trim()) throw new AppError("ERR_VALIDATION", { field: "body" });
      return s.body;
    }
    if (s.whatsappId === null) throw new AppError("ERR_VALIDATION", { field: "whatsappId", reason: "TEMPLATE_NEEDS_CONNECTION" });
    if (!deps.templates) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { field: "template" });
    const prepared = await deps.templates.prepareTemplate(companyId, s.whatsappId, s.template);
    if (s.mediaPath) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { field: "media" });
    return prepared.body;
  };

  /** Who hears about a schedule: the company's admins and its author, each once. */
  const publish = async (s: Schedule, data: ScheduleEventData) => {
    const admins = (await users.listRecordsByCompany(s.companyId)).filter((u) => u.profile === "admin").map((u) => u.id);
    await realtime.publish<ScheduleEventData>(s.companyId, "schedule", data, { kind: "users", userIds: [...new Set([...admins, s.userId])] });
  };

  /** Sets or clears the attachment (a conditional write on the schedule's version, like an edit). */
  const saveMedia = async (before: Schedule & { version: number; claimUntil?: unknown }, media: Pick<Schedule, "mediaPath" | "mediaName">) => {
    const { version, claimUntil: _claim, ...current } = before;
    const next: Schedule = { ...current, ...media, updatedAt: clock().toISOString() };
    await schedules.replace(next, version);
    await publish(next, { action: "update", schedule: toScheduleResponse(next) });
    return next;
  };

  return {
    publish,

    /** GET /schedules/: in send-time order; `from`/`to` bound the send time (the calendar asks for one month). */
    async list(auth: AuthContext, q: { searchParam: string; pageNumber: number; from?: string; to?: string }): Promise<ScheduleListResponse> {
      const scope = scopeOf(auth);
      const filter = { term: q.searchParam.trim().toLowerCase(), from: q.from, to: q.to };
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["schedules", scope, filter]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => schedules.page(auth.companyId, scope, filter, PAGE_SIZE, cursor),
      });
      return { schedules: items.map(toScheduleResponse), hasMore };
    },

    async get(auth: AuthContext, id: number): Promise<ScheduleResponse> {
      return toScheduleResponse(await find(auth, id));
    },

    async create(auth: AuthContext, input: ScheduleInput): Promise<ScheduleResponse> {
      const sendAt = instantOf(input.sendAt, await timeZoneOf(auth.companyId));
      assertFuture(sendAt);
      const target = await resolveTargets(auth, input);
      const template = input.template ?? null;
      const body = await messageOf(auth.companyId, { whatsappId: input.whatsappId ?? null, template, body: input.body ?? "", mediaPath: null });
      const s = await schedules.create(
        {
          companyId: auth.companyId,
          userId: auth.user.id,
          userName: auth.user.name,
          contactId: input.contactId,
          contactName: "",
          contactNumber: "",
          ...target,
          whatsappId: input.whatsappId ?? null,
          body,
          sendAt,
          mediaPath: null,
          mediaName: null,
          template,
        },
        clock(),
      );
      await publish(s, { action: "create", schedule: toScheduleResponse(s) });
      return toScheduleResponse(s);
    },

    /**
     * PUT /schedules/{id}: a pending schedule, or a failed one (which goes back to pending: a new attempt). A sent
     * one is history and cannot change. The resulting send time must be in the future.
     */
    async update(auth: AuthContext, id: number, input: ScheduleUpdateInput): Promise<ScheduleResponse> {
      const before = await find(auth, id);
      if (before.status === "ENVIADA") throw new AppError("ERR_NO_PERMISSION", { reason: "SCHEDULE_ALREADY_SENT" });
      const sendAt = input.sendAt !== undefined ? instantOf(input.sendAt, await timeZoneOf(auth.companyId)) : before.sendAt;
      assertFuture(sendAt);
      const target = await resolveTargets(auth, input);
      const { version, claimUntil: _claim, ...current } = before;
      // the message as it will be after the edit, checked whole (a template is checked again: it may have been paused)
      const whatsappId = input.whatsappId !== undefined ? input.whatsappId : current.whatsappId;
      const template = input.template !== undefined ? input.template : (current.template ?? null);
      const body = await messageOf(auth.companyId, { whatsappId, template, body: input.body ?? current.body, mediaPath: current.mediaPath });
      const next: Schedule = {
        ...current,
        ...target,
        body,
        whatsappId,
        template,
        sendAt,
        status: "PENDENTE",
        errorMessage: null,
        sentAt: null,
        ticketId: null,
        updatedAt: clock().toISOString(),
      };
      await schedules.replace(next, version);
      await publish(next, { action: "update", schedule: toScheduleResponse(next) });
      return toScheduleResponse(next);
    },

    /**
     * POST /schedules/{id}/media-upload: the attachment sent with the message (replaces an earlier one). Like an
     * edit, only a schedule not sent yet; the answer is the schedule plus the reference's `mensagem`.
     */
    async uploadMedia(auth: AuthContext, id: number, file: UploadedFile): Promise<ScheduleMediaResponse> {
      const before = await find(auth, id);
      if (before.status === "ENVIADA") throw new AppError("ERR_NO_PERMISSION", { reason: "SCHEDULE_ALREADY_SENT" });
      // a template message carries no attachment of ours (its media header, if any, is part of the template)
      if (before.template) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { field: "template" });
      if (file.bytes.length > MAX_SCHEDULE_MEDIA_BYTES) throw new AppError("ERR_VALIDATION", { field: "file" });
      // typed by its content, as every other attachment (refuses empty, unknown and active files)
      const checked = checkAttachment(file);
      const name = file.name.replace(/[\\/]/g, "_").slice(0, 200) || "arquivo";
      const mediaPath = mediaKeyFor(auth.companyId, `schedule-${id}-${randomUUID()}`, name);
      await media.put(mediaPath, checked.bytes, checked.type);
      const saved = await saveMedia(before, { mediaPath, mediaName: name });
      return { ...toScheduleResponse(saved), mensagem: "Arquivo Anexado" };
    },

    /** DELETE /schedules/{id}/media-upload: the message goes without an attachment. */
    async removeMedia(auth: AuthContext, id: number): Promise<ScheduleMediaResponse> {
      const before = await find(auth, id);
      if (before.status === "ENVIADA") throw new AppError("ERR_NO_PERMISSION", { reason: "SCHEDULE_ALREADY_SENT" });
      const saved = await saveMedia(before, { mediaPath: null, mediaName: null });
      return { ...toScheduleResponse(saved), mensagem: "Arquivo Excluído" };
    },

    async remove(auth: AuthContext, id: number): Promise<void> {
      const s = await find(auth, id);
      await schedules.remove(s);
      await publish(s, { action: "delete", scheduleId: s.id });
    },
  };
};
export type SchedulesService = ReturnType<typeof createSchedulesService>;
