import { randomUUID } from "node:crypto";
import type { AuthResponse, SessionUser } from "@atende/shared/contracts/http/auth";
import type { AuthEventData } from "@atende/shared/contracts/ws-events";
import { isCompanyExpired } from "@atende/shared/domain/auth/auth";
import type { AuthContext as SharedAuthContext, Principal } from "@atende/shared/domain/auth/principal";
import { AppError } from "../../platform/errors";
import type { Logger } from "../../platform/logger";
import type { CompanyLookup } from "../companies/companies.ports";
import type { QueuesOfCompany } from "../queues/queues.ports";
import type { RealtimeService } from "../realtime/realtime.service";
import type { SettingsStore } from "../settings/settings.ports";
import type { UserRecord, UserSessions } from "../users/users.ports";
import type { LoginThrottleRepository } from "./login-throttle.repository";
import { DUMMY_HASH, verifyPassword } from "./password";
import type { Tokens } from "./tokens";

/** Who is calling (shared/src/domain/auth/principal.ts): the principal of the fresh user record behind a valid access token. */
export type AuthContext = SharedAuthContext;

/** The principal of a user record: field by field, so credentials and session ids never reach services. */
export const principalOf = (user: UserRecord): Principal => ({
  id: user.id,
  companyId: user.companyId,
  name: user.name,
  email: user.email,
  profile: user.profile,
  super: user.super,
  allTicket: user.allTicket,
  queueIds: user.queueIds,
  whatsappId: user.whatsappId,
});

export type SessionResult = AuthResponse & { refreshToken: string };

/** Two tabs may refresh at once: the previous refresh token stays good this long after rotation. */
const REFRESH_GRACE_MS = 30_000;

