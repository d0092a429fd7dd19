import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CompanyResponse } from "@atende/shared/contracts/http/companies";
import type { SettingResponse } from "@atende/shared/contracts/http/settings";
import type { ScheduleEntry } from "@atende/shared/domain/queues/queues";
import { api } from "../../../lib/api-client";
import { meQueryOptions } from "../../../lib/session/me";
import { companyRecordKeys } from "../../../lib/query-keys";

export const settingKeys = { all: ["settings"] as const, list: () => [...settingKeys.all, "list"] as const };

/** GET /settings/: the company's keys (and the global ones for the operator). */
export const settingsQueryOptions = () => queryOptions({ queryKey: settingKeys.list(), queryFn: () => api.get<SettingResponse[]>("/settings/") });
export const useSettings = () => useQuery(settingsQueryOptions());

/** PUT /settings/{key}; the session user is reloaded so gated screens follow (e.g. the Horários tab). */
export const useUpdateSetting = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: SettingResponse) => api.put<SettingResponse>(`/settings/${encodeURIComponent(key)}`, { key, value }),
    onSuccess: (saved) => {
      qc.setQueryData<SettingResponse[]>(settingKeys.list(), (list) => list?.map((s) => (s.key === saved.key ? saved : s)));
      void qc.invalidateQueries({ queryKey: meQueryOptions().queryKey });
    },
  });
};


/** PUT /companies/{id}/schedules */
export const useSaveCompanySchedules = (id: number) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (schedules: ScheduleEntry[]) => api.put<CompanyResponse>(`/companies/${id}/schedules`, { schedules }),
    onSuccess: (company) => qc.setQueryData(companyRecordKeys.record(id), company),
  });
};
