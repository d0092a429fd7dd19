import { PAGE_SIZE } from "@atende/shared/constants/business";
import type { InvoiceListResponse, InvoicePlainListResponse, InvoiceResponse, PaymentEventData } from "@atende/shared/contracts/http/invoices";
import { nextDueDate } from "@atende/shared/domain/companies/companies";
import { billingPeriodOf, INVOICE_LEAD_DAYS, INVOICES_PLAIN_MAX, type InvoicesQuery } from "@atende/shared/domain/invoices/invoices";
import { formatDate } from "@atende/shared/domain/format/dates";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { transact, TxConditionFailed } from "../../platform/db/transact";
import { AppError } from "../../platform/errors";
import type { Logger } from "../../platform/logger";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { Company } from "@atende/shared/domain/companies/company";
import type { CompanyBilling } from "../companies/companies.ports";
import type { PlanLookup } from "../plans/plans.ports";
import type { RealtimeService } from "../realtime/realtime.service";
import type { Db } from "../../platform/db/client";
import type { Invoice, InvoicesRepository } from "./invoices.repository";

const DAY_MS = 86_400_000;

export const toInvoiceResponse = (i: Invoice): InvoiceResponse => ({
  id: i.id,
  detail: i.detail,
  value: i.value,
  dueDate: i.dueDate,
  status: i.status,
  companyId: i.companyId,
  paidAt: i.paidAt,
  createdAt: i.createdAt,
});

/** Invoices (spec 2 "Invoices"; SERVER-RULES "Billing"): issued ahead of the due date, listed, paid once. */
export const createInvoicesService = (deps: {
  db: Db;
  invoices: InvoicesRepository;
  companies: CompanyBilling;
  plans: PlanLookup;
  realtime: RealtimeService;
  cursors: PageCursors;
  logger: Logger;
  clock: () => Date;
  leadDays?: number;
}) => {
  const { invoices, companies, plans, realtime, cursors, logger, clock } = deps;
  const leadDays = deps.leadDays ?? INVOICE_LEAD_DAYS;

  /** Issues the invoice of the company's current period if absent; the billing index entry is cleared either way. */
  const issueFor = async (company: Company, now: Date): Promise<Invoice | null> => {
    // a company left without a due date or a plan leaves the index (saving it with them puts it back)
    if (!company.dueDate) {
      await companies.clearAwaitingInvoice(company.id, null);
      return null;
    }
    const period = billingPeriodOf(company.dueDate);
    const plan = company.planId ? await plans.findById(company.planId) : null;
    if (!plan) {
      logger.warn("invoice not issued: company without plan", { companyId: company.id });
      await companies.clearAwaitingInvoice(company.id, company.dueDate);
      return null;
    }
    let created: Invoice | null = null;
    if (!(await invoices.periodExists(company.id, period))) {
      created = await invoices.createForPeriod(
        { companyId: company.id, detail: `${plan.name} - ${formatDate(company.dueDate)}`, value: plan.value, dueDate: company.dueDate, period },
        now,
      );
    }
    await companies.clearAwaitingInvoice(company.id, company.dueDate);
    return created;
  };

  return {
    /** The minute tick: every company due within the lead days whose period has no invoice yet gets one. */
    async issueDue(now: Date): Promise<number> {
      const until = new Date(now.getTime() + leadDays * DAY_MS).toISOString();
      let issued = 0;
      let cursor: Record<string, unknown> | undefined;
      do {
        const page = await companies.listAwaitingInvoice(until, 50, cursor);
        for (const company of page.items) {
          try {
            if (await issueFor(company, now)) issued++;
          } catch (err) {
            logger.error("invoice issue failed", { companyId: company.id, err: String(err) });
          }
        }
        cursor = page.cursor;
      } while (cursor);
      return issued;
    },

    /** GET /invoices/all: own company's; the operator may name another company. */
    async list(auth: AuthContext, query: InvoicesQuery): Promise<InvoiceListResponse | InvoicePlainListResponse> {
      const companyId = query.companyId ?? auth.companyId;
      if (companyId !== auth.companyId && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      const search = query.searchParam.trim().toLowerCase();
      if (!query.paged) {
        // the reference's answer: one array with every invoice; its clients never ask for a page after the first
        if (query.pageNumber > 1) return [];
        return (await invoices.listPage(companyId, search, INVOICES_PLAIN_MAX)).items.map(toInvoiceResponse);
      }
      const page = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["invoices", companyId, search]),
        page: query.pageNumber,
        now: clock(),
        fetch: async (cursor) => invoices.listPage(companyId, search, PAGE_SIZE, cursor),
      });
      return { list: page.items.map(toInvoiceResponse), hasMore: page.hasMore };
    },

    /** An unpaid invoice of the caller's company (anything else, another company's included, is not found). */
    async findPayable(companyId: number, id: number): Promise<Invoice> {
      const invoice = await invoices.findById(companyId, id);
      if (!invoice) throw new AppError("ERR_NO_INVOICE_FOUND");
      if (invoice.status === "paid") throw new AppError("ERR_INVOICE_ALREADY_PAID");
      return invoice;
    },

    attachCharge: invoices.attachCharge,
    findById: invoices.findById,

    /**
     * Records a verified payment: the invoice becomes paid and the company's due date moves by one recurrence, in
     * one transaction conditioned on both (not yet paid; due date unchanged). A replay finds the invoice paid and
     * changes nothing. Returns the new due date, or null when it was already paid.
     */
    async markPaid(invoice: Invoice, chargeId: string): Promise<string | null> {
      const now = clock();
      const company = await companies.findById(invoice.companyId);
      if (!company) throw new AppError("ERR_NOT_FOUND");
      const from = company.dueDate ?? invoice.dueDate;
      const to = nextDueDate(from, company.recurrence ?? "MENSAL", now);
      try {
        await transact(deps.db, [invoices.markPaidTx(invoice.companyId, invoice.id, chargeId, now), companies.dueDateMoveTx(company.id, from, to, now)]);
      } catch (e) {
        if (!(e instanceof TxConditionFailed)) throw e;
        const current = await invoices.findById(invoice.companyId, invoice.id);
        if (current?.status === "paid") return null;
        // the due date moved between our read and the write (operator edit): retry once on the fresh value
        const fresh = await companies.findById(invoice.companyId);
        if (!fresh?.dueDate || fresh.dueDate === from) throw e;
        const again = nextDueDate(fresh.dueDate, fresh.recurrence ?? "MENSAL", now);
        await transact(deps.db, [invoices.markPaidTx(invoice.companyId, invoice.id, chargeId, now), companies.dueDateMoveTx(company.id, fresh.dueDate, again, now)]);
        return publishPaid(invoice, again);
      }
      return publishPaid(invoice, to);
    },
  };

  async function publishPaid(invoice: Invoice, dueDate: string) {
    logger.info("invoice paid", { companyId: invoice.companyId, invoiceId: invoice.id, dueDate });
    const data: PaymentEventData = { action: "CONCLUIDA", invoiceId: invoice.id, company: { id: invoice.companyId, dueDate } };
    await realtime.publish(invoice.companyId, "payment", data, { kind: "admins" }).catch(() => 0);
    return dueDate;
  }
};
export type InvoicesService = ReturnType<typeof createInvoicesService>;
