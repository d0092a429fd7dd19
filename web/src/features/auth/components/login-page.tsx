import { useQueryClient } from "@tanstack/react-query";
import { Alert, Box, Button, CircularProgress, Container, Link, Paper, Stack, TextField, Typography } from "@mui/material";
import { Suspense, lazy, useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import type { AuthResponse, CompanyExpiredData, SessionUser } from "@atende/shared/contracts/http/auth";
import type { MfaChallengeResponse } from "@atende/shared/contracts/http/mfa";
import type { LoginInput } from "@atende/shared/domain/auth/auth";
import { daysUntilDue, shouldWarnDueDate } from "@atende/shared/domain/auth/due-date";
import { formatDate } from "@atende/shared/domain/format/dates";
import { LanguageSelector } from "../../../components/ui/language-selector";
import { BrandLogo } from "../../../components/ui/branding";
import { loadAllTranslations } from "../../../lib/i18n";
import { usePublicSettings } from "../../../lib/public-settings";
import { ApiError } from "../../../lib/api-client";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { errorMessage } from "../../../lib/toast-error";
import { isMfaChallenge, startSession, useLogin } from "../api/login";

// The first screen stays small (issue 15, ADR 0037): the two-factor step (QR code, enrolment) loads when the
// password was right and the server asks for it, zod and the login schema when the form is first submitted.
const MfaLoginStep = lazy(() => Promise.all([import("./mfa-login-step"), loadAllTranslations()]).then(([m]) => ({ default: m.MfaLoginStep })));
const loginResolver: Resolver<LoginInput> = async (values, context, options) => {
  const [{ zodResolver }, { loginSchema }] = await Promise.all([import("@hookform/resolvers/zod"), import("@atende/shared/domain/auth/auth")]);
  return zodResolver(loginSchema)(values, context, options);
};

const WARNING_TOAST_MS = 6000;

/** "Your subscription is due in N days" when fewer than 5 days remain (singular for 1). */
const warnDueDate = (user: SessionUser, t: (key: string, opts?: Record<string, unknown>) => string) => {
  if (!shouldWarnDueDate(user.company.dueDate)) return;
  const days = daysUntilDue(user.company.dueDate) ?? 0;
  toast.warning(days === 0 ? t("auth:dueToday") : t("auth:dueSoon", { count: days }), WARNING_TOAST_MS);
};

/** /login: email and password; success goes to /tickets. */
export function LoginPage() {
  const { t } = useTranslation();
  // The operator's 'sign-up visible' switch: the link shows once the platform says so.
  const signupVisible = usePublicSettings().data?.viewregister === "enabled";
  const navigate = useNavigate();
  const login = useLogin();
  const queryClient = useQueryClient();
  const [expiredOn, setExpiredOn] = useState<string | null>(null);
  // two-factor: the second step after the right password (a code, or the setup when the company requires it)
  const [challenge, setChallenge] = useState<MfaChallengeResponse | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: loginResolver, defaultValues: { email: "", password: "" } });

  const signedIn = (auth: AuthResponse) => {
    navigate("/tickets", { replace: true });
    startSession(queryClient, auth);
    toast.success(t("auth:loginSuccess"));
    warnDueDate(auth.user, t);
  };

  const onSubmit = handleSubmit((values) => {
    setExpiredOn(null);
    login.mutate(values, {
      onSuccess: (result) => (isMfaChallenge(result) ? setChallenge(result) : signedIn(result)),
      onError: (err) => {
        if (err instanceof ApiError && err.code === "ERR_COMPANY_EXPIRED") {
          setExpiredOn(formatDate((err.data as CompanyExpiredData | undefined)?.dueDate) || "-");
          return;
        }
        toast.error(errorMessage(err));
      },
    });
  });

  return (
    <Box sx={{ minHeight: "100vh", display: "flex", alignItems: "center", bgcolor: "background.default", py: 4 }}>
      <Box sx={{ position: "fixed", top: 8, right: 8 }}>
        <LanguageSelector color="default" />
      </Box>
      <Container maxWidth="xs">
        <Paper sx={{ p: { xs: 3, sm: 4 } }} elevation={3}>
          <BrandLogo destination="login" />
          <Typography variant="h4" component="p" align="center" color="primary" fontWeight={700} gutterBottom>
            {t("common:appName")}
          </Typography>
          <Typography variant="h6" component="h1" align="center" gutterBottom>
            {t("auth:title")}
          </Typography>
          {expiredOn && (
            <Alert severity="error" sx={{ mb: 2 }} data-testid="company-expired">
              {t("auth:companyExpired", { date: expiredOn })}
            </Alert>
          )}
          {challenge && (
            <Suspense fallback={<CircularProgress sx={{ display: "block", mx: "auto" }} />}>
              <MfaLoginStep challenge={challenge} onSession={signedIn} onRestart={() => setChallenge(null)} />
            </Suspense>
          )}
          <Stack component="form" spacing={2} noValidate onSubmit={onSubmit} sx={challenge ? { display: "none" } : undefined}>
            <TextField
              label={t("auth:email")}
              type="email"
              autoComplete="email"
              autoFocus
              fullWidth
              {...register("email")}
              error={!!errors.email}
              helperText={fieldError(errors.email)}
            />
            <TextField
              label={t("auth:password")}
              type="password"
              autoComplete="current-password"
              fullWidth
              {...register("password")}
              error={!!errors.password}
              helperText={fieldError(errors.password)}
            />
            <Button type="submit" variant="contained" size="large" fullWidth loading={login.isPending}>
              {t("auth:submit")}
            </Button>
          </Stack>
          <Stack direction="row" justifyContent="space-between" flexWrap="wrap" gap={1} sx={{ mt: 2 }}>
            <Link component={RouterLink} to="/forgetpsw" variant="body2">
              {t("auth:forgotPassword")}
            </Link>
            {signupVisible && (
              <Typography variant="body2">
                {t("auth:noAccount")}{" "}
                <Link component={RouterLink} to="/signup">
                  {t("auth:signup")}
                </Link>
              </Typography>
            )}
          </Stack>
        </Paper>
        <Typography variant="caption" color="text.secondary" align="center" component="p" sx={{ mt: 2 }}>
          {t("auth:captchaNotice")}
        </Typography>
      </Container>
    </Box>
  );
}
