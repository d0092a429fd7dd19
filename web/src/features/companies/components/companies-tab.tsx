import { Stack } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CompanyResponse } from "@atende/shared/contracts/http/companies";
import { dueDateRowTone } from "@atende/shared/domain/companies/companies";
import { formatDate } from "@atende/shared/domain/format/dates";
import { DataTable } from "../../../components/ui/data-table";
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
      <DataTable
        layout="flow"
        panelSx={{ overflowX: "auto" }}
        columns={[
          { header: t("fields.name"), cell: (c) => c.name },
          { header: t("fields.email"), cell: (c) => c.email },
          { header: t("fields.plan"), cell: (c) => c.plan?.name ?? "-" },
          { header: t("fields.campaigns"), cell: (c) => (c.campaignsEnabled ? t("enabled") : t("disabled")) },
          { header: t("fields.status"), cell: (c) => (c.status ? t("yes") : t("no")) },
          { header: t("fields.createdAt"), cell: (c) => formatDate(c.createdAt) },
          { header: t("fields.dueDate"), cell: (c) => dayOf(c.dueDate) },
          { header: t("fields.recurrence"), cell: (c) => t(`recurrences.${c.recurrence}`, { defaultValue: c.recurrence }) },
        ]}
        rows={list.data ?? []}
        rowTestId="company-row"
        rowProps={(c) => {
          const tone = dueDateRowTone(c.dueDate);
          return { onClick: () => setSelected(c), sx: { cursor: "pointer", bgcolor: tone ? TONES[tone] : undefined }, "data-tone": tone ?? "" };
        }}
      />
    </Stack>
  );
}

/** 'Cadastrar Empresa': the empty form for a new company. */
export function CompanyRegisterTab() {
  return <CompanyForm company={null} onDone={() => undefined} />;
}
