import type { AuthContext, Principal } from "@atende/shared/domain/auth/principal";
import { AppError } from "../../platform/errors";
import type { UserRecord, UserSessions } from "../users/users.ports";
import type { Tokens } from "./tokens";

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
export const createSessionAuthenticator = (deps: { tokens: Pick<Tokens, "verifyAccess">; users: Pick<UserSessions, "findById"> }) => {
  const { tokens, users } = deps;
  return async (token: string | undefined): Promise<{ auth: AuthContext; tokenVersion: number }> => {
    if (!token) throw new AppError("ERR_SESSION_EXPIRED", undefined, 401);
    const verified = await tokens.verifyAccess(token);
    if (!verified.ok) throw new AppError("ERR_SESSION_EXPIRED", undefined, verified.reason === "expired" ? 403 : 401);
    const user = await users.findById(verified.claims.companyId, verified.claims.userId);
    if (!user || user.tokenVersion !== verified.claims.tokenVersion) throw new AppError("ERR_SESSION_EXPIRED", undefined, 401);
    return { auth: { user: principalOf(user), companyId: user.companyId }, tokenVersion: user.tokenVersion };
  };
};
export type SessionAuthenticator = ReturnType<typeof createSessionAuthenticator>;
