import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CompanyHoliday, HolidayInput, HolidaysResponse } from "@atende/shared/domain/service-levels/holidays";
import { api } from "../../../lib/api-client";

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

export const useDeleteHoliday = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/holidays/${id}`), onSuccess: () => qc.invalidateQueries({ queryKey: holidayKeys.all() }) });
};
