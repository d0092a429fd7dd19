import { PAGE_SIZE } from "@atende/shared/constants/business";
import type { QuickMessageEventData, QuickMessageListResponse, QuickMessageResponse } from "@atende/shared/contracts/http/quick-messages";
import type { QuickMessageInput } from "@atende/shared/domain/quick-messages/quick-message";
import { randomUUID } from "node:crypto";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { AppError } from "../../platform/errors";
import { checkAttachment } from "../../platform/http/upload-check";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import { type MediaStore, mediaKeyFor } from "../../platform/storage/media-store.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { Audience, RealtimeService } from "../realtime/realtime.service";
import type { QuickMessage, QuickMessageScope, QuickMessagesRepository } from "./quick-messages.repository";

export const toQuickMessageResponse = (q: QuickMessage): QuickMessageResponse => ({
  id: q.id,
  shortcode: q.shortcode,
  message: q.message,
  geral: q.geral,
  status: q.status,
  isMedia: Boolean(q.mediaPath),
  mediaPath: q.mediaPath,
  mediaName: q.mediaName,
  userId: q.userId,
  companyId: q.companyId,
  createdAt: q.createdAt,
  updatedAt: q.updatedAt,
});

const MAX_MEDIA_BYTES = 20 * 1024 * 1024;
/** The composer's suggestions list is bounded (a company has tens of quick messages, not thousands). */
const MAX_LIST = 1000;

const isAdmin = (auth: AuthContext) => auth.user.profile === "admin";
/** Spec 3 section 6: admin and supervisor edit/delete any message; a user only their own non-general ones. */
const canChange = (auth: AuthContext, q: QuickMessage) =>
  auth.user.profile === "admin" || auth.user.profile === "supervisor" || (q.userId === auth.user.id && !q.geral);
const canSee = (auth: AuthContext, q: QuickMessage) => q.geral || q.userId === auth.user.id || isAdmin(auth);
const ownScope = (auth: AuthContext): QuickMessageScope => ({ all: false, userId: auth.user.id });

export const createQuickMessagesService = (deps: {
  quickMessages: QuickMessagesRepository;
  realtime: RealtimeService;
  media: MediaStore;
  cursors: PageCursors;
  clock: () => Date;
}) => {
  const { quickMessages, realtime, media, cursors, clock } = deps;

  /** Not found also when the caller may not see it (a private message of someone else). */
  const find = async (auth: AuthContext, id: number) => {
    const q = await quickMessages.findById(auth.companyId, id);
    if (!q || !canSee(auth, q)) throw new AppError("ERR_NOT_FOUND");
    return q;
  };
  const findChangeable = async (auth: AuthContext, id: number) => {
    const q = await find(auth, id);
    if (!canChange(auth, q)) throw new AppError("ERR_NO_PERMISSION");
    return q;
  };
  /** General messages concern the whole company; a private one only its author. */
  const audienceOf = (q: QuickMessage): Audience => (q.geral ? { kind: "company" } : { kind: "users", userIds: [q.userId] });
  const publish = async (q: QuickMessage, data: QuickMessageEventData) => {
    await realtime.publish<QuickMessageEventData>(q.companyId, "quickmessage", data, audienceOf(q));
  };
  const save = async (auth: AuthContext, before: QuickMessage, changes: Partial<QuickMessage>) => {
    const next: QuickMessage = { ...before, ...changes, updatedAt: clock().toISOString() };
    await quickMessages.replace(before, next);
    // a message made private leaves the others' lists
    if (before.geral && !next.geral) await publish(before, { action: "delete", id: before.id });
    await publish(next, { action: "update", record: toQuickMessageResponse(next) });
    return toQuickMessageResponse(next);
  };

  return {
    /** GET /quick-messages: the page list, by shortcode; admins see every message, others the general ones and their own. */
    async list(auth: AuthContext, q: { searchParam: string; pageNumber: number }): Promise<QuickMessageListResponse> {
      const scope: QuickMessageScope = isAdmin(auth) ? { all: true } : ownScope(auth);
      const term = q.searchParam.trim().toLowerCase();
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["quick-messages", scope, term]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => quickMessages.page(auth.companyId, scope, term, PAGE_SIZE, cursor),
      });
      return { records: items.map(toQuickMessageResponse), count: await quickMessages.count(auth.companyId, scope, term), hasMore };
    },
    /** GET /quick-messages/list: what the caller may use in the composer (general + own, active ones). */
    async listUsable(auth: AuthContext): Promise<QuickMessageResponse[]> {
      return (await quickMessages.listVisible(auth.companyId, ownScope(auth), MAX_LIST)).filter((q) => q.status !== false).map(toQuickMessageResponse);
    },
    async get(auth: AuthContext, id: number): Promise<QuickMessageResponse> {
      return toQuickMessageResponse(await find(auth, id));
    },
    async create(auth: AuthContext, input: QuickMessageInput): Promise<QuickMessageResponse> {
      if (input.geral && !isAdmin(auth)) throw new AppError("ERR_NO_PERMISSION");
      const q = await quickMessages.create(
        {
          companyId: auth.companyId,
          userId: auth.user.id,
          shortcode: input.shortcode,
          message: input.message ?? "",
          geral: input.geral ?? false,
          status: input.status ?? true,
          mediaPath: null,
          mediaName: null,
        },
        clock(),
      );
      await publish(q, { action: "create", record: toQuickMessageResponse(q) });
      return toQuickMessageResponse(q);
    },
    async update(auth: AuthContext, id: number, input: Partial<QuickMessageInput>): Promise<QuickMessageResponse> {
      const before = await findChangeable(auth, id);
      if (input.geral !== undefined && input.geral !== before.geral && !isAdmin(auth)) throw new AppError("ERR_NO_PERMISSION");
      return save(auth, before, {
        ...(input.shortcode !== undefined ? { shortcode: input.shortcode } : {}),
        ...(input.message !== undefined ? { message: input.message } : {}),
        ...(input.geral !== undefined ? { geral: input.geral } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
      });
    },
    async remove(auth: AuthContext, id: number): Promise<void> {
      const q = await findChangeable(auth, id);
      await quickMessages.remove(q);
      await publish(q, { action: "delete", id: q.id });
    },
    /** POST /quick-messages/{id}/media-upload: the attachment sent with the message. */
    async uploadMedia(auth: AuthContext, id: number, file: UploadedFile): Promise<QuickMessageResponse> {
      const before = await findChangeable(auth, id);
      if (file.bytes.length > MAX_MEDIA_BYTES) throw new AppError("ERR_VALIDATION", { field: "file" });
      const checked = checkAttachment(file);
      const path = mediaKeyFor(auth.companyId, `quick-${id}-${randomUUID()}`, file.name);
      await media.put(path, checked.bytes, checked.type);
      return save(auth, before, { mediaPath: path, mediaName: file.name });
    },
    /** DELETE /quick-messages/{id}/media-upload */
    async removeMedia(auth: AuthContext, id: number): Promise<QuickMessageResponse> {
      const before = await findChangeable(auth, id);
      return save(auth, before, { mediaPath: null, mediaName: null });
    },
  };
};
export type QuickMessagesService = ReturnType<typeof createQuickMessagesService>;
