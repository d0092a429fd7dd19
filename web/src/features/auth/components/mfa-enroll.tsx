import { Button, CircularProgress, Stack, Typography } from "@mui/material";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { MfaEnableResponse } from "@atende/shared/contracts/http/mfa";
import { useMfaEnable, useMfaSetup } from "../api/mfa";
import { CodeField } from "./code-field";
import { RecoveryCodes } from "./recovery-codes";
import { TotpQr } from "./totp-qr";

/**
 * Turning two-factor on, step by step: a new secret (QR code and text), a first code from the app, then the ten
 * recovery codes, shown once. Used in the profile dialog (signed in) and on the login page when the company
 * requires two-factor (`mfaToken`: the enable answer then also carries the session, handed to `onDone`).
 */
export function MfaEnroll({ mfaToken, onDone, onCancel }: { mfaToken?: string; onDone: (result: MfaEnableResponse) => void; onCancel?: () => void }) {
  const { t } = useTranslation("mfa");
  const setup = useMfaSetup();
  const enable = useMfaEnable();
  const [code, setCode] = useState("");
  const [result, setResult] = useState<MfaEnableResponse | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    setup.mutate(mfaToken);
  }, [setup, mfaToken]);

  if (result) {
    return (
      <Stack spacing={2}>
        <Typography variant="subtitle1">{t("enabled")}</Typography>
        <RecoveryCodes codes={result.recoveryCodes} />
        <Button variant="contained" onClick={() => onDone(result)} data-testid="mfa-done">
          {t("savedCodes")}
        </Button>
      </Stack>
    );
  }
  if (!setup.data) {
    return setup.isError ? (
      <Stack direction="row" spacing={1}>
        <Button onClick={() => setup.mutate(mfaToken)}>{t("retry")}</Button>
        {onCancel && <Button onClick={onCancel}>{t("cancel")}</Button>}
      </Stack>
    ) : (
      <CircularProgress size={24} />
    );
  }
  const submit = () =>
    enable.mutate(
      { code: code.trim(), mfaToken },
      {
        onSuccess: (r) => {
          setCode("");
          setResult(r);
        },
      },
    );
  return (
    <Stack spacing={2} component="form" onSubmit={(e) => (e.preventDefault(), submit())} data-testid="mfa-enroll">
      <TotpQr otpauthUrl={setup.data.otpauthUrl} secret={setup.data.secret} />
      <Typography variant="body2">{t("enterFirstCode")}</Typography>
      <CodeField value={code} onChange={setCode} autoFocus />
      <Stack direction="row" spacing={1} justifyContent="flex-end">
        {onCancel && <Button onClick={onCancel}>{t("cancel")}</Button>}
        <Button type="submit" variant="contained" disabled={code.trim().length < 6} loading={enable.isPending} data-testid="mfa-enable">
          {t("turnOn")}
        </Button>
      </Stack>
    </Stack>
  );
}
