import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CompanyHoliday, HolidayInput, HolidaysResponse } from "@atende/shared/domain/service-levels/holidays";
import { api } from "../../../lib/api-client";
import { companyRecordKeys } from "../../../lib/query-keys";
import type { CompanyResponse } from "@atende/shared/contracts/http/companies";

export const holidayKeys = {
  all: () => ["holidays"] as const,
  year: (year: number) => ["holidays", year] as const,
};

export const useHolidays = (year: number) =>
  useQuery({ queryKey: holidayKeys.year(year), queryFn: () => api.get<HolidaysResponse>("/holidays", { query: { year } }) });

export const useSaveHoliday = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: HolidayInput }) => (id ? api.put<CompanyHoliday>(`/holidays/${id}`, input) : api.post<CompanyHoliday>("/holidays", input)),
    onSuccess: () => qc.invalidateQueries({ queryKey: holidayKeys.all() }),
  });
};

/** The company's time zone (protocol dates and SLA business time count in it). */
export const useSaveTimeZone = (companyId: number) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (timezone: string) => api.put<CompanyResponse>(`/companies/${companyId}/timezone`, { timezone }),
    onSuccess: (company) => qc.setQueryData(companyRecordKeys.record(companyId), company),
  });
};

export const useDeleteHoliday = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/holidays/${id}`), onSuccess: () => qc.invalidateQueries({ queryKey: holidayKeys.all() }) });
};
