import DeleteIcon from "@mui/icons-material/Delete";
import { Button, Chip, IconButton, List, ListItem, ListItemText, MenuItem, Stack, TextField, Tooltip, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { BRAZIL_TIME_ZONES } from "@atende/shared/domain/calendar/time-zone";
import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { useCompanyRecord } from "../../../lib/pickers";
import { useSessionUser } from "../../../lib/session/session-context";
import { useDeleteHoliday, useHolidays, useSaveHoliday, useSaveTimeZone } from "../api/holidays";

/** Settings → 'Feriados': the company's own holidays and closures (SLA business time); the national ones listed beside. */
export function HolidaysTab() {
  const { t } = useTranslation("sla");
  const user = useSessionUser();
  const company = useCompanyRecord(user.companyId);
  const saveZone = useSaveTimeZone(user.companyId);
  const zone = company.data?.timezone || DEFAULT_TIME_ZONE;
  const zones: string[] = BRAZIL_TIME_ZONES.includes(zone as (typeof BRAZIL_TIME_ZONES)[number]) ? [...BRAZIL_TIME_ZONES] : [zone, ...BRAZIL_TIME_ZONES];
  const year = new Date().getFullYear();
  const holidays = useHolidays(year);
  const save = useSaveHoliday();
  const remove = useDeleteHoliday();
  const [date, setDate] = useState("");
  const [name, setName] = useState("");
  const add = () =>
    save.mutate(
      { input: { date, name: name.trim() } },
      {
        onSuccess: () => {
          toast.success(t("settings.saved"));
          setDate("");
          setName("");
        },
      },
    );
  const own = holidays.data?.holidays ?? [];
  return (
    <Stack spacing={2} data-testid="holidays-tab">
      <TextField
        select
        size="small"
        label={t("settings.timeZone")}
        value={zone}
        onChange={(e) => saveZone.mutate(e.target.value, { onSuccess: () => toast.success(t("settings.timeZoneSaved")) })}
        sx={{ maxWidth: 360 }}
        data-testid="company-timezone"
      >
        {zones.map((z) => (
          <MenuItem key={z} value={z}>
            {z}
          </MenuItem>
        ))}
      </TextField>
      <Typography variant="subtitle1">{t("settings.holidays")}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t("settings.holidaysHint")}
      </Typography>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} alignItems={{ sm: "center" }}>
        <TextField type="date" size="small" label={t("settings.date")} value={date} onChange={(e) => setDate(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "holiday-date" } }} />
        <TextField size="small" label={t("settings.name")} value={name} onChange={(e) => setName(e.target.value)} slotProps={{ htmlInput: { "data-testid": "holiday-name", maxLength: 120 } }} sx={{ flex: 1 }} />
        <Button variant="contained" onClick={add} disabled={!date || !name.trim() || save.isPending} data-testid="holiday-add">
          {t("settings.add")}
        </Button>
      </Stack>
      {own.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("settings.empty")}
        </Typography>
      ) : (
        <List dense data-testid="holiday-list">
          {own.map((h) => (
            <ListItem
              key={h.id}
              secondaryAction={
                <Tooltip title={t("settings.delete")}>
                  <IconButton edge="end" aria-label={t("settings.delete")} onClick={() => remove.mutate(h.id, { onSuccess: () => toast.success(t("settings.deleted")) })}>
                    <DeleteIcon />
                  </IconButton>
                </Tooltip>
              }
            >
              <ListItemText primary={h.name} secondary={h.date} />
            </ListItem>
          ))}
        </List>
      )}
      <Typography variant="subtitle2">{t("settings.national", { year })}</Typography>
      <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
        {(holidays.data?.national ?? []).map((h) => (
          <Chip key={h.date} size="small" variant="outlined" label={`${h.date.slice(8, 10)}/${h.date.slice(5, 7)} · ${h.name}`} />
        ))}
      </Stack>
    </Stack>
  );
}
