import { Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CompanyResponse } from "@atende/shared/contracts/http/companies";
import { dueDateRowTone } from "@atende/shared/domain/companies/companies";
import { formatDate } from "@atende/shared/domain/format/dates";
import { toast } from "../../../lib/toast";
import { useCompaniesList } from "../api/companies";
import { CompanyForm, type NewUserDialog } from "./company-form";

/** dd/MM/yyyy of the stored calendar day (due dates are days, not instants). */
const dayOf = (iso: string | null) => (iso ? iso.slice(0, 10).split("-").reverse().join("/") : "");

const TONES = { overdue: "rgba(244, 67, 54, 0.25)", soon: "rgba(255, 235, 59, 0.35)" } as const;

/** 'Empresas': the form over the table; a row click loads it; rows tinted by due date (yellow 1-5 days, red due or past). */
export function CompaniesTab({ UserDialog }: { UserDialog: NewUserDialog }) {
  const { t } = useTranslation("companies");
  const list = useCompaniesList();
  const [selected, setSelected] = useState<CompanyResponse | null>(null);
  useEffect(() => {
    if (list.isError) toast.error(t("listFailure"));
  }, [list.isError, t]);
  return (
    <Stack spacing={2}>
      <CompanyForm company={selected} onDone={() => setSelected(null)} UserDialog={UserDialog} />
      <Paper variant="outlined" sx={{ overflowX: "auto" }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("fields.name")}</TableCell>
              <TableCell>{t("fields.email")}</TableCell>
              <TableCell>{t("fields.plan")}</TableCell>
              <TableCell>{t("fields.campaigns")}</TableCell>
              <TableCell>{t("fields.status")}</TableCell>
              <TableCell>{t("fields.createdAt")}</TableCell>
              <TableCell>{t("fields.dueDate")}</TableCell>
              <TableCell>{t("fields.recurrence")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(list.data ?? []).map((c) => {
              const tone = dueDateRowTone(c.dueDate);
              return (
                <TableRow key={c.id} hover onClick={() => setSelected(c)} sx={{ cursor: "pointer", bgcolor: tone ? TONES[tone] : undefined }} data-testid="company-row" data-tone={tone ?? ""}>
                  <TableCell>{c.name}</TableCell>
                  <TableCell>{c.email}</TableCell>
                  <TableCell>{c.plan?.name ?? "-"}</TableCell>
                  <TableCell>{c.campaignsEnabled ? t("enabled") : t("disabled")}</TableCell>
                  <TableCell>{c.status ? t("yes") : t("no")}</TableCell>
                  <TableCell>{formatDate(c.createdAt)}</TableCell>
                  <TableCell>{dayOf(c.dueDate)}</TableCell>
                  <TableCell>{t(`recurrences.${c.recurrence}`, { defaultValue: c.recurrence })}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Paper>
    </Stack>
  );
}

/** 'Cadastrar Empresa': the empty form for a new company. */
export function CompanyRegisterTab() {
  return <CompanyForm company={null} onDone={() => undefined} />;
}
