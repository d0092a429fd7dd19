import { randomUUID } from "node:crypto";
import type { AuthResponse, SessionUser } from "@atende/shared/contracts/http/auth";
import type { AuthEventData } from "@atende/shared/contracts/ws-events";
import { isCompanyExpired } from "@atende/shared/domain/auth/auth";
import type { AuthContext as SharedAuthContext } from "@atende/shared/domain/auth/principal";
import { AppError } from "../../platform/errors";
import type { BesideCaller } from "../../platform/http/middleware";
import type { Logger } from "../../platform/logger";
import type { CompanyLookup } from "../companies/companies.ports";
import type { QueuesOfCompany } from "../queues/queues.ports";
import type { RealtimeService } from "../realtime/realtime.service";
import type { SettingsStore } from "../settings/settings.ports";
import type { UserRecord, UserSessions } from "../users/users.ports";
import type { SignInLimits } from "./sign-in-limits";
import { DUMMY_HASH, verifyPassword } from "./password";
import type { Tokens } from "./tokens";
import type { MfaChallengeResponse } from "@atende/shared/contracts/http/mfa";
import type { AuditRecorder } from "../audit/audit.port";
import { auditActorOf } from "../audit/audit-diff";
import type { MfaService, MfaSubject } from "../mfa/mfa.service";
import { createSessionAuthenticator } from "./session-authenticator";

/** Who is calling (shared/src/domain/auth/principal.ts): the principal of the fresh user record behind a valid access token. */
export type AuthContext = SharedAuthContext;

export type SessionResult = AuthResponse & { refreshToken: string };

/** Two tabs may refresh at once: the previous refresh token stays good this long after rotation. */
const REFRESH_GRACE_MS = 30_000;

