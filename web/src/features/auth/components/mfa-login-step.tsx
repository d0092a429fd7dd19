import { Alert, Button, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AuthResponse } from "@atende/shared/contracts/http/auth";
import type { MfaChallengeResponse } from "@atende/shared/contracts/http/mfa";
import { ApiError } from "../../../lib/api-client";
import { toast } from "../../../lib/toast";
import { errorMessage } from "../../../lib/toast-error";
import { useMfaVerify } from "../api/mfa";
import { CodeField } from "./code-field";
import { MfaEnroll } from "./mfa-enroll";

/**
 * The login page's second step. Two-factor on: a code from the app or a recovery code. Required but not set up:
 * the setup walk-through (QR, first code, recovery codes), which completes the login. `onSession` gets the session;
 * `onRestart` goes back to email and password (the step's token expired or was used).
 */
export function MfaLoginStep({ challenge, onSession, onRestart }: { challenge: MfaChallengeResponse; onSession: (auth: AuthResponse) => void; onRestart: () => void }) {
  const { t } = useTranslation("mfa");
  const verify = useMfaVerify();
  const [code, setCode] = useState("");

  const failed = (err: unknown) => {
    if (err instanceof ApiError && err.code === "ERR_MFA_TOKEN_INVALID") {
      toast.error(errorMessage(err));
      onRestart();
      return;
    }
    toast.error(errorMessage(err));
  };

  if (challenge.setupRequired) {
    return (
      <Stack spacing={2} data-testid="mfa-setup-step">
        <Alert severity="info">{t("setupRequired")}</Alert>
        <MfaEnroll
          mfaToken={challenge.mfaToken}
          onCancel={onRestart}
          onDone={(r) => {
            if (r.token && r.user) onSession({ token: r.token, user: r.user });
            else onRestart();
          }}
        />
      </Stack>
    );
  }

  return (
    <Stack
      spacing={2}
      component="form"
      noValidate
      data-testid="mfa-login-step"
      onSubmit={(e) => {
        e.preventDefault();
        verify.mutate({ mfaToken: challenge.mfaToken, code: code.trim() }, { onSuccess: (auth) => onSession(auth), onError: failed });
      }}
    >
      <Typography variant="body2">{t("loginCodeHint")}</Typography>
      <CodeField value={code} onChange={setCode} allowRecovery autoFocus />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={code.trim().length < 6} loading={verify.isPending} data-testid="mfa-verify">
        {t("verify")}
      </Button>
      <Button size="small" onClick={onRestart}>
        {t("backToLogin")}
      </Button>
    </Stack>
  );
}
