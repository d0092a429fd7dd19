import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Box, Button, Container, Link, MenuItem, Paper, Stack, TextField, Typography } from "@mui/material";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import type { z } from "zod";
import { maskSignupPhone, signupSchema } from "@atende/shared/domain/companies/companies";
import { formatMoney } from "../../../lib/money";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { usePublicSettings } from "../../../lib/public-settings";
import { BrandLogo } from "../../../components/ui/branding";
import { usePublicPlans, useSignup } from "../api/signup";

type FormValues = z.input<typeof signupSchema>;

/** /signup: a prospect's trial company (spec 2 section 2); success goes to /login. */
export function SignupPage() {
  const { t } = useTranslation("signup");
  const navigate = useNavigate();
  const plans = usePublicPlans();
  const settings = usePublicSettings();
  const signup = useSignup();
  const disabled = settings.data?.allowregister === "disabled";
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<FormValues>({ resolver: zodResolver(signupSchema), defaultValues: { name: "", email: "", phone: "", password: "", planId: "" as unknown as number } });

  const onSubmit = handleSubmit((values) => {
    signup.mutate(signupSchema.parse(values), {
      onSuccess: () => {
        toast.success(t("success"));
        navigate("/login");
      },
      onError: () => toast.error(t("failure")),
    });
  });

  return (
    <Box sx={{ minHeight: "100vh", display: "flex", alignItems: "center", bgcolor: "background.default", py: 4 }}>
      <Container maxWidth="xs">
        <Paper sx={{ p: { xs: 3, sm: 4 } }} elevation={3}>
          <BrandLogo destination="signup" />
          <Typography variant="h4" component="p" align="center" color="primary" fontWeight={700} gutterBottom>
            {t("common:appName")}
          </Typography>
          <Typography variant="h6" component="h1" align="center" gutterBottom>
            {t("title")}
          </Typography>
          {disabled && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              {t("disabled")}
            </Alert>
          )}
          <Stack component="form" spacing={2} noValidate onSubmit={onSubmit}>
            <TextField label={t("name")} fullWidth autoFocus {...register("name")} error={!!errors.name} helperText={fieldError(errors.name)} />
            <TextField label={t("email")} type="email" fullWidth {...register("email")} error={!!errors.email} helperText={fieldError(errors.email)} />
            <Controller
              name="phone"
              control={control}
              render={({ field }) => (
                <TextField
                  label={t("phone")}
                  fullWidth
                  placeholder="(99) 99999-9999"
                  value={maskSignupPhone(String(field.value ?? ""))}
                  onChange={(e) => field.onChange(maskSignupPhone(e.target.value))}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={!!errors.phone}
                  helperText={fieldError(errors.phone)}
                />
              )}
            />
            <TextField label={t("password")} type="password" fullWidth {...register("password")} error={!!errors.password} helperText={fieldError(errors.password)} />
            <Controller
              name="planId"
              control={control}
              render={({ field }) => (
                <TextField
                  select
                  label={t("plan")}
                  fullWidth
                  value={field.value ?? ""}
                  onChange={(e) => field.onChange(Number(e.target.value))}
                  error={!!errors.planId}
                  helperText={errors.planId ? t("validation:Required") : undefined}
                  slotProps={{ select: { SelectDisplayProps: { "aria-label": t("plan") } as object } }}
                >
                  {(plans.data ?? []).map((p) => (
                    <MenuItem key={p.id} value={p.id}>
                      {t("planOption", { name: p.name, users: p.users, connections: p.connections, queues: p.queues, value: formatMoney(p.value) })}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Button type="submit" variant="contained" size="large" fullWidth loading={signup.isPending} disabled={disabled}>
              {t("submit")}
            </Button>
          </Stack>
          <Box sx={{ mt: 2, textAlign: "center" }}>
            <Link component={RouterLink} to="/login" variant="body2">
              {t("haveAccount")}
            </Link>
          </Box>
        </Paper>
      </Container>
    </Box>
  );
}