export const createAuthService = (deps: {
  users: UserSessions;
  companies: CompanyLookup;
  settings: Pick<SettingsStore, "list">;
  queues: QueuesOfCompany;
  throttle: LoginThrottleRepository;
  realtime: RealtimeService;
  tokens: Tokens;
  logger: Logger;
  clock: () => Date;
  maxAttempts: number;
}) => {
  const { users, companies, settings, queues, throttle, realtime, tokens, logger, clock } = deps;

  const sessionUser = async (user: UserRecord): Promise<SessionUser> => {
    const [company, companySettings, companyQueues] = await Promise.all([
      companies.findById(user.companyId),
      settings.list(user.companyId),
      queues.listByCompany(user.companyId),
    ]);
    if (!company) throw new AppError("ERR_SESSION_EXPIRED");
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      profile: user.profile,
      super: user.super,
      companyId: user.companyId,
      whatsappId: user.whatsappId,
      allTicket: user.allTicket,
      online: user.online,
      queues: companyQueues.filter((q) => user.queueIds.includes(q.id)).map((q) => ({ id: q.id, name: q.name, color: q.color, UserQueue: { queueId: q.id } })),
      company: {
        id: company.id,
        name: company.name,
        dueDate: company.dueDate,
        status: company.status,
        planId: company.planId,
        timezone: company.timezone,
        settings: companySettings.map((s) => ({ key: s.key, value: s.value })),
      },
    };
  };

  const assertCompanyUsable = async (user: UserRecord) => {
    const company = await companies.findById(user.companyId);
    if (!company) throw new AppError("ERR_INVALID_CREDENTIALS");
    if (!user.super && (!company.status || isCompanyExpired(company.dueDate, clock()))) {
      throw new AppError("ERR_COMPANY_EXPIRED", { dueDate: company.dueDate });
    }
  };

  const issue = async (user: UserRecord, tokenVersion: number, jti: string): Promise<SessionResult> => {
    const now = clock();
    const claims = { userId: user.id, companyId: user.companyId, profile: user.profile, super: user.super, tokenVersion };
    const [token, refreshToken, session] = await Promise.all([
      tokens.signAccess(claims, now),
      tokens.signRefresh({ userId: user.id, companyId: user.companyId, tokenVersion, jti }, now),
      sessionUser(user),
    ]);
    return { token, refreshToken, user: session };
  };

  /**
   * Resolves a bearer token to the caller and the session version it was issued for (sockets keep it to notice
   * a newer login); 401 when missing or bad, 403 when only expired.
   */
  const authenticateSession = async (token: string | undefined): Promise<{ auth: AuthContext; tokenVersion: number }> => {
    if (!token) throw new AppError("ERR_SESSION_EXPIRED", undefined, 401);
    const verified = await tokens.verifyAccess(token);
    if (!verified.ok) throw new AppError("ERR_SESSION_EXPIRED", undefined, verified.reason === "expired" ? 403 : 401);
    const user = await users.findById(verified.claims.companyId, verified.claims.userId);
    if (!user || user.tokenVersion !== verified.claims.tokenVersion) throw new AppError("ERR_SESSION_EXPIRED", undefined, 401);
    return { auth: { user: principalOf(user), companyId: user.companyId }, tokenVersion: user.tokenVersion };
  };

  return {
    sessionUser,

    async login(email: string, password: string, clientAddress: string): Promise<SessionResult> {
      const now = clock();
      const subjects = [`ip#${clientAddress}`, `email#${email}`];
      const failures = await Promise.all(subjects.map((s) => throttle.failures(s, now)));
      if (failures.some((n) => n >= deps.maxAttempts)) throw new AppError("ERR_TOO_MANY_ATTEMPTS");

      const user = await users.findByEmail(email);
      const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok) {
        await Promise.all(subjects.map((s) => throttle.recordFailure(s, now)));
        logger.info("login failed", { clientAddress });
        throw new AppError("ERR_INVALID_CREDENTIALS");
      }
      await assertCompanyUsable(user);
      await throttle.clear(`email#${email}`, now);

      const jti = randomUUID();
      const tokenVersion = await users.startSession(user.companyId, user.id, jti, now);
      // One active session per user: older browsers are told and reload.
      await realtime.publish<AuthEventData>(user.companyId, "auth", { action: "logout", reason: "other-session", user: { id: user.id } }, {
        kind: "olderSessions",
        userId: user.id,
        tokenVersion,
      });
      logger.info("login", { companyId: user.companyId, userId: user.id });
      return issue({ ...user, tokenVersion }, tokenVersion, jti);
    },

    async refresh(refreshToken: string | undefined): Promise<SessionResult> {
      if (!refreshToken) throw new AppError("ERR_SESSION_EXPIRED");
      const verified = await tokens.verifyRefresh(refreshToken);
      if (!verified.ok) throw new AppError("ERR_SESSION_EXPIRED");
      const { claims } = verified;
      const user = await users.findById(claims.companyId, claims.userId);
      if (!user || user.tokenVersion !== claims.tokenVersion) throw new AppError("ERR_SESSION_EXPIRED");
      await assertCompanyUsable(user);
      const now = clock();
      const jti = randomUUID();
      const rotated = await users.rotateRefresh(user, claims.jti, jti, new Date(now.getTime() + REFRESH_GRACE_MS).toISOString(), now);
      if (!rotated) throw new AppError("ERR_SESSION_EXPIRED");
      return issue(user, user.tokenVersion, jti);
    },

    async logout(auth: AuthContext): Promise<void> {
      await users.endSession(auth.companyId, auth.user.id);
      await realtime.closeUserSockets(auth.companyId, auth.user.id); // ADR 0013
    },

    authenticateSession,

    /** Resolves a bearer token to the caller; 401 when missing or bad, 403 when only expired. */
    async authenticate(token: string | undefined): Promise<AuthContext> {
      return (await authenticateSession(token)).auth;
    },

    /** GET /auth/me: the caller's session user, read fresh (presence and all). */
    async me(auth: AuthContext): Promise<SessionUser> {
      const user = await users.findById(auth.companyId, auth.user.id);
      if (!user) throw new AppError("ERR_SESSION_EXPIRED", undefined, 401);
      return sessionUser(user);
    },
  };
};
export type AuthService = ReturnType<typeof createAuthService>;
