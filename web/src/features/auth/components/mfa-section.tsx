import { Box, Button, Chip, Divider, Stack, Typography } from "@mui/material";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { useMfaDisable, useMfaStatus } from "../api/mfa";
import { CodeField } from "./code-field";

// the enrolment (with its QR code library) loads only when asked: the profile menu is on every page's first screen
const MfaEnroll = lazy(() => import("./mfa-enroll").then((m) => ({ default: m.MfaEnroll })));

/** The profile dialog's "two-factor sign-in" section: state, turn on (QR, first code, recovery codes), turn off (a current code). */
export function MfaSection() {
  const { t } = useTranslation("mfa");
  const status = useMfaStatus();
  const disable = useMfaDisable();
  const [mode, setMode] = useState<"idle" | "enroll" | "disable">("idle");
  const [code, setCode] = useState("");
  const s = status.data;
  if (!s) return null;

  return (
    <Box data-testid="mfa-section">
      <Divider sx={{ my: 2 }} />
      <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {t("title")}
        </Typography>
        <Chip size="small" color={s.enabled ? "success" : "default"} label={s.enabled ? t("on") : t("off")} data-testid="mfa-state" />
      </Stack>
      {s.required && !s.enabled && (
        <Typography variant="body2" color="warning.main" gutterBottom>
          {t("requiredNotice")}
        </Typography>
      )}
      {mode === "idle" && !s.enabled && (
        <Stack spacing={1}>
          <Typography variant="body2" color="text.secondary">
            {t("explain")}
          </Typography>
          <Box>
            <Button variant="outlined" onClick={() => setMode("enroll")} data-testid="mfa-start">
              {t("turnOn")}
            </Button>
          </Box>
        </Stack>
      )}
      {mode === "enroll" && (
        <Suspense fallback={null}>
          <MfaEnroll onDone={() => setMode("idle")} onCancel={() => setMode("idle")} />
        </Suspense>
      )}
      {mode === "idle" && s.enabled && (
        <Stack spacing={1}>
          <Typography variant="body2" color="text.secondary">
            {t("codesLeft", { count: s.recoveryCodesLeft })}
          </Typography>
          {!s.required && (
            <Box>
              <Button color="error" variant="outlined" onClick={() => setMode("disable")} data-testid="mfa-disable-start">
                {t("turnOff")}
              </Button>
            </Box>
          )}
        </Stack>
      )}
      {mode === "disable" && (
        <Stack
          spacing={1}
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            disable.mutate(code.trim(), {
              onSuccess: () => {
                toast.success(t("turnedOff"));
                setCode("");
                setMode("idle");
              },
            });
          }}
        >
          <Typography variant="body2">{t("disableNeedsCode")}</Typography>
          <CodeField value={code} onChange={setCode} autoFocus />
          <Stack direction="row" spacing={1} justifyContent="flex-end">
            <Button onClick={() => setMode("idle")}>{t("cancel")}</Button>
            <Button type="submit" color="error" variant="contained" disabled={code.trim().length < 6} loading={disable.isPending} data-testid="mfa-disable">
              {t("turnOff")}
            </Button>
          </Stack>
        </Stack>
      )}
    </Box>
  );
}
