import { Grid, MenuItem, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { TRIAL_DAYS_MAX, TRIAL_DAYS_MIN } from "@atende/shared/constants/business";
import type { SettingResponse } from "@atende/shared/contracts/http/settings";
import { toast } from "../../../lib/toast";
import { useSettings, useUpdateSetting } from "../api/settings";

const ON_OFF = ["enabled", "disabled"];
/** Company keys shown in 'Opções' and their choices (spec 2 sections 3 and 9). */
const COMPANY_OPTIONS: [string, string[]][] = [
  ["userRating", ON_OFF],
  ["scheduleType", ["disabled", "queue", "company"]],
  ["call", ON_OFF],
  ["CheckMsgIsGroup", ON_OFF],
  ["chatBotType", ["text"]],
  ["sendGreetingAccepted", ON_OFF],
  ["sendMsgTransfTicket", ON_OFF],
  ["sendGreetingMessageOneQueues", ON_OFF],
  // two-factor sign-in for every user of the company (docs/adr/0029)
  ["requireMfa", ON_OFF],
  // issue 13: the cycle's protocol number sent to the customer on opening
  ["sendProtocolOnOpen", ON_OFF],
  // Privacidade (docs/adr/0097): the message's text in push notifications; off by default (LGPD)
  ["pushPreviews", ON_OFF],
];
const GLOBAL_OPTIONS: [string, string[]][] = [
  ["requireMfaAllCompanies", ON_OFF],
  ["auditRetentionDays", ["30", "90", "180", "365", "730", "1825", "3650"]],
  ["allowregister", ON_OFF],
  ["viewregister", ON_OFF],
  ["trial", Array.from({ length: TRIAL_DAYS_MAX - TRIAL_DAYS_MIN + 1 }, (_, i) => String(TRIAL_DAYS_MIN + i))],
];
const INTEGRATION_KEYS = ["ipixc", "tokenixc", "ipmkauth", "clientidmkauth", "clientsecretmkauth", "asaas"];

function TextSetting({ setting, onSave }: { setting: SettingResponse; onSave: (value: string) => void }) {
  const { t } = useTranslation("settings");
  const [value, setValue] = useState(setting.value);
  return (
    <TextField
      fullWidth
      size="small"
      label={t(`keys.${setting.key}`)}
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => value !== setting.value && onSave(value)}
    />
  );
}

/** 'Opções': every company setting saves on change; the operator also sees the global and integration settings. */
export function OptionsTab({ isSuper }: { isSuper: boolean }) {
  const { t } = useTranslation("settings");
  const settings = useSettings();
  const update = useUpdateSetting();
  const byKey = new Map((settings.data ?? []).map((s) => [s.key, s]));
  const save = (key: string, value: string) => update.mutate({ key, value }, { onSuccess: () => toast.success(t("updated")) });

  const select = ([key, choices]: [string, string[]]) => {
    const setting = byKey.get(key);
    if (!setting) return null;
    return (
      <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
        <TextField select fullWidth size="small" label={t(`keys.${key}`)} value={setting.value} onChange={(e) => save(key, e.target.value)} data-testid={`setting-${key}`}>
          {choices.map((c) => (
            <MenuItem key={c} value={c}>
              {t(`values.${c}`, { defaultValue: c })}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
    );
  };

  return (
    <Grid container spacing={2}>
      {COMPANY_OPTIONS.map(select)}
      {isSuper && (
        <>
          <Grid size={12}>
            <Typography variant="subtitle1">{t("globalHeading")}</Typography>
          </Grid>
          {GLOBAL_OPTIONS.map(select)}
          <Grid size={12}>
            <Typography variant="subtitle1">{t("integrationsHeading")}</Typography>
          </Grid>
          {INTEGRATION_KEYS.map((key) => {
            const setting = byKey.get(key);
            return setting ? (
              <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
                <TextSetting setting={setting} onSave={(value) => save(key, value)} />
              </Grid>
            ) : null;
          })}
        </>
      )}
    </Grid>
  );
}
