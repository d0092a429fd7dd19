import DeleteIcon from "@mui/icons-material/Delete";
import { Button, IconButton, List, ListItem, ListItemText, Stack, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useQueryClient, useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { meQueryOptions } from "../../../lib/session/me";
import { useCompanySetting } from "../../../lib/session/session-context";
import { usePauseReasons, useRemovePauseReason, useSavePauseReason } from "../api/agents";

/** Settings page (admins): the company's pause reasons and the default capacity (docs/adr/0032). */
export function AttendanceSettings() {
  const { t } = useTranslation("serviceLevels");
  const reasons = usePauseReasons();
  const saveReason = useSavePauseReason();
  const removeReason = useRemovePauseReason();
  const qc = useQueryClient();
  const updateSetting = useMutation({
    mutationFn: ({ key, value }: { key: string; value: string }) => api.put(`/settings/${key}`, { key, value }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
  const [name, setName] = useState("");
  const capacity = useCompanySetting("defaultCapacity") ?? "5";
  const add = () => {
    if (!name.trim()) return;
    saveReason.mutate({ name: name.trim() }, { onSuccess: () => setName("") });
  };
  return (
    <Stack spacing={3} sx={{ maxWidth: 560 }}>
      <Stack spacing={1}>
        <Typography variant="subtitle1">{t("settings.capacityHeading")}</Typography>
        <TextField
          key={capacity}
          size="small"
          type="number"
          label={t("settings.defaultCapacity")}
          defaultValue={capacity}
          helperText={t("settings.defaultCapacityHint")}
          slotProps={{ htmlInput: { min: 1, max: 100, "data-testid": "default-capacity" } }}
          onBlur={(e) => {
            const v = String(Math.max(1, Math.min(100, Math.round(Number(e.target.value) || 1))));
            if (v !== capacity) updateSetting.mutate({ key: "defaultCapacity", value: v });
          }}
          sx={{ maxWidth: 260 }}
        />
      </Stack>
      <Stack spacing={1}>
        <Typography variant="subtitle1">{t("settings.reasonsHeading")}</Typography>
        <Stack direction="row" spacing={1}>
          <TextField size="small" label={t("settings.newReason")} value={name} onChange={(e) => setName(e.target.value)} onKeyDown={(e) => e.key === "Enter" && add()} slotProps={{ htmlInput: { maxLength: 60, "data-testid": "pause-reason-name" } }} />
          <Button variant="outlined" onClick={add} loading={saveReason.isPending} data-testid="pause-reason-add">
            {t("common:add")}
          </Button>
        </Stack>
        <List dense>
          {(reasons.data ?? []).map((r) => (
            <ListItem
              key={r.id}
              secondaryAction={
                <IconButton edge="end" aria-label={t("common:delete")} onClick={() => removeReason.mutate(r.id)}>
                  <DeleteIcon />
                </IconButton>
              }
            >
              <ListItemText primary={r.name} />
            </ListItem>
          ))}
          {reasons.data?.length === 0 && <Typography variant="body2" color="text.secondary">{t("noReasons")}</Typography>}
        </List>
      </Stack>
    </Stack>
  );
}
