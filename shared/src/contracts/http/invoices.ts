import type { InvoiceStatus } from "../../domain/invoices/invoices";

/** One invoice (spec 2 "Invoice"). */
export type InvoiceResponse = {
  id: number;
  detail: string;
  value: number;
  dueDate: string;
  status: InvoiceStatus;
  companyId: number;
  paidAt: string | null;
  createdAt: string;
};

/** GET /invoices/all?paged=1 (our app): a page and whether more follow. */
export type InvoiceListResponse = { list: InvoiceResponse[]; hasMore: boolean };
/** GET /invoices/all without `paged` (the spec's clients, as the reference answers): every invoice, newest first. */
export type InvoicePlainListResponse = InvoiceResponse[];

/** POST /subscription: the Pix charge (Efí/BACEN field names: qrcode.qrcode is the copy-paste code, valor.original the amount). */
export type SubscriptionResponse = {
  invoiceId: number;
  txid: string;
  valor: { original: string };
  qrcode: { qrcode: string };
  /** when the charge stops accepting payment */
  expiresAt: string;
};

/** Realtime `company-{id}-payment`: CONCLUIDA once the invoice is paid and the licence renewed. */
export type PaymentEventData = { action: "CONCLUIDA"; invoiceId: number; company: { id: number; dueDate: string } };

/** POST /subscription/webhook: the provider's notification (Efí Pix shape: one entry per Pix received). */
export type PixWebhookBody = { pix: { txid: string; endToEndId?: string; valor?: string; horario?: string }[] };
