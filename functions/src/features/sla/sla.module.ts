import type { Db } from "../../platform/db/client";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { RealtimeService } from "../realtime/realtime.service";
import { createHolidaysRepository } from "./holidays.repository";
import { holidaysRoutes } from "./holidays.routes";
import { createHolidaysService, type HolidaysService } from "./holidays.service";
import { createSlaPlanner, type SlaPlanner, type SlaReads } from "./sla-planner";

/**
 * The SLA feature (issue 13 item 4, docs/adr/0033-sla-clocks-and-protocols.md): the company's holidays (CRUD) and
 * the planner the inbox runs on every ticket write (the cycle's clocks in business time). Built before the inbox,
 * which receives `planner` at construction; the minute tick's look at due clocks is the inbox's timer job.
 */
export const createSlaModule = (deps: {
  db: Db;
  reads: SlaReads;
  realtime: Pick<RealtimeService, "publish">;
  clock: () => Date;
  guards: Guards;
  ttlMs: number;
}): FeatureModule<HolidaysService> & { planner: SlaPlanner } => {
  const holidaysRepo = createHolidaysRepository(deps.db);
  const planner = createSlaPlanner({ reads: deps.reads, holidays: holidaysRepo, ttlMs: deps.ttlMs });
  const service = createHolidaysService({ holidays: holidaysRepo, realtime: deps.realtime, clock: deps.clock, onChanged: [(companyId) => planner.forget(companyId)] });
  return {
    service,
    planner,
    routes: [{ path: "/holidays", app: holidaysRoutes(service, deps.guards, deps.clock) }],
  };
};
export type SlaModule = ReturnType<typeof createSlaModule>;
