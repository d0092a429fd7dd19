import { DEFAULT_SCHEDULES, DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import type { CycleSla } from "@atende/shared/contracts/http/tickets";
import type { BusinessCalendar, HoursEntry } from "@atende/shared/domain/calendar/business-time";
import { holidayDates } from "@atende/shared/domain/service-levels/holidays";
import { evaluateCycleSla, type SlaPolicy } from "@atende/shared/domain/service-levels/sla";
import type { HolidaysRepository } from "./holidays.repository";

/** What the planner reads of a ticket (the inbox's ticket record satisfies it). */
export type SlaTicket = {
  companyId: number;
  queueId: number | null;
  status: "pending" | "open" | "closed";
  lastFromMe: boolean;
  lastMessageAt: string;
  cycle: { finishedAt: string | null; firstResponseAt?: string | null; lastResponseAt?: string | null; sla?: CycleSla | null };
};

/** What the SLA feature reads of companies, queues and settings (answered by the composition root). */
export type SlaReads = {
  company(companyId: number): Promise<{ timezone?: string | null; schedules?: HoursEntry[] | null } | null>;
  queue(companyId: number, queueId: number): Promise<{ schedules?: HoursEntry[] | null; sla?: SlaPolicy | null } | null>;
  setting(companyId: number, key: "scheduleType"): Promise<string | undefined>;
};

/**
 * The business calendar of a queue: the company's time zone; the queue's hours when the schedule type is
 * "queue", the company's when "company", around the clock when schedules are off; minus Brazil's national
 * holidays (the years around now) and the company's own dates. Company-level reads are reused for `ttlMs`.
 */
export const createSlaPlanner = (deps: { reads: SlaReads; holidays: Pick<HolidaysRepository, "listByCompany">; ttlMs: number }) => {
  const { reads, holidays, ttlMs } = deps;
  const cache = new Map<number, { at: number; value: Promise<{ timeZone: string; scheduleType: string; companyHours: HoursEntry[]; holidays: Set<string> }> }>();
  const companyCalendar = (companyId: number, now: Date) => {
    const hit = cache.get(companyId);
    if (hit && ttlMs > 0 && Date.now() - hit.at < ttlMs) return hit.value;
    const value = (async () => {
      const [company, scheduleType, own] = await Promise.all([reads.company(companyId), reads.setting(companyId, "scheduleType"), holidays.listByCompany(companyId)]);
      const y = now.getUTCFullYear();
      return {
        timeZone: company?.timezone || DEFAULT_TIME_ZONE,
        scheduleType: scheduleType ?? "disabled",
        companyHours: company?.schedules ?? DEFAULT_SCHEDULES,
        holidays: holidayDates(own.map((h) => h.date), [y - 1, y, y + 1, y + 2]),
      };
    })();
    value.catch(() => cache.delete(companyId));
    cache.set(companyId, { at: Date.now(), value });
    return value;
  };

  const calendarFor = async (companyId: number, queue: { schedules?: HoursEntry[] | null } | null, now: Date): Promise<BusinessCalendar> => {
    const c = await companyCalendar(companyId, now);
    const hours = c.scheduleType === "queue" ? (queue?.schedules ?? []) : c.scheduleType === "company" ? c.companyHours : [];
    return { timeZone: c.timeZone, hours, holidays: c.holidays };
  };

  return {
    calendarFor,
    /** A company's holidays changed: its calendar is read again on the next evaluation. */
    forget(companyId: number) {
      cache.delete(companyId);
    },
    /**
     * The cycle's SLA after a change of the ticket (evaluateCycleSla); null: no clocks. Reads nothing for a ticket
     * without clocks and without a queue, or closed.
     */
    async evaluate(t: SlaTicket, now: Date): Promise<CycleSla | null> {
      const prev = t.cycle.sla ?? null;
      if (!prev && (t.queueId === null || t.status === "closed")) return null;
      const queue = t.queueId !== null ? await reads.queue(t.companyId, t.queueId) : null;
      const policy = queue?.sla ?? null;
      if (!prev && !policy) return null;
      const cal = await calendarFor(t.companyId, queue, now);
      return evaluateCycleSla(
        prev,
        {
          status: t.status,
          lastFromMe: t.lastFromMe,
          lastMessageAt: t.lastMessageAt,
          firstResponseAt: t.cycle.firstResponseAt ?? null,
          lastResponseAt: t.cycle.lastResponseAt ?? null,
          finishedAt: t.cycle.finishedAt,
        },
        policy,
        cal,
        now,
      );
    },
  };
};
export type SlaPlanner = ReturnType<typeof createSlaPlanner>;
