import { Alert, Box, Button, FormControlLabel, Grid, Stack, Switch, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { COPILOT_FEATURES, type CopilotSettingsInput, type CopilotSettingsResponse, type CopilotTestResponse } from "@atende/shared/contracts/http/copilot";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { useCopilotSettings, useSaveCopilotSettings, useTestCopilot } from "../../../components/copilot/copilot-api";

const formOf = (s: CopilotSettingsResponse): CopilotSettingsInput => ({
  enabled: s.enabled,
  baseUrl: s.baseUrl,
  apiKey: s.apiKey,
  model: s.model,
  transcriptionModel: s.transcriptionModel,
  features: { ...s.features },
  summaryOnTransfer: s.summaryOnTransfer,
  monthlyTokenCap: s.monthlyTokenCap,
});

/** *Configurações → Inteligência artificial* (admins, issue 33): the company's provider, key, features and cap. */
export function CopilotSettingsTab() {
  const settings = useCopilotSettings();
  if (!settings.data) return null;
  return <CopilotSettingsForm saved={settings.data} />;
}

function CopilotSettingsForm({ saved }: { saved: CopilotSettingsResponse }) {
  const { t } = useTranslation("copilot");
  const [form, setForm] = useState<CopilotSettingsInput>(() => formOf(saved));
  const [tested, setTested] = useState<CopilotTestResponse | null>(null);
  const save = useSaveCopilotSettings();
  const test = useTestCopilot();
  const set = <K extends keyof CopilotSettingsInput>(k: K, v: CopilotSettingsInput[K]) => setForm((f) => ({ ...f, [k]: v }));

  return (
    <Box component="form" data-testid="copilot-settings" onSubmit={(e) => {
      e.preventDefault();
      save.mutate(form, { onSuccess: (s) => { setForm(formOf(s)); toast.success(t("saved")); }, onError: toastError });
    }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("intro")}
      </Typography>
      <FormControlLabel control={<Switch checked={form.enabled} onChange={(e) => set("enabled", e.target.checked)} />} label={t("enabled")} />
      <Grid container spacing={2} sx={{ mt: 1 }}>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextField fullWidth size="small" label={t("baseUrl")} helperText={t("baseUrlHelp")} value={form.baseUrl} onChange={(e) => set("baseUrl", e.target.value)} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextField fullWidth size="small" label={t("apiKey")} helperText={t("apiKeyHelp")} value={form.apiKey ?? ""} onChange={(e) => set("apiKey", e.target.value)} autoComplete="off" />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField fullWidth size="small" label={t("model")} placeholder="gpt-4o-mini" value={form.model} onChange={(e) => set("model", e.target.value)} />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField fullWidth size="small" label={t("transcriptionModel")} placeholder="whisper-1" value={form.transcriptionModel ?? ""} onChange={(e) => set("transcriptionModel", e.target.value)} />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            fullWidth
            size="small"
            type="number"
            label={t("monthlyTokenCap")}
            helperText={t("tokensThisMonth", { count: saved.tokensThisMonth })}
            value={form.monthlyTokenCap ?? 0}
            onChange={(e) => set("monthlyTokenCap", Math.max(0, Math.floor(Number(e.target.value) || 0)))}
          />
        </Grid>
      </Grid>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        {t("features")}
      </Typography>
      <Stack>
        {COPILOT_FEATURES.map((k) => (
          <FormControlLabel
            key={k}
            control={<Switch checked={form.features[k]} onChange={(e) => set("features", { ...form.features, [k]: e.target.checked })} />}
            label={t(`feature.${k}`)}
          />
        ))}
        <FormControlLabel control={<Switch checked={form.summaryOnTransfer ?? false} onChange={(e) => set("summaryOnTransfer", e.target.checked)} />} label={t("summaryOnTransfer")} />
      </Stack>
      {tested && (
        <Alert severity={tested.ok ? "success" : "error"} sx={{ mt: 2 }} data-testid="copilot-test-result">
          {tested.ok ? t("testOk", { model: tested.model }) : t("testFailed", { status: tested.status || t("noAnswer") })}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
        <Button variant="outlined" disabled={test.isPending} onClick={() => test.mutate({ baseUrl: form.baseUrl, apiKey: form.apiKey, model: form.model }, { onSuccess: setTested, onError: toastError })}>
          {t("test")}
        </Button>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          {t("save")}
        </Button>
      </Stack>
    </Box>
  );
}
