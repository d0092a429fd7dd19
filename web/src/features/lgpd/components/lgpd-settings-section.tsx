import { Box, Button, FormControlLabel, Stack, Switch, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_OPT_OUT_KEYWORDS } from "@atende/shared/domain/lgpd/opt-out-rules";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import type { LgpdSettings } from "@atende/shared/domain/lgpd/lgpd-settings";
import { useLgpdSettings, useSaveLgpdSettings } from "../api/lgpd";

/** Settings page block: opt-out words, confirmation message, "in any ticket", media retention (off by default). */
export function LgpdSettingsSection() {
  const settings = useLgpdSettings();
  if (!settings.data) return null;
  return <LgpdSettingsForm settings={settings.data} />;
}

/** The form starts from the loaded settings, so its first paint already shows them (no empty frame). */
function LgpdSettingsForm({ settings }: { settings: LgpdSettings }) {
  const { t } = useTranslation("lgpd");
  const save = useSaveLgpdSettings();
  const [keywords, setKeywords] = useState(settings.optOutKeywords.join(", "));
  const [confirmation, setConfirmation] = useState(settings.optOutConfirmation);
  const [anyTicket, setAnyTicket] = useState(settings.optOutInAnyTicket);
  const [retentionOn, setRetentionOn] = useState(settings.mediaRetentionDays !== null);
  const [days, setDays] = useState(String(settings.mediaRetentionDays ?? 90));

  const list = keywords.split(",").map((k) => k.trim()).filter(Boolean);
  const dayCount = Number(days);
  const daysValid = Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= 3650;
  const submit = () =>
    save.mutate(
      { optOutKeywords: list.length ? list : [...DEFAULT_OPT_OUT_KEYWORDS], optOutConfirmation: confirmation, optOutInAnyTicket: anyTicket, mediaRetentionDays: retentionOn ? dayCount : null },
      { onSuccess: () => toast.success(t("settings.saved")), onError: toastError },
    );

  return (
    <Box data-testid="lgpd-settings">
      <Typography variant="h6" gutterBottom>
        {t("settings.title")}
      </Typography>
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <TextField label={t("settings.keywords")} helperText={t("settings.keywordsHelp")} value={keywords} onChange={(e) => setKeywords(e.target.value)} size="small" />
        <TextField label={t("settings.confirmation")} helperText={t("settings.confirmationHelp")} value={confirmation} onChange={(e) => setConfirmation(e.target.value)} multiline minRows={2} size="small" />
        <FormControlLabel control={<Switch checked={anyTicket} onChange={(e) => setAnyTicket(e.target.checked)} />} label={t("settings.anyTicket")} />
        <FormControlLabel control={<Switch checked={retentionOn} onChange={(e) => setRetentionOn(e.target.checked)} />} label={t("settings.retention")} />
        {retentionOn && (
          <TextField
            type="number"
            label={t("settings.retentionDays")}
            helperText={daysValid ? t("settings.retentionHelp") : t("settings.retentionInvalid")}
            error={!daysValid}
            value={days}
            onChange={(e) => setDays(e.target.value)}
            size="small"
            slotProps={{ htmlInput: { min: 1, max: 3650 } }}
          />
        )}
        <Button variant="contained" onClick={submit} disabled={save.isPending || (retentionOn && !daysValid)} sx={{ alignSelf: "flex-start" }}>
          {t("common:save")}
        </Button>
      </Stack>
    </Box>
  );
}
