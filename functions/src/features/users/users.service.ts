import { slicePage } from "@atende/shared/contracts/http/paging";
import type { UserEventData, UserListResponse, UserResponse } from "@atende/shared/contracts/http/users";
import { can, isAdmin } from "@atende/shared/domain/permissions/permissions";
import { isOverPlanLimit } from "@atende/shared/domain/plans/plan";
import type { UserCreateInput, UserUpdateInput } from "@atende/shared/domain/users/users";
import { PAGE_SIZE, SEARCH_MIN_CHARS } from "@atende/shared/constants/business";
import { AppError } from "../../platform/errors";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { hashPassword } from "../auth/password";
import type { CompaniesService } from "../companies/companies.service";
import type { QueuesService } from "../queues/queues.service";
import type { RealtimeService } from "../realtime/realtime.service";
import type { WhatsappsOfCompany } from "../whatsapps/whatsapps.ports";
import type { UserRecord, UsersRepository } from "./users.repository";
import type { AuditRecorder } from "../audit/audit.port";
import { auditChanges, auditEntry } from "../audit/audit-diff";
import { toUserResponse, userLookups, type UserLookups } from "./user-view";

/** What the audit trail shows of a user: the fields an admin edits (the hash only as "changed", masked). */
const auditView = (u: UserRecord) => ({
  name: u.name,
  email: u.email,
  profile: u.profile,
  super: u.super,
  whatsappId: u.whatsappId,
  allTicket: u.allTicket,
  queueIds: u.queueIds,
  passwordHash: u.passwordHash,
});

