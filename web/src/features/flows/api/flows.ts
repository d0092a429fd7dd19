import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FileListPageResponse } from "@atende/shared/contracts/http/files";
import type {
  FlowListResponse,
  FlowResponse,
  FlowSaveRequest,
  FlowStatsResponse,
  FlowTestRequest,
  FlowTestResponse,
  FlowVersionResponse,
} from "@atende/shared/contracts/http/flows";
import type { PromptListResponse } from "@atende/shared/contracts/http/prompts";
import type { FlowMediaFile } from "@atende/shared/domain/flows/flow";
import { api } from "../../../lib/api-client";

/** Issue 30: the page's calls to /api/flows (shapes in @atende/shared/contracts/http/flows). */
export const flowKeys = {
  all: ["flows"] as const,
  list: () => [...flowKeys.all, "list"] as const,
  one: (id: number) => [...flowKeys.all, "one", id] as const,
  stats: (id: number) => [...flowKeys.all, "stats", id] as const,
  version: (id: number, version: number) => [...flowKeys.all, "version", id, version] as const,
  prompts: () => [...flowKeys.all, "prompts"] as const,
  fileLists: () => [...flowKeys.all, "file-lists"] as const,
};

export const flowsListOptions = () => queryOptions({ queryKey: flowKeys.list(), queryFn: () => api.get<FlowListResponse>("/flows") });
export const useFlows = (enabled = true) => useQuery({ ...flowsListOptions(), enabled });
export const useFlow = (id: number | null) =>
  useQuery({ queryKey: flowKeys.one(id ?? 0), queryFn: () => api.get<FlowResponse>(`/flows/${id}`), enabled: !!id });
export const useFlowStats = (id: number | null, enabled: boolean) =>
  useQuery({ queryKey: flowKeys.stats(id ?? 0), queryFn: () => api.get<FlowStatsResponse>(`/flows/${id}/stats`), enabled: !!id && enabled, meta: { silentError: true } });
export const fetchFlowVersion = (id: number, version: number) => api.get<FlowVersionResponse>(`/flows/${id}/versions/${version}`);

/** Save the draft. ERR_FLOW_INVALID is not toasted here: the page marks the nodes at fault. */
export const useSaveFlow = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, flow }: { id: number | null; flow: FlowSaveRequest }) => (id ? api.put<FlowResponse>(`/flows/${id}`, flow) : api.post<FlowResponse>("/flows", flow)),
    meta: { silentError: true },
    onSuccess: (saved) => {
      qc.setQueryData(flowKeys.one(saved.id), saved);
      return qc.invalidateQueries({ queryKey: flowKeys.list() });
    },
  });
};

export const usePublishFlow = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<FlowResponse>(`/flows/${id}/publish`),
    meta: { silentError: true },
    onSuccess: (saved) => {
      qc.setQueryData(flowKeys.one(saved.id), saved);
      return qc.invalidateQueries({ queryKey: flowKeys.list() });
    },
  });
};

export const useDeleteFlow = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete<unknown>(`/flows/${id}`), onSuccess: () => qc.invalidateQueries({ queryKey: flowKeys.list() }) });
};

export const useTestFlow = () =>
  useMutation({ mutationFn: ({ id, body }: { id: number; body: FlowTestRequest }) => api.post<FlowTestResponse>(`/flows/${id}/test`, body), meta: { silentError: true } });

/** The ai node's picker: the company's AI prompts (GET /prompt), silent on error like the other pickers. */
export const usePromptPicker = (enabled: boolean) =>
  useQuery({ queryKey: flowKeys.prompts(), queryFn: () => api.get<PromptListResponse>("/prompt"), enabled, staleTime: 60_000, meta: { silentError: true } });

/** The media node's picker: the company's file lists (GET /files, first page), silent on error like the other pickers. */
export const useFileListPicker = (enabled: boolean) =>
  useQuery({ queryKey: flowKeys.fileLists(), queryFn: () => api.get<FileListPageResponse>("/files", { query: { pageNumber: 1 } }), enabled, staleTime: 60_000, meta: { silentError: true } });

/** The media node's own file: POST /flows/media (multipart, field `file`) answers the node's `file`; errors are toasted. */
export const useUploadFlowMedia = () =>
  useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("file", file);
      return api.post<FlowMediaFile>("/flows/media", form);
    },
  });
