import type { InvoicesService } from "./invoices.service";

/** Minute-tick job: issues invoices INVOICE_LEAD_DAYS ahead of each company's due date (once per period). */
export const createInvoicesJob = (deps: { invoices: InvoicesService }) => ({
  run: (now: Date) => deps.invoices.issueDue(now),
});
