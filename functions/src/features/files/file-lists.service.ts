import { randomUUID } from "node:crypto";
import { PAGE_SIZE } from "@atende/shared/constants/business";
import type { FileListEventData, FileListPageResponse, FileListResponse } from "@atende/shared/contracts/http/files";
import { type FileListInput, type FileMediaType, fileMediaTypeOf } from "@atende/shared/domain/files/file-list";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { AppError } from "../../platform/errors";
import { checkAttachment } from "../../platform/http/upload-check";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import { type MediaStore, mediaKeyFor } from "../../platform/storage/media-store.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { RealtimeService } from "../realtime/realtime.service";
import type { FileList, FileListOption, FileListsRepository } from "./file-lists.repository";

const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const toFileListResponse = (f: FileList): FileListResponse => ({
  id: f.id,
  name: f.name,
  message: f.message,
  // served by GET /media/{key}, which checks the key's company against the caller's
  options: f.options.map((o) => ({ ...o, mediaUrl: o.path ? `/api/media/${o.path}` : null })),
  companyId: f.companyId,
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
});

/** One file attached to an option of a list (POST /files/uploadList/{id}): `optionId` names the option; the media type comes from the file name. */
export type OptionUpload = { optionId: number; file: UploadedFile };

/**
 * The options a client sent, merged with the stored ones: an option with a known id keeps its uploaded file;
 * the others get new ids. File paths are never taken from the client (they could name another company's media).
 */
const mergeOptions = (before: FileListOption[], input: FileListInput["options"]): FileListOption[] => {
  if (!input) return before;
  const known = new Map(before.map((o) => [o.id, o]));
  let nextOptionId = Math.max(0, ...before.map((o) => o.id)) + 1;
  return input.map((o) => {
    const kept = o.id !== undefined ? known.get(o.id) : undefined;
    if (kept) {
      known.delete(kept.id); // the same id twice: the second is a new option
      return { ...kept, name: o.name };
    }
    return { id: nextOptionId++, name: o.name, path: null, mediaType: null, mediaName: null };
  });
};

/** File lists (spec 3): named sets of files with a message, per company, managed by admins. */
export const createFileListsService = (deps: { fileLists: FileListsRepository; realtime: RealtimeService; media: MediaStore; cursors: PageCursors; clock: () => Date }) => {
  const { fileLists, realtime, media, cursors, clock } = deps;

  const find = async (auth: AuthContext, id: number) => {
    const f = await fileLists.findById(auth.companyId, id);
    if (!f) throw new AppError("ERR_NOT_FOUND");
    return f;
  };
  const publish = (companyId: number, data: FileListEventData) => realtime.publish<FileListEventData>(companyId, "file", data, { kind: "admins" });
  const save = async (next: FileList) => {
    if (!(await fileLists.replace(next))) throw new AppError("ERR_NOT_FOUND");
    const response = toFileListResponse(next);
    await publish(next.companyId, { action: "update", fileList: response });
    return response;
  };

  return {
    /** GET /files: by name A-Z, searchable by name. */
    async list(auth: AuthContext, q: { searchParam: string; pageNumber: number }): Promise<FileListPageResponse> {
      const term = q.searchParam.trim().toLowerCase();
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["files", term]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => fileLists.page(auth.companyId, term, PAGE_SIZE, cursor),
      });
      return { files: items.map(toFileListResponse), hasMore };
    },
    async get(auth: AuthContext, id: number): Promise<FileListResponse> {
      return toFileListResponse(await find(auth, id));
    },
    async create(auth: AuthContext, input: FileListInput): Promise<FileListResponse> {
      const f = await fileLists.create({ companyId: auth.companyId, name: input.name, message: input.message, options: mergeOptions([], input.options ?? []) }, clock());
      const response = toFileListResponse(f);
      await publish(f.companyId, { action: "create", fileList: response });
      return response;
    },
    async update(auth: AuthContext, id: number, input: FileListInput): Promise<FileListResponse> {
      const before = await find(auth, id);
      return save({ ...before, name: input.name, message: input.message, options: mergeOptions(before.options, input.options), updatedAt: clock().toISOString() });
    },
    async remove(auth: AuthContext, id: number): Promise<void> {
      const f = await find(auth, id);
      await fileLists.remove(f.companyId, f.id);
      await publish(f.companyId, { action: "delete", fileId: f.id });
    },
    /** POST /files/uploadList/{id}: stores each file under the company's media keys and points its option at it. */
    async uploadOptionFiles(auth: AuthContext, id: number, uploads: OptionUpload[]): Promise<FileListResponse> {
      const before = await find(auth, id);
      if (uploads.length === 0) throw new AppError("ERR_VALIDATION", { field: "files" });
      const checked = uploads.map((u) => {
        if (!before.options.some((o) => o.id === u.optionId)) throw new AppError("ERR_VALIDATION", { field: "id" });
        if (u.file.bytes.length > MAX_FILE_BYTES) throw new AppError("ERR_VALIDATION", { field: "files" });
        const file = checkAttachment(u.file, "files");
        const mediaType: FileMediaType | null = fileMediaTypeOf(u.file.name);
        if (!mediaType) throw new AppError("ERR_VALIDATION", { field: "files", reason: "type" });
        // the name's kind must be what the content is: a "foto.png" that is really a PDF is not sent as an image
        const av = (k: string) => k === "audio" || k === "video";
        if (mediaType !== "document" && file.sniffed.kind !== mediaType && !(av(mediaType) && av(file.sniffed.kind))) throw new AppError("ERR_INVALID_MEDIA_TYPE", { field: "files" });
        return { ...u, file, mediaType };
      });
      const options = [...before.options];
      for (const u of checked) {
        const name = u.file.name.replace(/\s+/g, "_");
        const path = mediaKeyFor(auth.companyId, `filelist-${id}-${randomUUID()}`, name);
        await media.put(path, u.file.bytes, u.file.type);
        const at = options.findIndex((o) => o.id === u.optionId);
        options[at] = { ...options[at]!, path, mediaType: u.mediaType, mediaName: name };
      }
      return save({ ...before, options, updatedAt: clock().toISOString() });
    },
  };
};
export type FileListsService = ReturnType<typeof createFileListsService>;
