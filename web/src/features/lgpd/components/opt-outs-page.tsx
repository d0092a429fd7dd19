import { Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "../../../components/ui/data-table";
import { useDebounced } from "../../../hooks/use-debounced";
import { useRealtime } from "../../../lib/realtime";
import { toastError } from "../../../lib/toast-error";
import { downloadOptOutsCsv, invalidateOptOuts, useOptOutList } from "../api/lgpd";

/** /opt-outs (admins): the company's opt-out list, newest first, search by number, CSV export; live via `optOut`. */
export function OptOutsPage() {
  const { t } = useTranslation("lgpd");
  const qc = useQueryClient();
  const [search, setSearch] = useState("");
  const term = useDebounced(search, 500);
  const query = useOptOutList(term);
  useRealtime("optOut", () => void invalidateOptOuts(qc));
  // the table keys rows by a number id: a row's position stands in for it (numbers are unique in the list)
  const rows = (query.data?.pages.flatMap((p) => p.optOuts) ?? []).map((o, i) => ({ ...o, id: i + 1 }));
  return (
    <DataTable
      title={t("optOuts.title")}
      search={{ value: search, onChange: setSearch, label: t("optOuts.search") }}
      toolbar={
        <Button variant="contained" onClick={() => downloadOptOutsCsv().catch(toastError)}>
          {t("optOuts.exportCsv")}
        </Button>
      }
      scrollTestId="opt-outs-scroll"
      query={query}
      columns={[
        { header: t("optOuts.number"), cell: (o) => o.number },
        { header: t("optOuts.when"), cell: (o) => new Date(o.optedOutAt).toLocaleString() },
        { header: t("optOuts.source"), cell: (o) => t(`optOuts.sources.${o.source}`) },
        { header: t("optOuts.message"), cell: (o) => o.message },
      ]}
      rows={rows}
      rowTestId="opt-out-row"
      empty={t("optOuts.empty")}
    />
  );
}
