import { randomBytes } from "node:crypto";
import { MFA_TOKEN_TTL_SECONDS, type MfaSetupResponse, type MfaStatusResponse } from "@atende/shared/contracts/http/mfa";
import type { AuditAction, AuditActor } from "@atende/shared/domain/audit/audit";
import { AppError } from "../../platform/errors";
import type { Slot } from "../../platform/limits/attempt-limiter";
import type { Logger } from "../../platform/logger";
import type { SecretBox } from "../../platform/secrets/secret-box.port";
import type { AuditRecorder } from "../audit/audit.port";
import type { MfaChallengePurpose, MfaRecord, MfaRepository } from "./mfa.repository";
import { findRecoveryCode, hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from "./recovery-codes";
import { base32Decode, newTotpSecret, otpauthUrl, verifyTotp } from "./totp";

/**
 * The sign-in's limits (auth/sign-in-limits.ts, docs/adr/0064): a code takes a slot of the account and of the
 * address before it is checked, so a wrong code is one more failed sign-in; the right one gives the slots back.
 */
export type SignInAttempts = { take(email: string, clientAddress: string): Promise<Slot> };

/** Whose two-factor it is. */
export type MfaSubject = { companyId: number; userId: number; email: string; name: string; actor: AuditActor };

/** A completed second step: who signed in (the auth service issues the session). */
export type MfaPassed = { companyId: number; userId: number };

export const createMfaService = (deps: {
  mfa: MfaRepository;
  secrets: SecretBox;
  limits: SignInAttempts;
  audit: AuditRecorder;
  logger: Logger;
  clock: () => Date;
  /** true when the company (setting `requireMfa`) or the operator (global `requireMfaAllCompanies`) requires it */
  isRequired: (companyId: number) => Promise<boolean>;
  /** the name authenticator apps show beside the account */
  issuer: string;
}) => {
  const { mfa, secrets, limits, audit, logger, clock } = deps;

  const log = (s: MfaSubject, ip: string, action: AuditAction, at: Date) =>
    audit.record({ companyId: s.companyId, actor: s.actor, ip, action, record: { kind: "user", id: s.userId }, at });

  /** A wrong code: its slots stay taken (one more failed sign-in for the address and the email), and the trail has it. */
  const refuse = async (s: MfaSubject, ip: string, now: Date): Promise<never> => {
    await log(s, ip, "mfa_failed", now);
    logger.info("mfa code refused", { companyId: s.companyId, userId: s.userId });
    throw new AppError("ERR_MFA_INVALID_CODE");
  };

  /** Checks a TOTP code against the enabled secret and spends its step (a code works once). */
  const checkTotp = async (rec: MfaRecord, code: string, now: Date): Promise<boolean> => {
    if (!rec.enabled || !rec.secret) return false;
    const key = base32Decode(await secrets.open(rec.secret));
    const step = verifyTotp(key, code, now, { afterStep: rec.lastStep });
    return step !== null && (await mfa.useStep(rec.companyId, rec.userId, step, now));
  };

  const newChallenge = async (s: Pick<MfaSubject, "companyId" | "userId" | "email">, purpose: MfaChallengePurpose) => {
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(clock().getTime() + MFA_TOKEN_TTL_SECONDS * 1000).toISOString();
    await mfa.putChallenge(token, { companyId: s.companyId, userId: s.userId, email: s.email.toLowerCase(), purpose, expiresAt });
    return token;
  };

  /** The challenge behind a token if it is for `purpose`; anything else is ERR_MFA_TOKEN_INVALID. */
  const challengeFor = async (token: string, purpose: MfaChallengePurpose) => {
    const challenge = await mfa.findChallenge(token, clock());
    if (!challenge || challenge.purpose !== purpose) throw new AppError("ERR_MFA_TOKEN_INVALID");
    return challenge;
  };

  const service = {
    /** GET /auth/mfa */
    async status(companyId: number, userId: number): Promise<MfaStatusResponse> {
      const [rec, required] = await Promise.all([mfa.find(companyId, userId), deps.isRequired(companyId)]);
      return { enabled: rec?.enabled ?? false, required, recoveryCodesLeft: rec?.enabled ? rec.recoveryHashes.length : 0 };
    },

    /** Whether a user must show a second factor at sign-in, and whether the login itself waits on it. */
    async isEnabled(companyId: number, userId: number): Promise<boolean> {
      return (await mfa.find(companyId, userId))?.enabled ?? false;
    },

    /**
     * After the right password: null when no second step applies, else the challenge the login answers with
     * (`verify` when two-factor is on; `setup` when it is required and not yet set up).
     */
    async challengeAfterPassword(s: Pick<MfaSubject, "companyId" | "userId" | "email">): Promise<{ mfaToken: string; setupRequired: boolean } | null> {
      const rec = await mfa.find(s.companyId, s.userId);
      if (rec?.enabled) return { mfaToken: await newChallenge(s, "verify"), setupRequired: false };
      if (await deps.isRequired(s.companyId)) return { mfaToken: await newChallenge(s, "setup"), setupRequired: true };
      return null;
    },

    /** The challenge of a setup-required login (for /auth/mfa/setup and /enable without a session). */
    setupChallenge: (token: string) => challengeFor(token, "setup"),

    /** POST /auth/mfa/setup: a new secret, pending until a first code confirms it. */
    async setup(s: Pick<MfaSubject, "companyId" | "userId" | "email">): Promise<MfaSetupResponse> {
      const rec = await mfa.find(s.companyId, s.userId);
      if (rec?.enabled) throw new AppError("ERR_MFA_ALREADY_ENABLED");
      const secret = newTotpSecret();
      await mfa.putPending(s.companyId, s.userId, await secrets.seal(secret), clock());
      return { secret, otpauthUrl: otpauthUrl({ secret, account: s.email, issuer: deps.issuer }) };
    },

    /** POST /auth/mfa/enable: a code from the app confirms the pending secret; answers the ten recovery codes, once. */
    async enable(s: MfaSubject, code: string, ip: string): Promise<string[]> {
      const now = clock();
      const slot = await limits.take(s.email, ip);
      const rec = await mfa.find(s.companyId, s.userId);
      if (rec?.enabled) throw new AppError("ERR_MFA_ALREADY_ENABLED");
      if (!rec?.pendingSecret) throw new AppError("ERR_MFA_NOT_SET_UP");
      const step = verifyTotp(base32Decode(await secrets.open(rec.pendingSecret)), code, now);
      if (step === null) return refuse(s, ip, now);
      await slot.release();
      const codes = newRecoveryCodes();
      const hashes = await Promise.all(codes.map(hashRecoveryCode));
      if (!(await mfa.enable(s.companyId, s.userId, rec.pendingSecret, step, hashes, now))) throw new AppError("ERR_MFA_NOT_SET_UP");
      await log(s, ip, "mfa_enabled", now);
      return codes;
    },

    /** POST /auth/mfa/disable: only with a current code, and never while the company or operator requires it. */
    async disable(s: MfaSubject, code: string, ip: string): Promise<void> {
      const now = clock();
      if (await deps.isRequired(s.companyId)) throw new AppError("ERR_MFA_REQUIRED");
      const slot = await limits.take(s.email, ip);
      const rec = await mfa.find(s.companyId, s.userId);
      if (!rec?.enabled) throw new AppError("ERR_MFA_NOT_ENABLED");
      if (!(await checkTotp(rec, code, now))) return refuse(s, ip, now);
      await slot.release();
      await mfa.remove(s.companyId, s.userId);
      await log(s, ip, "mfa_disabled", now);
    },

    /**
     * POST /auth/mfa/verify: the second step of a login. A TOTP code (once per step) or an unused recovery code
     * (spent now). Each code takes its sign-in slots before it is checked (wrong ones keep them); the token serves once.
     */
    async verify(token: string, code: string, ip: string, subjectOf: (companyId: number, userId: number) => Promise<MfaSubject | null>): Promise<MfaPassed> {
      const now = clock();
      const challenge = await challengeFor(token, "verify");
      const slot = await limits.take(challenge.email, ip);
      const s = await subjectOf(challenge.companyId, challenge.userId);
      const rec = s ? await mfa.find(challenge.companyId, challenge.userId) : null;
      if (!s || !rec?.enabled) throw new AppError("ERR_MFA_TOKEN_INVALID");
      let action: AuditAction = "mfa_verified";
      if (looksLikeRecoveryCode(code)) {
        const hash = await findRecoveryCode(code, rec.recoveryHashes);
        if (!hash || !(await mfa.useRecoveryCode(rec.companyId, rec.userId, hash, now))) return refuse(s, ip, now);
        action = "mfa_recovery_used";
      } else if (!(await checkTotp(rec, code, now))) {
        return refuse(s, ip, now);
      }
      await slot.release();
      if (!(await mfa.consumeChallenge(token))) throw new AppError("ERR_MFA_TOKEN_INVALID");
      await log(s, ip, action, now);
      return { companyId: challenge.companyId, userId: challenge.userId };
    },

    /** Ends a setup-required login's challenge once the user has enabled two-factor (the token serves once). */
    async finishSetupChallenge(token: string): Promise<void> {
      if (!(await mfa.consumeChallenge(token))) throw new AppError("ERR_MFA_TOKEN_INVALID");
    },

    /**
     * DELETE /auth/mfa/users/{userId}: an admin turns a user's two-factor off (a lost phone and lost recovery codes).
     * Recorded in the trail as the admin's act on that user; if the company requires two-factor, the user sets it
     * up again at the next sign-in.
     */
    async resetBy(admin: Pick<MfaSubject, "companyId" | "actor">, userId: number, ip: string): Promise<void> {
      const rec = await mfa.find(admin.companyId, userId);
      if (!rec) throw new AppError("ERR_MFA_NOT_ENABLED");
      await mfa.remove(admin.companyId, userId);
      await audit.record({ companyId: admin.companyId, actor: admin.actor, ip, action: "mfa_reset", record: { kind: "user", id: userId }, at: clock() });
    },

    /** A deleted user's two-factor state goes with them. */
    async removeFor(companyId: number, userId: number): Promise<void> {
      await mfa.remove(companyId, userId);
    },
  };
  return service;
};
export type MfaService = ReturnType<typeof createMfaService>;
