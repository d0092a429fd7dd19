import * as z from "zod";
import { pageNumberParam } from "../../contracts/http/paging";
import { flag, requiredId } from "../../contracts/body-values";
import { moneySchema } from "../money/money";
import { daysUntilDue } from "../auth/auth";

/** Days before a company's due date when the minute tick issues the period's invoice (SERVER-RULES "Billing"). */
export const INVOICE_LEAD_DAYS = 10;

/** Invoice status as stored: the spec knows only paid or not. */
export type InvoiceStatus = "paid" | "open";

/** What the Faturas table shows: 'Pago'; 'Vencido' when the due date is before today and not paid; otherwise 'Em Aberto'. */
export type InvoiceDisplayStatus = "paid" | "overdue" | "open";

export const invoiceDisplayStatus = (invoice: { status: InvoiceStatus; dueDate: string }, now: Date = new Date()): InvoiceDisplayStatus => {
  if (invoice.status === "paid") return "paid";
  const days = daysUntilDue(invoice.dueDate, now);
  return days !== null && days < 0 ? "overdue" : "open";
};

/** The billing period an invoice covers is named by the due date it pays (yyyy-MM-dd, UTC). */
export const billingPeriodOf = (dueDate: string): string => new Date(dueDate).toISOString().slice(0, 10);

/** Invoices in the plain-array answer of GET /invoices/all at most (one a month: decades of them). */
export const INVOICES_PLAIN_MAX = 500;

/**
 * GET /invoices/all (an operator may add companyId to see another company's). Without `paged` the answer is the
 * reference's plain array (every invoice on page 1, none after); `paged=1` (our app) answers `{ list, hasMore }` a page
 * at a time (docs/adr/0011-accepting-spec-clients.md).
 */
export const invoicesQuerySchema = z.object({
  searchParam: z.string().max(100).optional().default(""),
  pageNumber: pageNumberParam,
  companyId: z.coerce.number().int().positive().optional(),
  paged: flag().optional().default(false),
});
export type InvoicesQuery = z.infer<typeof invoicesQuerySchema>;

const planChoiceSchema = z.object({
  users: z.coerce.number().int().min(0).max(100_000).optional(),
  connections: z.coerce.number().int().min(0).max(100_000).optional(),
  price: moneySchema.optional(),
});

/**
 * POST /subscription: the spec's subscription payload. Only invoiceId decides what is charged: the amount is
 * always the invoice's own value (a browser never sets a price). The rest is accepted for compatibility.
 */
export const subscriptionSchema = z.object({
  invoiceId: requiredId(),
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  address2: z.string().max(200).optional(),
  city: z.string().max(100).optional(),
  state: z.string().max(60).optional(),
  zipcode: z.string().max(20).optional(),
  country: z.string().max(60).optional(),
  useAddressForPaymentDetails: flag().optional(),
  nameOnCard: z.string().max(100).optional(),
  cardNumber: z.string().max(30).optional(),
  cvv: z.string().max(6).optional(),
  plan: z.union([planChoiceSchema, z.string().max(2000)]).optional(),
  price: moneySchema.optional(),
  users: z.coerce.number().int().min(0).max(100_000).optional(),
  connections: z.coerce.number().int().min(0).max(100_000).optional(),
});
export type SubscriptionInput = z.infer<typeof subscriptionSchema>;

/** Pix money: two decimals with a dot, as Pix APIs carry it ("100.00"). */
export const pixAmount = (value: number): string => value.toFixed(2);