export const createAuthService = (deps: {
  users: UserSessions;
  companies: CompanyLookup;
  settings: Pick<SettingsStore, "list">;
  queues: QueuesOfCompany;
  /** per account and per address, taken before the password is checked (docs/adr/0064) */
  limits: SignInLimits;
  realtime: RealtimeService;
  tokens: Tokens;
  logger: Logger;
  clock: () => Date;
  /** the audit trail: every sign-in, success or failure (docs/adr/0029) */
  audit: AuditRecorder;
  /** two-factor sign-in: whether the password is followed by a second step */
  mfa: Pick<MfaService, "challengeAfterPassword">;
  /** told after a sign-out (agent status: offline, docs/adr/0032) */
  onSignedOut?: ((companyId: number, userId: number) => Promise<unknown>)[];
}) => {
  const { users, companies, settings, queues, limits, realtime, tokens, logger, clock, audit } = deps;

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

  /** Resolves a bearer token to the caller and the session version it was issued for (session-authenticator.ts). */
  const authenticateSession = createSessionAuthenticator({ tokens, users });

  /** A completed sign-in: the limits forget the account's failures, the older session ends, the trail records it. */
  const startSession = async (user: UserRecord, clientAddress: string): Promise<SessionResult> => {
    const now = clock();
    await limits.clearAccount(user.email);
    const jti = randomUUID();
    const tokenVersion = await users.startSession(user.companyId, user.id, jti, now);
    // One active session per user: older browsers are told, then their sockets (both protocols) are closed.
    await realtime.publish<AuthEventData>(user.companyId, "auth", { action: "logout", reason: "other-session", user: { id: user.id } }, {
      kind: "olderSessions",
      userId: user.id,
      tokenVersion,
    });
    await realtime.closeUserSockets(user.companyId, user.id, { olderThan: tokenVersion });
    logger.info("login", { companyId: user.companyId, userId: user.id });
    await audit.record({ companyId: user.companyId, actor: auditActorOf(user), ip: clientAddress, action: "login", record: { kind: "user", id: user.id }, at: now });
    return issue({ ...user, tokenVersion }, tokenVersion, jti);
  };

  return {
    sessionUser,

    /**
     * POST /auth/login: the session, or (two-factor on, or required and not set up) the second step's challenge.
     * Each attempt takes its slots (account, address) before the password is checked; a wrong one keeps them, the
     * right one gives them back. The account's failures are cleared only when a sign-in completes (docs/adr/0064).
     */
    async login(email: string, password: string, clientAddress: string): Promise<SessionResult | MfaChallengeResponse> {
      const now = clock();
      const slot = await limits.take(email, clientAddress);
      const user = await users.findByEmail(email);
      const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok) {
        logger.info("login failed", { clientAddress });
        await audit.record(
          user
            ? { companyId: user.companyId, actor: auditActorOf(user), ip: clientAddress, action: "login_failed", record: { kind: "user", id: user.id }, at: now }
            : { companyId: null, actor: { kind: "anonymous", email }, ip: clientAddress, action: "login_failed", record: { kind: "session", id: email }, at: now },
        );
        throw new AppError("ERR_INVALID_CREDENTIALS");
      }
      await slot.release();
      await assertCompanyUsable(user);
      const challenge = await deps.mfa.challengeAfterPassword({ companyId: user.companyId, userId: user.id, email: user.email });
      if (challenge) return { mfaRequired: true, ...challenge };
      return startSession(user, clientAddress);
    },

    /** The session after a passed second step (POST /auth/mfa/verify, or enable during a setup-required login). */
    async completeLogin(companyId: number, userId: number, clientAddress: string): Promise<SessionResult> {
      const user = await users.findById(companyId, userId);
      if (!user) throw new AppError("ERR_MFA_TOKEN_INVALID");
      await assertCompanyUsable(user);
      return startSession(user, clientAddress);
    },

    /** Who a two-factor step is about (name and profile for the audit trail). */
    async mfaSubject(companyId: number, userId: number): Promise<MfaSubject> {
      const user = await users.findById(companyId, userId);
      if (!user) throw new AppError("ERR_SESSION_EXPIRED", undefined, 401);
      return { companyId, userId, email: user.email, name: user.name, actor: auditActorOf(user) };
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
      // The token rotated a moment ago, presented again: its answer was lost (a reload or a navigation aborted the
      // request after we rotated) or another tab raced it. Answer with the current id again instead of rotating once
      // more: each rotation forgets the id before the previous one, so two lost answers in a row ended the session.
      if (user.refreshJti && claims.jti !== user.refreshJti && claims.jti === user.prevRefreshJti && (user.prevRefreshUntil ?? "") > now.toISOString()) {
        return issue(user, user.tokenVersion, user.refreshJti);
      }
      const jti = randomUUID();
      const rotated = await users.rotateRefresh(user, claims.jti, jti, new Date(now.getTime() + REFRESH_GRACE_MS).toISOString(), now);
      if (!rotated) throw new AppError("ERR_SESSION_EXPIRED");
      return issue(user, user.tokenVersion, jti);
    },

    /**
     * Two-factor turned on or off by the user: every other session ends (access and refresh tokens of the old
     * version, and every socket), and the caller continues in a fresh one (docs/adr/0064).
     */
    async renewSession(auth: AuthContext): Promise<SessionResult> {
      const user = await users.findById(auth.companyId, auth.user.id);
      if (!user) throw new AppError("ERR_SESSION_EXPIRED", undefined, 401);
      const jti = randomUUID();
      const tokenVersion = await users.startSession(user.companyId, user.id, jti, clock());
      await realtime.closeUserSockets(user.companyId, user.id);
      return issue({ ...user, tokenVersion }, tokenVersion, jti);
    },

    /** An admin turned a user's two-factor off: all of that user's sessions end (tokens and sockets). */
    async endSessionsOf(companyId: number, userId: number): Promise<void> {
      await users.endSession(companyId, userId);
      await realtime.closeUserSockets(companyId, userId);
    },

    async logout(auth: AuthContext): Promise<void> {
      await users.endSession(auth.companyId, auth.user.id);
      await realtime.closeUserSockets(auth.companyId, auth.user.id); // ADR 0013
      for (const fn of deps.onSignedOut ?? []) await fn(auth.companyId, auth.user.id);
    },

    authenticateSession,

    /** Resolves a bearer token to the caller; 401 when missing or bad, 403 when only expired. `beside`: see BesideCaller. */
    async authenticate(token: string | undefined, beside?: BesideCaller): Promise<AuthContext> {
      return (await authenticateSession(token, beside)).auth;
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