export const createUsersService = (deps: {
  /** the audit trail (docs/adr/0029) */
  audit: AuditRecorder;
  /** a deleted user's two-factor state goes with them (the mfa service's removeFor) */
  onDeleted?: ((companyId: number, userId: number) => Promise<void>)[];
  users: UsersRepository;
  queues: QueuesService;
  companies: CompaniesService;
  whatsapps: WhatsappsOfCompany;
  realtime: RealtimeService;
  clock: () => Date;
  bcryptRounds: number;
}) => {
  const { users, queues, companies, whatsapps, realtime, clock } = deps;

  /** Names of the company's queues and connections, once per call, to decorate many users. */
  const lookups = (companyId: number) => userLookups({ queues, whatsapps }, companyId);
  type Lookups = UserLookups;
  const toResponse = toUserResponse;

  const publish = (companyId: number, data: UserEventData) => realtime.publish(companyId, "user", data, { kind: "admins" });

  /** Keeps only queues and a connection that belong to the company. */
  const sanitizeLinks = (l: Lookups, input: { queueIds?: number[]; whatsappId?: number | null }) => ({
    queueIds: input.queueIds?.filter((id) => l.queues.has(id)),
    whatsappId: input.whatsappId === undefined ? undefined : input.whatsappId && l.whatsapps.has(input.whatsappId) ? input.whatsappId : null,
  });

  const findOrFail = async (companyId: number, id: number) => {
    const user = await users.findById(companyId, id);
    if (!user) throw new AppError("ERR_NO_USER_FOUND");
    return user;
  };

  /** The operator may act on another company's users (the company form's 'Usuário' button). */
  const targetCompany = (auth: AuthContext, companyId?: number) => (companyId && auth.user.super ? companyId : auth.companyId);

  return {
    /** GET /users/?searchParam&pageNumber: names or emails containing the term (3+ characters), 20 a page. */
    async list(auth: AuthContext, searchParam: string, pageNumber: number): Promise<UserListResponse> {
      const term = searchParam.trim().toLowerCase();
      // A company's users are bounded by its plan: one query of the partition, then filter and page.
      const all = (await users.listByCompany(auth.companyId))
        .filter((u) => term.length < SEARCH_MIN_CHARS || u.name.toLowerCase().includes(term) || u.email.includes(term))
        .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
      const l = await lookups(auth.companyId);
      const { page, count, hasMore } = slicePage(all, pageNumber, PAGE_SIZE);
      return { users: page.map((u) => toResponse(u, l)), count, hasMore };
    },

    /** GET /users/list?companyId: every user of the company (pickers). */
    async listAll(auth: AuthContext, companyId?: number): Promise<UserResponse[]> {
      const cid = targetCompany(auth, companyId);
      const l = await lookups(cid);
      return (await users.listByCompany(cid)).sort((a, b) => a.name.localeCompare(b.name)).map((u) => toResponse(u, l));
    },

    async get(auth: AuthContext, id: number): Promise<UserResponse> {
      const user = await findOrFail(auth.companyId, id);
      return toResponse(user, await lookups(auth.companyId));
    },

    async create(auth: AuthContext, input: UserCreateInput & { companyId?: number }): Promise<UserResponse> {
      if (!isAdmin(auth.user.profile) && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      const companyId = targetCompany(auth, input.companyId);
      if (!(await companies.findById(companyId))) throw new AppError("ERR_NOT_FOUND");
      const existing = await users.listByCompany(companyId);
      if (isOverPlanLimit(await companies.planOf(companyId), "users", existing.length)) throw new AppError("ERR_PLAN_LIMIT_USERS");
      const l = await lookups(companyId);
      const links = sanitizeLinks(l, input);
      const user = await users.create(
        companyId,
        {
          name: input.name,
          email: input.email,
          passwordHash: await hashPassword(input.password, deps.bcryptRounds),
          profile: can(auth.user.profile, "user-modal:editProfile") ? (input.profile ?? "user") : "user",
          super: false,
          whatsappId: links.whatsappId ?? null,
          allTicket: input.allTicket ?? "desabled",
          queueIds: can(auth.user.profile, "user-modal:editQueues") ? (links.queueIds ?? []) : [],
        },
        clock(),
      );
      const response = toResponse(user, l);
      await publish(companyId, { action: "create", user: response });
      await deps.audit.record(auditEntry(auth, "create", { kind: "user", id: user.id }, auditChanges(null, auditView(user)), companyId));
      return response;
    },

    /** PUT /users/{id}: admins edit anyone in the company; everyone else only their own name and password. */
    async update(auth: AuthContext, id: number, input: UserUpdateInput): Promise<UserResponse> {
      const admin = isAdmin(auth.user.profile);
      if (!admin && id !== auth.user.id) throw new AppError("ERR_NO_PERMISSION");
      const before = await findOrFail(auth.companyId, id);
      if (before.super && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      const l = await lookups(auth.companyId);
      const passwordHash = input.password ? await hashPassword(input.password, deps.bcryptRounds) : undefined;
      let patch: Parameters<UsersRepository["update"]>[1];
      if (!admin) {
        patch = { name: input.name, passwordHash };
      } else {
        const links = sanitizeLinks(l, input);
        patch = {
          name: input.name,
          email: input.email,
          passwordHash,
          whatsappId: links.whatsappId,
          allTicket: input.allTicket,
          profile: can(auth.user.profile, "user-modal:editProfile") ? input.profile : undefined,
          queueIds: can(auth.user.profile, "user-modal:editQueues") ? links.queueIds : undefined,
        };
      }
      const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as typeof patch;
      const user = await users.update(before, defined, clock());
      await (passwordHash ? realtime.closeUserSockets(auth.companyId, id) : realtime.refreshUserSockets(auth.companyId, id, user)); // ADR 0013
      const response = toResponse(user, l);
      await publish(auth.companyId, { action: "update", user: response });
      await deps.audit.record(auditEntry(auth, "update", { kind: "user", id }, auditChanges(auditView(before), auditView(user))));
      return response;
    },

    /** DELETE /users/{id}: admins only, never themselves; the deleted user's token stops working at once. */
    async remove(auth: AuthContext, id: number): Promise<void> {
      if (!isAdmin(auth.user.profile)) throw new AppError("ERR_NO_PERMISSION");
      if (id === auth.user.id) throw new AppError("ERR_NO_PERMISSION");
      const user = await findOrFail(auth.companyId, id);
      if (user.super && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      await users.remove(user);
      for (const cascade of deps.onDeleted ?? []) await cascade(auth.companyId, id);
      await realtime.closeUserSockets(auth.companyId, id); // ADR 0013
      await publish(auth.companyId, { action: "delete", userId: id });
      await deps.audit.record(auditEntry(auth, "delete", { kind: "user", id }, auditChanges(auditView(user), null)));
    },

    /** Company deletion: every user and their login goes. */
    async removeAllOfCompany(companyId: number): Promise<void> {
      for (const user of await users.listByCompany(companyId)) await users.remove(user);
    },

    /** For other features: the company's users (dashboard attendants, transfer pickers). */
    async listRecordsByCompany(companyId: number): Promise<UserRecord[]> {
      return users.listByCompany(companyId);
    },
  };
};
export type UsersService = ReturnType<typeof createUsersService>;
