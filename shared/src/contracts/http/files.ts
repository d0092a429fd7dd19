import type { FileMediaType } from "../../domain/files/file-list";

/** One option of a file list. `path` is the stored media key (null until a file is uploaded); `mediaUrl` serves it. */
export type FileListOptionResponse = {
  id: number;
  name: string;
  path: string | null;
  mediaType: FileMediaType | null;
  mediaName: string | null;
  mediaUrl: string | null;
};

/** A file list (spec 3 "File lists"): a named set of files with a message. */
export type FileListResponse = {
  id: number;
  name: string;
  message: string;
  options: FileListOptionResponse[];
  companyId: number;
  createdAt: string;
  updatedAt: string;
};

/** GET /files (searchParam, pageNumber): by name A-Z. */
export type FileListPageResponse = { files: FileListResponse[]; hasMore: boolean };

/** Realtime `file` (company admins). */
export type FileListEventData = { action: "create" | "update"; fileList: FileListResponse } | { action: "delete"; fileId: number };
