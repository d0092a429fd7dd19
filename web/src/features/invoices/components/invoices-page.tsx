import { Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEBOUNCE_SEARCH_MS } from "@atende/shared/constants/business";
import type { InvoiceResponse } from "@atende/shared/contracts/http/invoices";
import { formatDate } from "@atende/shared/domain/format/dates";
import { invoiceDisplayStatus } from "@atende/shared/domain/invoices/invoices";
import { DataTable } from "../../../components/ui/data-table";
import { useRealtime } from "../../../lib/realtime";
import { useDebounced } from "../../../hooks/use-debounced";
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
  const [paying, setPaying] = useState<InvoiceResponse | null>(null);
  useRealtime("payment", () => void invalidateInvoices(qc));

  return (
    <>
      <DataTable
        title={t("title")}
        search={{ value: text, onChange: setText, label: t("search") }}
        query={query}
        scrollTestId="invoices-scroll"
        columns={[
          { header: t("fields.id"), align: "center", cell: (invoice) => invoice.id },
          { header: t("fields.detail"), cell: (invoice) => invoice.detail },
          { header: t("fields.value"), align: "center", cell: (invoice) => formatMoney(invoice.value) },
          { header: t("fields.dueDate"), align: "center", cell: (invoice) => formatDate(invoice.dueDate) },
          { header: t("fields.status"), align: "center", cell: (invoice) => t(`status.${invoiceDisplayStatus(invoice)}`) },
          {
            header: t("fields.action"),
            align: "center",
            cell: (invoice) =>
              invoiceDisplayStatus(invoice) === "paid" ? (
                // inert on purpose: the spec shows PAGO as a button that does nothing
                <Button size="small" variant="contained" color="success" tabIndex={-1} sx={{ pointerEvents: "none" }} data-testid="invoice-paid">
                  {t("paid")}
                </Button>
              ) : (
                <Button size="small" variant="contained" color="secondary" onClick={() => setPaying(invoice)}>
                  {t("pay")}
                </Button>
              ),
          },
        ]}
        rows={invoices}
        rowTestId="invoice-row"
        rowProps={(invoice) => {
          const status = invoiceDisplayStatus(invoice);
          return { "data-status": status, sx: status === "overdue" ? { bgcolor: "rgba(211, 47, 47, 0.12)" } : undefined };
        }}
        empty={t("empty")}
      />
      {paying && <CheckoutDialog invoice={paying} onClose={() => setPaying(null)} />}
    </>
  );
}
