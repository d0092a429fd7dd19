import { Stack, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ScheduleEntry } from "@atende/shared/domain/queues/queues";

/** The four-digit HH:MM mask of working-hour times. */
export const maskTime = (value: string) => {
  const d = value.replace(/\D/g, "").slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)}:${d.slice(2)}` : d;
};
export const isTime = (v: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v);

/** One row per weekday with start and end times (queue hours and company hours). */
export function SchedulesEditor({ value, onChange }: { value: ScheduleEntry[]; onChange: (next: ScheduleEntry[]) => void }) {
  const { t } = useTranslation("queues");
  const set = (i: number, field: "startTime" | "endTime", v: string) => onChange(value.map((s, j) => (j === i ? { ...s, [field]: maskTime(v) } : s)));
  return (
    <Stack spacing={1.5} data-testid="schedules-editor">
      {value.map((s, i) => (
        <Stack key={s.weekdayEn} direction="row" spacing={1} alignItems="center">
          <Typography sx={{ width: 130 }}>{t(`weekdays.${s.weekdayEn}`)}</Typography>
          <TextField
            size="small"
            label={t("startTime")}
            value={s.startTime}
            onChange={(e) => set(i, "startTime", e.target.value)}
            error={!isTime(s.startTime)}
            slotProps={{ htmlInput: { "aria-label": `${t(`weekdays.${s.weekdayEn}`)} ${t("startTime")}`, inputMode: "numeric" } }}
            sx={{ width: 110 }}
          />
          <TextField
            size="small"
            label={t("endTime")}
            value={s.endTime}
            onChange={(e) => set(i, "endTime", e.target.value)}
            error={!isTime(s.endTime)}
            slotProps={{ htmlInput: { "aria-label": `${t(`weekdays.${s.weekdayEn}`)} ${t("endTime")}`, inputMode: "numeric" } }}
            sx={{ width: 110 }}
          />
        </Stack>
      ))}
    </Stack>
  );
}
