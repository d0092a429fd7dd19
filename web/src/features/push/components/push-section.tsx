import { Box, Button, Checkbox, Divider, FormControlLabel, Stack, Switch, TextField, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PushPreferencesBody } from "@atende/shared/contracts/http/push";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { usePushPreferences, useSavePushPreferences } from "../api/push";
import { currentSubscription, disablePush, enablePush, pushSupported } from "../push-device";

const KINDS = ["waiting", "message", "transfer", "chat", "announcement"] as const;

/** The profile dialog's "Notificações push" section: this device on/off, what to push, quiet hours (issue 32). */
export function PushSection() {
  const { t } = useTranslation("push");
  const prefs = usePushPreferences();
  const save = useSavePushPreferences();
  const [draft, setDraft] = useState<PushPreferencesBody | null>(null);
  const [device, setDevice] = useState<"unknown" | "on" | "off" | "busy">("unknown");
  const supported = pushSupported();

  useEffect(() => {
    if (prefs.data && !draft) setDraft(prefs.data);
  }, [prefs.data, draft]);
  useEffect(() => {
    if (supported) void currentSubscription().then((s) => setDevice(s ? "on" : "off"));
  }, [supported]);

  const toggleDevice = async (on: boolean) => {
    setDevice("busy");
    try {
      if (on && !(await enablePush())) {
        toast.warning(t("denied"));
        setDevice("off");
        return;
      }
      if (!on) await disablePush();
      setDevice(on ? "on" : "off");
    } catch (err) {
      toastError(err);
      setDevice((await currentSubscription().catch(() => null)) ? "on" : "off");
    }
  };
  const quiet = Boolean(draft?.quietStart);

  return (
    <Box data-testid="push-section">
      <Divider sx={{ my: 2 }} />
      <Typography variant="subtitle1">{t("title")}</Typography>
      {!supported ? (
        <Typography variant="body2" color="text.secondary">
          {t("unsupported")}
        </Typography>
      ) : (
        <FormControlLabel
          control={<Switch checked={device === "on"} disabled={device === "busy" || device === "unknown"} onChange={(e) => void toggleDevice(e.target.checked)} data-testid="push-device" />}
          label={t("thisDevice")}
        />
      )}
      {draft && (
        <Stack spacing={0.5} sx={{ mt: 1 }}>
          {KINDS.map((k) => (
            <FormControlLabel key={k} control={<Checkbox size="small" checked={draft[k]} onChange={(e) => setDraft({ ...draft, [k]: e.target.checked })} data-testid={`push-pref-${k}`} />} label={t(`kinds.${k}`)} />
          ))}
          <FormControlLabel
            control={<Switch size="small" checked={quiet} onChange={(e) => setDraft({ ...draft, quietStart: e.target.checked ? "22:00" : null, quietEnd: e.target.checked ? "07:00" : null })} data-testid="push-quiet" />}
            label={t("quietHours")}
          />
          {quiet && (
            <Stack direction="row" spacing={1}>
              <TextField size="small" type="time" label={t("from")} value={draft.quietStart ?? ""} onChange={(e) => setDraft({ ...draft, quietStart: e.target.value || null })} slotProps={{ inputLabel: { shrink: true } }} />
              <TextField size="small" type="time" label={t("until")} value={draft.quietEnd ?? ""} onChange={(e) => setDraft({ ...draft, quietEnd: e.target.value || null })} slotProps={{ inputLabel: { shrink: true } }} />
            </Stack>
          )}
          <Box>
            <Button
              variant="outlined"
              size="small"
              disabled={save.isPending}
              data-testid="push-save"
              onClick={() => save.mutate(draft, { onSuccess: () => toast.success(t("saved")), onError: (err) => toastError(err) })}
            >
              {t("save")}
            </Button>
          </Box>
        </Stack>
      )}
    </Box>
  );
}
