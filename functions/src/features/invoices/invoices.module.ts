import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createInvoicesJob } from "./invoices.job";
import { createInvoicesRepository } from "./invoices.repository";
import { invoicesRoutes } from "./invoices.routes";
import { createInvoicesService, type InvoicesService } from "./invoices.service";

/** Invoices (docs/billing.md, docs/adr/0024-feature-modules.md): the list and the minute tick's issuing. */
export const createInvoicesModule = (deps: Omit<Parameters<typeof createInvoicesService>[0], "invoices" | "cursors"> & { guards: Guards; db: Db }): FeatureModule<InvoicesService> & {
  job: ReturnType<typeof createInvoicesJob>;
} => {
  const service = createInvoicesService({ ...deps, invoices: createInvoicesRepository(deps.db), cursors: createPageCursors(deps.db) });
  const job = createInvoicesJob({ invoices: service });
  return { service, job, routes: [{ path: "/invoices", app: invoicesRoutes(service, deps.guards) }], tick: [{ name: "invoices", run: async (now) => void (await job.run(now)) }] };
};
