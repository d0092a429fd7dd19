import { zodResolver } from "@hookform/resolvers/zod";
import Visibility from "@mui/icons-material/Visibility";
import VisibilityOff from "@mui/icons-material/VisibilityOff";
import { Box, Button, Container, IconButton, InputAdornment, Link, Paper, Stack, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { RESET_PASSWORD_MIN } from "@atende/shared/constants/business";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { useRequestResetCode, useResetPassword } from "../api/password-reset";
import { emailStepSchema, type ResetStepValues, resetStepSchema } from "../reset-form";

/** /forgetpsw: step 1 sends the code by email; step 2 takes the code and the new password (spec 2 sections 2, 4). */
export function ForgetPasswordPage() {
  const { t } = useTranslation("forgetPassword");
  const navigate = useNavigate();
  const [step, setStep] = useState<1 | 2>(1);
  const [show, setShow] = useState({ newPassword: false, confirmPassword: false });
  const request = useRequestResetCode();
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetStepValues>({
    resolver: zodResolver(step === 1 ? (emailStepSchema as unknown as typeof resetStepSchema) : resetStepSchema),
    defaultValues: { email: "", token: "", newPassword: "", confirmPassword: "" },
  });

  const onSubmit = handleSubmit((values) => {
    if (step === 1) {
      request.mutate(values.email, {
        onSuccess: (res) => (res?.status === 404 ? toast.error(t("emailNotFound")) : toast.success(t("emailSent"))),
        onError: () => toast.error(t("emailNotFound")),
        // the step toggles on each submit, whatever the answer (spec 2 section 4)
        onSettled: () => setStep(2),
      });
      return;
    }
    reset.mutate(
      { email: values.email, token: values.token, newPassword: values.newPassword },
      {
        onSuccess: () => {
          toast.success(t("resetDone"));
          navigate("/login");
        },
        onError: (err) => {
          console.warn("password reset failed", (err as { code?: string }).code);
          setStep(1);
        },
      },
    );
  });

  const passwordField = (name: "newPassword" | "confirmPassword") => (
    <TextField
      label={t(name)}
      type={show[name] ? "text" : "password"}
      fullWidth
      {...register(name)}
      error={!!errors[name]}
      helperText={errors[name]?.message === "passwordRule" ? t("passwordRule", { min: RESET_PASSWORD_MIN }) : fieldError(errors[name])}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton aria-label={t("togglePassword")} onClick={() => setShow((s) => ({ ...s, [name]: !s[name] }))} edge="end">
                {show[name] ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );

  return (
    <Box sx={{ minHeight: "100vh", display: "flex", alignItems: "center", bgcolor: "background.default", py: 4 }}>
      <Container maxWidth="xs">
        <Paper sx={{ p: { xs: 3, sm: 4 } }} elevation={3}>
          <Typography variant="h6" component="h1" align="center" gutterBottom>
            {t("title")}
          </Typography>
          <Stack component="form" spacing={2} noValidate onSubmit={onSubmit}>
            <TextField label={t("email")} type="email" fullWidth autoFocus {...register("email")} error={!!errors.email} helperText={fieldError(errors.email)} />
            {step === 2 && (
              <>
                <TextField label={t("token")} fullWidth autoComplete="one-time-code" {...register("token")} error={!!errors.token} helperText={fieldError(errors.token)} />
                {passwordField("newPassword")}
                {passwordField("confirmPassword")}
              </>
            )}
            <Button type="submit" variant="contained" size="large" fullWidth loading={request.isPending || reset.isPending}>
              {step === 1 ? t("sendEmail") : t("resetPassword")}
            </Button>
          </Stack>
          <Stack direction="row" justifyContent="space-between" sx={{ mt: 2 }}>
            <Link component={RouterLink} to="/login" variant="body2">
              {t("backToLogin")}
            </Link>
            <Link component={RouterLink} to="/signup" variant="body2">
              {t("signup")}
            </Link>
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}
