import { Button, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyRow, ListPage } from "../../../components/ui/list-page";
import { useDebounced } from "../../../hooks/use-debounced";
import { toastError } from "../../../lib/toast-error";
import { downloadOptOutsCsv, useOptOutList } from "../api/lgpd";

/** The company's opt-out list (admins): newest first, search by number, CSV export. */
export function OptOutsPage() {
  const { t } = useTranslation("lgpd");
  const [search, setSearch] = useState("");
  const term = useDebounced(search, 300);
  const list = useOptOutList(term);
  const rows = list.data?.pages.flatMap((p) => p.optOuts) ?? [];
  return (
    <ListPage
      title={t("optOuts.title")}
      search={{ value: search, onChange: setSearch, label: t("optOuts.search") }}
      actions={
        <Button variant="contained" onClick={() => downloadOptOutsCsv().catch(toastError)}>
          {t("optOuts.exportCsv")}
        </Button>
      }
      loading={list.isFetching}
      scrollTestId="opt-outs-scroll"
      onScroll={(e) => {
        const el = e.currentTarget;
        if (list.hasNextPage && !list.isFetchingNextPage && el.scrollTop + el.clientHeight >= el.scrollHeight - 50) void list.fetchNextPage();
      }}
    >
      <Table size="small" stickyHeader>
        <TableHead>
          <TableRow>
            <TableCell>{t("optOuts.number")}</TableCell>
            <TableCell>{t("optOuts.when")}</TableCell>
            <TableCell>{t("optOuts.source")}</TableCell>
            <TableCell>{t("optOuts.message")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((o) => (
            <TableRow key={o.number} data-testid="opt-out-row">
              <TableCell>{o.number}</TableCell>
              <TableCell>{new Date(o.optedOutAt).toLocaleString()}</TableCell>
              <TableCell>{t(`optOuts.sources.${o.source}`)}</TableCell>
              <TableCell>{o.message}</TableCell>
            </TableRow>
          ))}
          {!rows.length && !list.isFetching && <EmptyRow colSpan={4} text={t("optOuts.empty")} />}
        </TableBody>
      </Table>
    </ListPage>
  );
}
