import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { FileListPageResponse, FileListResponse } from "@atende/shared/contracts/http/files";
import type { FileListInput } from "@atende/shared/domain/files/file-list";
import { api } from "../../../lib/api-client";

/** File lists (spec 3 section 7): the page list with search and paging, save, delete, option uploads. */
export const fileListKeys = {
  all: ["file-lists"] as const,
  list: (searchParam: string) => [...fileListKeys.all, "list", searchParam] as const,
};

export const fileListsOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: fileListKeys.list(searchParam),
    queryFn: ({ pageParam }) => api.get<FileListPageResponse>("/files", { query: { searchParam: searchParam || undefined, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useFileLists = (searchParam: string) => useInfiniteQuery(fileListsOptions(searchParam));

export const invalidateFileLists = (qc: QueryClient) => qc.invalidateQueries({ queryKey: fileListKeys.all });

export const useSaveFileList = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: FileListInput }) => (id ? api.put<FileListResponse>(`/files/${id}`, input) : api.post<FileListResponse>("/files", input)),
    onSuccess: () => invalidateFileLists(qc),
  });
};

export const useDeleteFileList = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/files/${id}`), onSuccess: () => invalidateFileLists(qc) });
};

/** POST /files/uploadList/{id}: one `files` + `id` (option) pair per file, in order. */
export const useUploadFileListFiles = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, uploads }: { id: number; uploads: { optionId: number; name: string; file: File }[] }) => {
      const form = new FormData();
      form.append("fileId", String(id));
      form.append("typeArch", "fileList");
      for (const u of uploads) {
        form.append("files", u.file);
        form.append("mediaType", u.file.type);
        form.append("name", u.name);
        form.append("id", String(u.optionId));
      }
      return api.post<FileListResponse>(`/files/uploadList/${id}`, form);
    },
    onSuccess: () => invalidateFileLists(qc),
  });
};
