import { Button, Stack } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_SCHEDULES } from "@atende/shared/constants/business";
import type { ScheduleEntry } from "@atende/shared/domain/queues/queues";
import { toast } from "../../../lib/toast";
import { SchedulesEditor, isTime } from "../../../components/ui/schedules-editor";
import { useSaveCompanySchedules } from "../api/settings";
import { useCompanyRecord } from "../../../lib/pickers";

/** 'Horários': the company's working hours (schedule type 'company'). */
export function CompanyHoursTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation("settings");
  const company = useCompanyRecord(companyId);
  const save = useSaveCompanySchedules(companyId);
  const [edited, setEdited] = useState<ScheduleEntry[] | null>(null);
  const schedules = edited ?? (company.data?.schedules?.length ? company.data.schedules : DEFAULT_SCHEDULES);
  const setSchedules = setEdited;
  if (company.isLoading) return null;
  const valid = schedules.every((s) => isTime(s.startTime) && isTime(s.endTime));
  return (
    <Stack spacing={2}>
      <SchedulesEditor value={schedules} onChange={setSchedules} />
      <Stack direction="row">
        <Button variant="contained" disabled={!valid} loading={save.isPending} onClick={() => save.mutate(schedules, { onSuccess: () => toast.success(t("hoursSaved")) })}>
          {t("common:save")}
        </Button>
      </Stack>
    </Stack>
  );
}
