import { brazilHolidays } from "@atende/shared/domain/calendar/brazil-holidays";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { CompanyHoliday, HolidayInput, HolidaysResponse } from "@atende/shared/domain/service-levels/holidays";
import { AppError } from "../../platform/errors";
import type { RealtimeService } from "../realtime/realtime.service";
import type { HolidaysRepository } from "./holidays.repository";

/** The company's holidays list (settings page): CRUD by admins, read by anyone of the company. */
export const createHolidaysService = (deps: { holidays: HolidaysRepository; realtime: Pick<RealtimeService, "publish">; clock: () => Date; onChanged?: ((companyId: number) => void)[] }) => {
  const { holidays, realtime, clock } = deps;
  const find = async (companyId: number, id: number) => {
    const h = await holidays.findById(companyId, id);
    if (!h) throw new AppError("ERR_NOT_FOUND");
    return h;
  };
  const changed = async (companyId: number, action: "update" | "delete", holiday: CompanyHoliday | { id: number }) => {
    for (const f of deps.onChanged ?? []) f(companyId);
    await realtime.publish(companyId, "setting", { action: action === "delete" ? "holidayDelete" : "holidayUpdate", holiday }, { kind: "company" });
  };
  return {
    async list(auth: AuthContext, year: number): Promise<HolidaysResponse> {
      return { holidays: await holidays.listByCompany(auth.companyId), national: brazilHolidays(year) };
    },
    async create(auth: AuthContext, input: HolidayInput): Promise<CompanyHoliday> {
      const h = await holidays.create(auth.companyId, input, clock());
      await changed(auth.companyId, "update", h);
      return h;
    },
    async update(auth: AuthContext, id: number, input: HolidayInput): Promise<CompanyHoliday> {
      const before = await find(auth.companyId, id);
      const next = { ...before, ...input, updatedAt: clock().toISOString() };
      await holidays.put(next);
      await changed(auth.companyId, "update", next);
      return next;
    },
    async remove(auth: AuthContext, id: number): Promise<void> {
      await find(auth.companyId, id);
      await holidays.remove(auth.companyId, id);
      await changed(auth.companyId, "delete", { id });
    },
  };
};
export type HolidaysService = ReturnType<typeof createHolidaysService>;
