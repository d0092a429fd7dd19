import { FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { DISTRIBUTION_MODES, type QueueDistribution } from "@atende/shared/contracts/http/service-levels";
import { useQueueDistribution, useSaveQueueDistribution } from "../api/agents";

/** Queue dialog: automatic distribution and the customer's own attendant (saved as they change, docs/adr/0032). */
export function QueueDistributionFields({ queueId }: { queueId: number }) {
  const { t } = useTranslation("serviceLevels");
  const current = useQueueDistribution(queueId);
  const save = useSaveQueueDistribution(queueId);
  const value = current.data;
  if (!value) return null;
  const change = (patch: Partial<QueueDistribution>) => save.mutate({ ...value, ...patch });
  return (
    <Stack spacing={1.5} data-testid="queue-distribution">
      <Typography variant="subtitle1">{t("distribution.heading")}</Typography>
      <TextField
        select
        size="small"
        label={t("distribution.mode")}
        value={value.mode}
        onChange={(e) => change({ mode: e.target.value as QueueDistribution["mode"] })}
        helperText={t(`distribution.modeHint.${value.mode}`)}
        slotProps={{ select: { SelectDisplayProps: { "data-testid": "distribution-mode" } as object } }}
      >
        {DISTRIBUTION_MODES.map((m) => (
          <MenuItem key={m} value={m} data-testid={`distribution-mode-${m}`}>
            {t(`distribution.modes.${m}`)}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} alignItems={{ sm: "center" }}>
        <FormControlLabel
          control={<Switch checked={value.ownAttendant} onChange={(e) => change({ ownAttendant: e.target.checked })} />}
          label={t("distribution.ownAttendant")}
        />
        {value.ownAttendant && (
          <TextField
            size="small"
            type="number"
            label={t("distribution.ownAttendantMinutes")}
            defaultValue={value.ownAttendantMinutes}
            onBlur={(e) => {
              const n = Math.max(0, Math.min(1440, Math.round(Number(e.target.value) || 0)));
              if (n !== value.ownAttendantMinutes) change({ ownAttendantMinutes: n });
            }}
            sx={{ maxWidth: 220 }}
          />
        )}
      </Stack>
    </Stack>
  );
}
