import { Box, Stack, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { SlaPolicy } from "@atende/shared/domain/service-levels/sla";

export type SlaForm = { firstResponseMinutes: number | ""; nextResponseMinutes: number | ""; resolutionMinutes: number | "" };
const KEYS = ["firstResponseMinutes", "nextResponseMinutes", "resolutionMinutes"] as const;

export const slaFormOf = (sla: SlaPolicy | null | undefined): SlaForm => ({
  firstResponseMinutes: sla?.firstResponseMinutes ?? "",
  nextResponseMinutes: sla?.nextResponseMinutes ?? "",
  resolutionMinutes: sla?.resolutionMinutes ?? "",
});
/** The policy sent to the API: blank fields are no target; no target at all is no SLA. */
export const slaPolicyOf = (form: SlaForm): SlaPolicy | null => {
  const policy = Object.fromEntries(KEYS.map((k) => [k, form[k] === "" ? null : Number(form[k])])) as SlaPolicy;
  return KEYS.some((k) => policy[k] !== null) ? policy : null;
};

/** The queue dialog's SLA targets (issue 13): minutes of business time, each optional. */
export function QueueSlaFields({ value, onChange }: { value: SlaForm; onChange: (next: SlaForm) => void }) {
  const { t } = useTranslation("sla");
  const label = { firstResponseMinutes: "queue.firstResponse", nextResponseMinutes: "queue.nextResponse", resolutionMinutes: "queue.resolution" } as const;
  return (
    <Box data-testid="queue-sla">
      <Typography variant="subtitle1">{t("queue.heading")}</Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        {t("queue.hint")}
      </Typography>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
        {KEYS.map((k) => (
          <TextField
            key={k}
            type="number"
            label={t(label[k])}
            value={value[k]}
            slotProps={{ htmlInput: { min: 1, "data-testid": `queue-sla-${k}` } }}
            onChange={(e) => onChange({ ...value, [k]: e.target.value === "" ? "" : Math.max(1, Math.round(Number(e.target.value))) })}
            fullWidth
          />
        ))}
      </Stack>
    </Box>
  );
}
