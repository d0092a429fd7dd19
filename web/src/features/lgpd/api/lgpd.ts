import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { ContactOptOutState, EraseResult, LgpdJobView, OptOutListResponse } from "@atende/shared/contracts/http/lgpd";
import type { LgpdSettings, LgpdSettingsUpdate } from "@atende/shared/domain/lgpd/lgpd-settings";
import { api, apiRequest } from "../../../lib/api-client";
import { contactKeys } from "../../../lib/query-keys";

/** LGPD (docs/adr/0030): a contact's export and erasure, the opt-out list, the company's LGPD settings. */
export const lgpdKeys = {
  all: ["lgpd"] as const,
  settings: () => [...lgpdKeys.all, "settings"] as const,
  optOuts: () => [...lgpdKeys.all, "optOuts"] as const,
  optOutList: (searchParam: string) => [...lgpdKeys.optOuts(), "list", searchParam] as const,
  contactOptOut: (contactId: number) => [...lgpdKeys.optOuts(), "contact", contactId] as const,
  job: (id: string) => [...lgpdKeys.all, "job", id] as const,
};

/** Saves a blob as a file the browser downloads. */
export const saveBlob = (blob: Blob, filename: string) => {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

/** GET /contacts/{id}/export: a ZIP (saved at once) or a background job (202) whose progress comes by realtime. */
export const exportContact = async (contactId: number): Promise<{ kind: "saved" } | { kind: "job"; job: LgpdJobView }> => {
  const blob = await apiRequest<Blob>(`/contacts/${contactId}/export`, { responseType: "blob" });
  if (blob.type.includes("json")) return { kind: "job", job: (JSON.parse(await blob.text()) as { job: LgpdJobView }).job };
  saveBlob(blob, `dados-contato-${contactId}.zip`);
  return { kind: "saved" };
};
export const downloadJob = async (job: LgpdJobView) => {
  saveBlob(await apiRequest<Blob>(`/lgpd/jobs/${job.id}/download`, { responseType: "blob" }), `dados-contato-${job.contactId}.zip`);
};

/** DELETE /contacts/{id}?erase=true: done (200) or a background job (202). */
export const useEraseContact = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (contactId: number) => api.delete<EraseResult | { job: LgpdJobView }>(`/contacts/${contactId}`, { query: { erase: true } }),
    onSuccess: (answer, contactId) => {
      if ("erased" in answer) void qc.invalidateQueries({ queryKey: contactKeys.all });
      void qc.invalidateQueries({ queryKey: lgpdKeys.contactOptOut(contactId) });
    },
  });
};

export const contactOptOutOptions = (contactId: number) =>
  queryOptions({ queryKey: lgpdKeys.contactOptOut(contactId), queryFn: () => api.get<ContactOptOutState>(`/contacts/${contactId}/opt-out`) });
export const useContactOptOut = (contactId: number | undefined) => useQuery({ ...contactOptOutOptions(contactId ?? 0), enabled: Boolean(contactId) });

export const invalidateOptOuts = (qc: QueryClient) => qc.invalidateQueries({ queryKey: lgpdKeys.optOuts() });
export const useClearOptOut = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (contactId: number) => api.delete<ContactOptOutState>(`/contacts/${contactId}/opt-out`), onSuccess: () => invalidateOptOuts(qc) });
};

export const optOutListOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: lgpdKeys.optOutList(searchParam),
    queryFn: ({ pageParam }) => api.get<OptOutListResponse>("/opt-outs", { query: { searchParam: searchParam || undefined, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useOptOutList = (searchParam: string) => useInfiniteQuery(optOutListOptions(searchParam));
export const downloadOptOutsCsv = async () => saveBlob(await apiRequest<Blob>("/opt-outs/export", { responseType: "blob" }), "opt-outs.csv");

export const lgpdSettingsOptions = () => queryOptions({ queryKey: lgpdKeys.settings(), queryFn: () => api.get<LgpdSettings>("/lgpd/settings") });
export const useLgpdSettings = () => useQuery(lgpdSettingsOptions());
export const useSaveLgpdSettings = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (input: LgpdSettingsUpdate) => api.put<LgpdSettings>("/lgpd/settings", input), onSuccess: (s) => qc.setQueryData(lgpdKeys.settings(), s) });
};
