import { Chip, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ScheduleResponse } from "@atende/shared/contracts/http/schedules";
import { errorMessage } from "../../../lib/toast-error";

const COLORS = { PENDENTE: "default", ENVIADA: "success", ERRO: "error" } as const;

/** Pending / sent / error; an error shows its reason. */
export function ScheduleStatusChip({ schedule }: { schedule: Pick<ScheduleResponse, "status" | "errorMessage"> }) {
  const { t } = useTranslation("schedules");
  const chip = <Chip size="small" color={COLORS[schedule.status]} label={t(`status.${schedule.status}`)} data-testid="schedule-status" />;
  if (schedule.status !== "ERRO" || !schedule.errorMessage) return chip;
  return <Tooltip title={errorMessage(schedule.errorMessage)}>{chip}</Tooltip>;
}
