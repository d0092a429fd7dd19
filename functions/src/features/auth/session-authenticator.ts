import type { AuthContext, Principal } from "@atende/shared/domain/auth/principal";
import { AppError } from "../../platform/errors";
import type { BesideCaller } from "../../platform/http/middleware";
import type { UserRecord, UserSessions } from "../users/users.ports";
import type { Tokens } from "./tokens";
import { userWriteGeneration } from "../users/user-writes";

/**
 * How long a request's user item is reused on one instance (docs/adr/0040; issue 15: no per-instance cache may show
 * anyone something more than a second old). A logout, a new login, a changed profile or queue or a deleted user
 * made on this instance drops it at once (users/user-writes.ts); made on another, it takes effect within this time.
 */
export const AUTH_USER_REUSE_MS = 1000;
/** Users kept at most (an instance serves one region's active users; past this the oldest are dropped). */
const REUSE_MAX = 5000;

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

/**
 * Resolves a bearer token to the caller and the session version it was issued for (sockets keep it to notice
 * a newer login); 401 when missing or bad, 403 when only expired. The auth service answers with it, and the
 * WebSocket Lambda builds only this (functions/src/app/ws-root.ts), not the whole auth feature.
 */
export const createSessionAuthenticator = (deps: {
  tokens: Pick<Tokens, "verifyAccess">;
  users: Pick<UserSessions, "findById">;
  /** the user item's reuse (≤ AUTH_USER_REUSE_MS; 0 = read on every request) */
  reuseMs?: number;
  /** monotonic milliseconds (tests) */
  now?: () => number;
}) => {
  const { tokens, users } = deps;
  const reuseMs = Math.min(AUTH_USER_REUSE_MS, deps.reuseMs ?? AUTH_USER_REUSE_MS);
  const now = deps.now ?? (() => performance.now());
  const kept = new Map<string, { user: UserRecord; at: number; generation: number }>();
  /**
   * The user item, read at most `reuseMs` ago and not written on this instance since (missing users are never
   * kept); a kept item of another token version than the token's is read again (a login made on another instance).
   */
  const findUser = async (companyId: number, userId: number, tokenVersion: number): Promise<UserRecord | null> => {
    if (reuseMs <= 0) return users.findById(companyId, userId);
    const k = `${companyId}:${userId}`;
    const generation = userWriteGeneration(companyId, userId);
    const hit = kept.get(k);
    if (hit && hit.generation === generation && now() - hit.at < reuseMs && hit.user.tokenVersion === tokenVersion) return hit.user;
    const at = now();
    const user = await users.findById(companyId, userId);
    kept.delete(k);
    if (user) {
      if (kept.size >= REUSE_MAX) kept.delete(kept.keys().next().value!);
      kept.set(k, { user, at, generation });
    }
    return user;
  };
  /** `beside`: told the token's company and user once it is verified, before the user item is read (docs/adr/0059). */
  return async (token: string | undefined, beside?: BesideCaller): Promise<{ auth: AuthContext; tokenVersion: number }> => {
    if (!token) throw new AppError("ERR_SESSION_EXPIRED", undefined, 401);
    const verified = await tokens.verifyAccess(token);
    if (!verified.ok) throw new AppError("ERR_SESSION_EXPIRED", undefined, verified.reason === "expired" ? 403 : 401);
    try {
      beside?.({ companyId: verified.claims.companyId, userId: verified.claims.userId });
    } catch {
      // a read started ahead never decides who the caller is
    }
    const user = await findUser(verified.claims.companyId, verified.claims.userId, verified.claims.tokenVersion);
    if (!user || user.tokenVersion !== verified.claims.tokenVersion) throw new AppError("ERR_SESSION_EXPIRED", undefined, 401);
    return { auth: { user: principalOf(user), companyId: user.companyId }, tokenVersion: user.tokenVersion };
  };
};
export type SessionAuthenticator = ReturnType<typeof createSessionAuthenticator>;
