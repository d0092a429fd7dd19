import { Button, Grid, MenuItem, Stack, TextField } from "@mui/material";
import { type ComponentType, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { RECURRENCES } from "@atende/shared/constants/business";
import type { CompanyResponse } from "@atende/shared/contracts/http/companies";
import { nextDueDate } from "@atende/shared/domain/companies/companies";
import { toast } from "../../../lib/toast";
import { type CompanyFormValues, useAllPlans, useDeleteCompany, useSaveCompany } from "../api/companies";

const EMPTY: CompanyFormValues = { name: "", email: "", phone: "", planId: "", status: true, campaignsEnabled: true, dueDate: null, recurrence: "MENSAL" };
const fromCompany = (c: CompanyResponse): CompanyFormValues => ({
  name: c.name,
  email: c.email,
  phone: c.phone,
  planId: c.planId ?? "",
  status: c.status,
  campaignsEnabled: c.campaignsEnabled,
  dueDate: c.dueDate ? c.dueDate.slice(0, 10) : null,
  recurrence: c.recurrence,
});

/** The operator's company form: Limpar, Excluir, +Vencimento, Usuário, Salvar (spec 2 section 2). */
/** The users feature's "new user" dialog, handed in by the page that composes both (features do not import each other). */
export type NewUserDialog = ComponentType<{ companyId: number; onClose: () => void }>;

export function CompanyForm({ company, onDone, UserDialog }: { company: CompanyResponse | null; onDone: () => void; UserDialog?: NewUserDialog }) {
  const { t } = useTranslation("companies");
  const plans = useAllPlans();
  const save = useSaveCompany();
  const remove = useDeleteCompany();
  const [values, setValues] = useState<CompanyFormValues>(company ? fromCompany(company) : EMPTY);
  const [touched, setTouched] = useState(false);
  const [usersOpen, setUsersOpen] = useState(false);
  useEffect(() => setValues(company ? fromCompany(company) : EMPTY), [company]);
  const emailMissing = !values.email.trim();
  const planMissing = values.planId === "";

  const submit = () => {
    setTouched(true);
    if (emailMissing || planMissing) return;
    // an empty or invalid due date is sent as null (spec 2 section 5)
    const dueDate = values.dueDate && !Number.isNaN(Date.parse(values.dueDate)) ? values.dueDate : null;
    save.mutate(
      { id: company?.id, input: { ...values, dueDate } },
      {
        onSuccess: () => {
          toast.success(t("success"));
          setValues(EMPTY);
          setTouched(false);
          onDone();
        },
        onError: () => toast.error(t("saveFailure")),
      },
    );
  };

  const set = <K extends keyof CompanyFormValues>(key: K, value: CompanyFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  return (
    <Stack spacing={2} data-testid="company-form">
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField fullWidth size="small" label={t("fields.name")} value={values.name} onChange={(e) => set("name", e.target.value)} />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField fullWidth size="small" label={t("fields.email")} value={values.email} onChange={(e) => set("email", e.target.value)} error={touched && emailMissing} helperText={touched && emailMissing ? t("validation:Required") : undefined} />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField fullWidth size="small" label={t("fields.phone")} value={values.phone} onChange={(e) => set("phone", e.target.value)} />
        </Grid>
        <Grid size={{ xs: 12, md: 3 }}>
          <TextField select fullWidth size="small" label={t("fields.plan")} value={values.planId} onChange={(e) => set("planId", Number(e.target.value))} error={touched && planMissing} helperText={touched && planMissing ? t("validation:Required") : undefined}>
            {(plans.data ?? []).map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.name}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, md: 2 }}>
          <TextField select fullWidth size="small" label={t("fields.status")} value={String(values.status)} onChange={(e) => set("status", e.target.value === "true")}>
            <MenuItem value="true">{t("yes")}</MenuItem>
            <MenuItem value="false">{t("no")}</MenuItem>
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, md: 2 }}>
          <TextField select fullWidth size="small" label={t("fields.campaigns")} value={String(values.campaignsEnabled)} onChange={(e) => set("campaignsEnabled", e.target.value === "true")}>
            <MenuItem value="true">{t("enabled")}</MenuItem>
            <MenuItem value="false">{t("disabled")}</MenuItem>
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, md: 3 }}>
          <TextField fullWidth size="small" type="date" label={t("fields.dueDate")} value={values.dueDate ?? ""} onChange={(e) => set("dueDate", e.target.value || null)} slotProps={{ inputLabel: { shrink: true } }} />
        </Grid>
        <Grid size={{ xs: 12, md: 2 }}>
          <TextField select fullWidth size="small" label={t("fields.recurrence")} value={values.recurrence} onChange={(e) => set("recurrence", e.target.value)}>
            {Object.keys(RECURRENCES).map((r) => (
              <MenuItem key={r} value={r} disabled={r !== "MENSAL"}>
                {t(`recurrences.${r}`)}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
      </Grid>
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <Button variant="outlined" onClick={() => { setValues(EMPTY); setTouched(false); onDone(); }}>
          {t("buttons.clear")}
        </Button>
        {company && (
          <Button
            variant="outlined"
            color="error"
            onClick={() =>
              remove.mutate(company.id, {
                onSuccess: () => {
                  toast.success(t("success"));
                  onDone();
                },
                onError: () => toast.error(t("deleteFailure")),
              })
            }
          >
            {t("buttons.delete")}
          </Button>
        )}
        <Button variant="outlined" onClick={() => set("dueDate", nextDueDate(values.dueDate, values.recurrence as keyof typeof RECURRENCES).slice(0, 10))}>
          {t("buttons.addDue")}
        </Button>
        {company && (
          <Button variant="outlined" onClick={() => setUsersOpen(true)}>
            {t("buttons.user")}
          </Button>
        )}
        <Button variant="contained" onClick={submit} loading={save.isPending}>
          {t("buttons.save")}
        </Button>
      </Stack>
      {usersOpen && company && UserDialog && <UserDialog companyId={company.id} onClose={() => setUsersOpen(false)} />}
    </Stack>
  );
}
