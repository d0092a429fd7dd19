import { createHash } from "node:crypto";
import { AppError } from "../../../platform/errors";
import type { WebchatRepository, WebchatSession, WebchatSettings } from "./webchat.repository";

/** Only the SHA-256 of a visitor token is stored (docs/adr/0092). */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Normalises an origin as browsers send it (scheme://host[:port], lower case, no slash). */
export const normalizeOrigin = (o: string) => o.trim().replace(/\/+$/, "").toLowerCase();

/**
 * The one check of a visitor request, HTTP or socket (docs/adr/0092, 0096): the public key's connection, when the
 * caller's `Origin` is one of its allowed origins (404 / 403 otherwise) and, when `token` is asked for, the
 * visitor session of that token on that connection and company (401 otherwise).
 */
export const createWebchatAccess = (deps: { repo: WebchatRepository; clock: () => Date }) => {
  const connection = async (publicKey: string, origin: string | undefined): Promise<WebchatSettings> => {
    const s = await deps.repo.byKey(publicKey);
    if (!s) throw new AppError("ERR_NOT_FOUND");
    if (!origin || !s.allowedOrigins.map(normalizeOrigin).includes(normalizeOrigin(origin))) throw new AppError("ERR_ORIGIN_NOT_ALLOWED");
    return s;
  };
  const sessionOf = async (s: WebchatSettings, token: string | undefined): Promise<WebchatSession> => {
    const session = token ? await deps.repo.session(hashToken(token), deps.clock()) : null;
    // a token of another connection (or company) is no token here
    if (!session || session.publicKey !== s.publicKey || session.companyId !== s.companyId) throw new AppError("ERR_SESSION_EXPIRED");
    return session;
  };
  return {
    connection,
    sessionOf,
    async visitor(publicKey: string, origin: string | undefined, token: string | undefined) {
      const settings = await connection(publicKey, origin);
      return { settings, session: await sessionOf(settings, token) };
    },
  };
};
export type WebchatAccess = ReturnType<typeof createWebchatAccess>;
