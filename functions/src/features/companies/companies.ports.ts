import type { CompaniesRepository } from "./companies.repository";

/** Narrow ports the companies feature publishes (its repository implements them; docs/adr/0024-feature-modules.md). */
export type CompanyLookup = Pick<CompaniesRepository, "findById">;
export type CompanyPages = Pick<CompaniesRepository, "listPage">;
export type CompanyCreation = Pick<CompaniesRepository, "create">;
/** invoices: the due date moves with a paid invoice, in one transaction */
export type CompanyBilling = Pick<CompaniesRepository, "findById" | "listAwaitingInvoice" | "clearAwaitingInvoice" | "dueDateMoveTx">;
