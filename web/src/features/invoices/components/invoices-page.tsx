import { Button, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEBOUNCE_SEARCH_MS } from "@atende/shared/constants/business";
import type { InvoiceResponse } from "@atende/shared/contracts/http/invoices";
import { formatDate } from "@atende/shared/domain/format/dates";
import { invoiceDisplayStatus } from "@atende/shared/domain/invoices/invoices";
import { EmptyRow, ListPage } from "../../../components/ui/list-page";
import { useRealtime } from "../../../lib/realtime";
import { useDebounced } from "../../../hooks/use-debounced";
import { useInfiniteQueryScroll } from "../../../hooks/use-infinite-scroll";
import { invalidateInvoices, useInvoicesList } from "../api/invoices";
import { formatMoney } from "../money";
import { CheckoutDialog } from "./checkout-dialog";

/** /financeiro 'Faturas': search (500 ms), infinite scroll, PAGAR opens the checkout; paid rows show an inert PAGO. */
export function InvoicesPage() {
  const { t } = useTranslation("invoices");
  const qc = useQueryClient();
  const [text, setText] = useState("");
  const search = useDebounced(text.trim(), DEBOUNCE_SEARCH_MS);
  const query = useInvoicesList(search);
  const invoices = useMemo(() => (query.data?.pages ?? []).flatMap((p) => p.list), [query.data]);
  const onScroll = useInfiniteQueryScroll(query);
  const [paying, setPaying] = useState<InvoiceResponse | null>(null);
  useRealtime("payment", () => void invalidateInvoices(qc));

  return (
    <>
      <ListPage
        title={t("title")}
        search={{ value: text, onChange: setText, label: t("search") }}
        onScroll={onScroll}
        loading={query.isLoading || query.isFetchingNextPage}
        scrollTestId="invoices-scroll"
      >
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell align="center">{t("fields.id")}</TableCell>
              <TableCell>{t("fields.detail")}</TableCell>
              <TableCell align="center">{t("fields.value")}</TableCell>
              <TableCell align="center">{t("fields.dueDate")}</TableCell>
              <TableCell align="center">{t("fields.status")}</TableCell>
              <TableCell align="center">{t("fields.action")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {invoices.map((invoice) => {
              const status = invoiceDisplayStatus(invoice);
              return (
                <TableRow key={invoice.id} hover data-testid="invoice-row" data-status={status} sx={status === "overdue" ? { bgcolor: "rgba(211, 47, 47, 0.12)" } : undefined}>
                  <TableCell align="center">{invoice.id}</TableCell>
                  <TableCell>{invoice.detail}</TableCell>
                  <TableCell align="center">{formatMoney(invoice.value)}</TableCell>
                  <TableCell align="center">{formatDate(invoice.dueDate)}</TableCell>
                  <TableCell align="center">{t(`status.${status}`)}</TableCell>
                  <TableCell align="center">
                    {status === "paid" ? (
                      // inert on purpose: the spec shows PAGO as a button that does nothing
                      <Button size="small" variant="contained" color="success" tabIndex={-1} sx={{ pointerEvents: "none" }} data-testid="invoice-paid">
                        {t("paid")}
                      </Button>
                    ) : (
                      <Button size="small" variant="contained" color="secondary" onClick={() => setPaying(invoice)}>
                        {t("pay")}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
            {!query.isLoading && invoices.length === 0 && (
              <EmptyRow colSpan={6} text={t("empty")} />
            )}
          </TableBody>
        </Table>
      </ListPage>
      {paying && <CheckoutDialog invoice={paying} onClose={() => setPaying(null)} />}
    </>
  );
}
