import { slicePage } from "@atende/shared/contracts/http/paging";
import { COMPANY_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import { DEFAULT_SCHEDULES, DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import type { CompanyPlanResponse, CompanyResponse } from "@atende/shared/contracts/http/companies";
import type { CompanyInput } from "@atende/shared/domain/companies/companies";
import type { Plan, PlanFlag } from "@atende/shared/domain/plans/plan";
import type { ScheduleEntry } from "@atende/shared/domain/queues/queues";
import { AppError } from "../../platform/errors";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { PlanCatalog } from "../plans/plans.ports";
import type { SettingsStore } from "../settings/settings.ports";
import type { CompaniesRepository, Company, NewCompany } from "./companies.repository";
import type { AuditRecorder } from "../audit/audit.port";
import { auditChanges, auditEntry, systemActor, type AuditCaller } from "../audit/audit-diff";

const PAGE = 20;

export const createCompaniesService = (deps: {
  /** the audit trail (docs/adr/0029) */
  audit: AuditRecorder;
  companies: CompaniesRepository;
  plans: PlanCatalog;
  settings: SettingsStore;
  clock?: () => Date;
  /** run before a company goes (users: remove its people and their logins); passed at construction (ADR 0024) */
  onDeleted?: readonly ((companyId: number) => Promise<void>)[];
}) => {
  const { companies, plans, settings } = deps;
  const clock = deps.clock ?? (() => new Date());
  const deleteHooks = deps.onDeleted ?? [];

  const toResponse = async (company: Company, planNames?: Map<number, string>): Promise<CompanyResponse> => {
    const campaigns = await settings.get(company.id, "campaignsEnabled");
    let planName = company.planId ? planNames?.get(company.planId) : undefined;
    if (company.planId && planName === undefined) planName = (await plans.findById(company.planId))?.name;
    return {
      id: company.id,
      name: company.name,
      email: company.email,
      phone: company.phone,
      planId: company.planId,
      plan: company.planId && planName !== undefined ? { id: company.planId, name: planName } : null,
      status: company.status,
      campaignsEnabled: (campaigns?.value ?? "true") === "true",
      settings: [{ key: "campaignsEnabled", value: campaigns?.value ?? "true" }],
      dueDate: company.dueDate,
      recurrence: company.recurrence,
      timezone: company.timezone ?? DEFAULT_TIME_ZONE,
      trialExpiration: company.trialExpiration ?? null,
      createdAt: company.createdAt,
      billingName: company.billingName,
      addressZipCode: company.addressZipCode,
      addressStreet: company.addressStreet,
      addressState: company.addressState,
      addressCity: company.addressCity,
      addressDistrict: company.addressDistrict,
      schedules: company.schedules ?? DEFAULT_SCHEDULES,
    };
  };

  /** Every company (operator calls only; a platform holds hundreds, paged through the index). */
  const listAllCompanies = async (): Promise<Company[]> => {
    const all: Company[] = [];
    let cursor: string | undefined;
    do {
      const page = await companies.listPage(100, cursor);
      all.push(...page.items);
      cursor = page.cursor;
    } while (cursor);
    return all;
  };

  const findOrFail = async (id: number) => {
    const company = await companies.findById(id);
    if (!company) throw new AppError("ERR_NOT_FOUND");
    return company;
  };

  const assertPlanExists = async (planId: number) => {
    if (!(await plans.findById(planId))) throw new AppError("ERR_VALIDATION", { field: "planId" });
  };

  const fromInput = (input: CompanyInput): Omit<NewCompany, "trialExpiration" | "document"> => ({
    name: input.name,
    email: input.email,
    phone: input.phone,
    planId: input.planId,
    status: input.status,
    dueDate: input.dueDate,
    recurrence: input.recurrence,
    timezone: input.timezone ?? DEFAULT_TIME_ZONE,
    billingName: input.billingName,
    addressZipCode: input.addressZipCode,
    addressStreet: input.addressStreet,
    addressState: input.addressState,
    addressCity: input.addressCity,
    addressDistrict: input.addressDistrict,
  });

  return {
    /** GET /companies/listPlan/{companyId}: own company only, unless the caller is the operator. */
    async listPlan(auth: AuthContext, companyId: number): Promise<CompanyPlanResponse> {
      if (companyId !== auth.companyId && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      const company = await companies.findById(companyId);
      if (!company) throw new AppError("ERR_NOT_FOUND");
      const plan = company.planId ? await plans.findById(company.planId) : null;
      if (!plan) throw new AppError("ERR_NOT_FOUND");
      return { id: company.id, name: company.name, dueDate: company.dueDate, plan };
    },

    /** Server-side plan gating: a feature whose flag is off answers ERR_NO_PERMISSION on every call. */
    async assertPlanAllows(companyId: number, flag: PlanFlag): Promise<void> {
      const company = await companies.findById(companyId);
      const plan = company?.planId ? await plans.findById(company.planId) : null;
      if (!plan || plan[flag] !== true) throw new AppError("ERR_NO_PERMISSION");
    },

    /** The company's plan, for limit checks (users, connections, queues). No plan means no room at all. */
    async planOf(companyId: number): Promise<Pick<Plan, "users" | "connections" | "queues">> {
      const company = await companies.findById(companyId);
      const plan = company?.planId ? await plans.findById(company.planId) : null;
      return plan ?? { users: 0, connections: 0, queues: 0 };
    },

    async findById(id: number): Promise<Company | null> {
      return companies.findById(id);
    },

    /** GET /companies?searchParam&pageNumber (operator). */
    async listPaged(searchParam: string, pageNumber: number) {
      const term = searchParam.trim().toLowerCase();
      const all = (await listAllCompanies())
        .filter((c) => !term || c.name.toLowerCase().includes(term) || c.email.toLowerCase().includes(term))
        .sort((a, b) => a.name.localeCompare(b.name));
      const names = new Map((await plans.listAll()).map((p) => [p.id, p.name]));
      const { page, count, hasMore } = slicePage(all, pageNumber, PAGE);
      return { companies: await Promise.all(page.map((c) => toResponse(c, names))), count, hasMore };
    },

    /** GET /companies/list (operator): every company, ordered by name. */
    async listAll(): Promise<CompanyResponse[]> {
      const names = new Map((await plans.listAll()).map((p) => [p.id, p.name]));
      const all = (await listAllCompanies()).sort((a, b) => a.name.localeCompare(b.name));
      return Promise.all(all.map((c) => toResponse(c, names)));
    },

    /** GET /companies/{id}: the operator any, others only their own. */
    async get(auth: AuthContext, id: number): Promise<CompanyResponse> {
      if (id !== auth.companyId && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      return toResponse(await findOrFail(id));
    },

    /** POST /companies (operator): the company with the default settings. */
    async create(input: CompanyInput, extra: { trialExpiration?: string | null } = {}, auth?: AuditCaller): Promise<CompanyResponse> {
      await assertPlanExists(input.planId);
      const now = clock();
      const company = await companies.create({ ...fromInput(input), trialExpiration: extra.trialExpiration ?? null, document: "" }, now);
      await settings.putMany(
        company.id,
        { ...COMPANY_SETTING_DEFAULTS, campaignsEnabled: String(input.campaignsEnabled ?? true) },
        now,
      );
      // recorded under the new company (its admins see who created it); a sign-up has no caller: the platform did it
      const changes = auditChanges(null, company);
      await deps.audit.record(
        auth
          ? auditEntry(auth, "create", { kind: "company", id: company.id }, changes, company.id)
          : { companyId: company.id, actor: systemActor("signup"), ip: "unknown", action: "create", record: { kind: "company", id: company.id }, changes },
      );
      return toResponse(company);
    },

    /** Removes a company that a failed sign-up half created. */
    async discard(id: number): Promise<void> {
      await companies.remove(id);
    },

    /** PUT /companies/{id} (operator). */
    async update(id: number, input: CompanyInput, auth?: AuditCaller): Promise<CompanyResponse> {
      const before = await findOrFail(id);
      await assertPlanExists(input.planId);
      const now = clock();
      const updated = await companies.update(id, fromInput(input), now);
      if (!updated) throw new AppError("ERR_NOT_FOUND");
      if (input.campaignsEnabled !== undefined) await settings.put(id, "campaignsEnabled", String(input.campaignsEnabled), now);
      if (auth) await deps.audit.record(auditEntry(auth, "update", { kind: "company", id }, auditChanges(before, updated), id));
      return toResponse(updated);
    },

    /** DELETE /companies/{id} (operator): never the operator's own company. */
    async remove(auth: AuthContext, id: number): Promise<void> {
      if (id === auth.companyId) throw new AppError("ERR_NO_PERMISSION");
      const before = await findOrFail(id);
      for (const hook of deleteHooks) await hook(id);
      await companies.remove(id);
      await deps.audit.record(auditEntry(auth, "delete", { kind: "company", id }, auditChanges(before, null), id));
    },

    /** PUT /companies/{id}/schedules: the company's admins (or the operator). */
    async updateSchedules(auth: AuthContext, id: number, schedules: ScheduleEntry[]): Promise<CompanyResponse> {
      if (id !== auth.companyId && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      const before = await findOrFail(id);
      const updated = await companies.update(id, { schedules }, clock());
      if (!updated) throw new AppError("ERR_NOT_FOUND");
      await deps.audit.record(auditEntry(auth, "update", { kind: "company", id }, auditChanges(before, updated), id));
      return toResponse(updated);
    },

    /** The company's time zone (issue 13), by its own admin or the operator. */
    async updateTimezone(auth: AuthContext, id: number, timezone: string): Promise<CompanyResponse> {
      if (id !== auth.companyId && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      const before = await findOrFail(id);
      const updated = await companies.update(id, { timezone }, clock());
      if (!updated) throw new AppError("ERR_NOT_FOUND");
      await deps.audit.record(auditEntry(auth, "update", { kind: "company", id }, auditChanges(before, updated), id));
      return toResponse(updated);
    },

    /** Working hours of a company for the out-of-hours rule (schedule type 'company'). */
    async schedulesOf(companyId: number): Promise<ScheduleEntry[]> {
      return (await companies.findById(companyId))?.schedules ?? DEFAULT_SCHEDULES;
    },
  };
};
export type CompaniesService = ReturnType<typeof createCompaniesService>;
