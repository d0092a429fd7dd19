import * as z from "zod";
import type { AuthResponse } from "./auth";

/**
 * Two-factor sign-in (TOTP), issue 14 item 1, docs/adr/0029-two-factor-and-audit-trail.md.
 *
 * With two-factor on (or required and not yet set up), `POST /auth/login` with the right password answers
 * `MfaChallengeResponse` instead of a session. The `mfaToken` is an opaque, short-lived, single-use value that
 * works only for the step it names:
 * - `setupRequired: false`: `POST /auth/mfa/verify { mfaToken, code }` (a TOTP code or a recovery code);
 * - `setupRequired: true`: the company or the operator requires two-factor and the user has none yet:
 *   `POST /auth/mfa/setup { mfaToken }` then `POST /auth/mfa/enable { mfaToken, code }`, which answer as the
 *   signed-in calls do and, on enable, complete the login (session + recovery codes).
 */
export type MfaChallengeResponse = { mfaRequired: true; mfaToken: string; setupRequired: boolean };

/** POST /auth/login: a session, or the second step. */
export type LoginResponse = AuthResponse | MfaChallengeResponse;

/** A six-digit TOTP code or a recovery code ("XXXXX-XXXXX"); spaces allowed as people type them. */
export const mfaCodeParam = z.string().trim().min(6, "Required").max(24);
/** How long an mfaToken is good for. */
export const MFA_TOKEN_TTL_SECONDS = 5 * 60;

export const mfaTokenParam = z.string().trim().min(20).max(200);

/** POST /auth/mfa/setup: signed in (bearer), or `{ mfaToken }` of a setup-required login. */
export const mfaSetupSchema = z.object({ mfaToken: mfaTokenParam.optional() });
/** POST /auth/mfa/enable */
export const mfaEnableSchema = z.object({ code: mfaCodeParam, mfaToken: mfaTokenParam.optional() });
/** POST /auth/mfa/verify */
export const mfaVerifySchema = z.object({ mfaToken: mfaTokenParam, code: mfaCodeParam });
/** POST /auth/mfa/disable: a current code from the app. */
export const mfaDisableSchema = z.object({ code: mfaCodeParam });

/** POST /auth/mfa/setup answer: the secret as text and as the otpauth:// URI a QR code carries. */
export type MfaSetupResponse = { secret: string; otpauthUrl: string };
/** POST /auth/mfa/enable answer: the ten recovery codes, shown once; plus the session when it completed a login. */
export type MfaEnableResponse = { recoveryCodes: string[] } & Partial<AuthResponse>;
/** GET /auth/mfa: the caller's state. */
export type MfaStatusResponse = { enabled: boolean; required: boolean; recoveryCodesLeft: number };
