import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { resetPasswordSchema } from "@atende/shared/domain/auth/auth";
import { AppError } from "../../platform/errors";
import type { Logger } from "../../platform/logger";
import type { AttemptLimiter } from "../../platform/limits/attempt-limiter";
import type { Mailer } from "../../platform/mail/mail.port";
import { hashPassword } from "../auth/password";
import type { RealtimeService } from "../realtime/realtime.service";
import type { UserPasswords } from "../users/users.ports";
import type { PasswordResetRepository } from "./password-reset.repository";

export const RESET_CODE_TTL_MINUTES = 30;
const MAX_WRONG_CODES = 5;
const WINDOW_SECONDS = 15 * 60;
const MAX_REQUESTS_PER_EMAIL = 3;
const MAX_REQUESTS_PER_ADDRESS = 20;

/** POST /forgetpassword/{email} answer: the spec's client reads data.status (404 = email not found). */
export type ForgetPasswordResponse = { status: 200 | 404 };

export const createPasswordResetService = (deps: {
  resets: PasswordResetRepository;
  /** requests and codes take their slots before anything is checked (docs/adr/0064) */
  limiter: AttemptLimiter;
  users: UserPasswords;
  mailer: Mailer;
  logger: Logger;
  clock: () => Date;
  /** keys the code's HMAC: a stolen table does not give the codes */
  secret: string;
  bcryptRounds: number;
  /** a new password closes the user's open sockets (ADR 0013) */
  realtime?: Pick<RealtimeService, "closeUserSockets">;
}) => {
  const { resets, users, mailer, logger, clock } = deps;
  const hashCode = (email: string, code: string) => createHmac("sha256", deps.secret).update(`${email.toLowerCase()}:${code}`).digest("hex");

  const { limiter } = deps;
  const window = (limit: number) => ({ limit, windowSeconds: WINDOW_SECONDS });

  return {
    /** Step 1: a random 6-digit code by email, valid 30 minutes and once. The code is never logged. */
    async requestCode(email: string, clientAddress: string): Promise<ForgetPasswordResponse> {
      const normalized = email.trim().toLowerCase();
      // every request counts (a sent code is the point of the limit)
      await limiter.takeAll([
        { key: `reset-request:ip#${clientAddress}`, rule: window(MAX_REQUESTS_PER_ADDRESS) },
        { key: `reset-request:email#${normalized}`, rule: window(MAX_REQUESTS_PER_EMAIL) },
      ]);
      const user = await users.findByEmail(normalized);
      if (!user) return { status: 404 };
      const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
      const expiresAt = new Date(clock().getTime() + RESET_CODE_TTL_MINUTES * 60_000).toISOString();
      await resets.save(normalized, { codeHash: hashCode(normalized, code), expiresAt, companyId: user.companyId, userId: user.id });
      await mailer.send({
        to: user.email,
        subject: "Redefinição de senha",
        text: [
          `Olá, ${user.name}.`,
          "",
          `Seu código de verificação é: ${code}`,
          "",
          `Ele vale por ${RESET_CODE_TTL_MINUTES} minutos e pode ser usado uma vez.`,
          "Se você não pediu a redefinição, ignore este email: sua senha continua a mesma.",
        ].join("\n"),
      });
      logger.info("password reset requested", { companyId: user.companyId, userId: user.id });
      return { status: 200 };
    },

    /**
     * Step 2: the code, once, before it expires; the new password must meet the rule. Every session ends.
     * Each guess takes a slot of its address and of the pending code (5 per code) before it is compared: the
     * sixth guess of a code is refused even when all are sent at once. The right code gives its slots back.
     */
    async reset(email: string, code: string, newPassword: string, clientAddress: string): Promise<void> {
      const normalized = email.trim().toLowerCase();
      if (!resetPasswordSchema.safeParse(newPassword).success) throw new AppError("ERR_VALIDATION", { field: "newPassword" });
      const addressSlot = await limiter.take(`reset-verify:ip#${clientAddress}`, window(MAX_REQUESTS_PER_ADDRESS));
      const pending = await resets.find(normalized);
      const invalid = new AppError("ERR_INVALID_RESET_TOKEN");
      if (!pending || new Date(pending.expiresAt) <= clock()) throw invalid;
      // the code's own slots: a new code (a new hash) starts with five again; a spent code stays spent
      const codeSlot = await limiter
        .take(`reset-code:${normalized}#${pending.codeHash.slice(0, 16)}`, { limit: MAX_WRONG_CODES, windowSeconds: RESET_CODE_TTL_MINUTES * 60 })
        .catch(() => {
          throw invalid;
        });
      const presented = Buffer.from(hashCode(normalized, code.trim()));
      if (presented.length !== pending.codeHash.length || !timingSafeEqual(presented, Buffer.from(pending.codeHash))) throw invalid;
      await Promise.all([addressSlot.release(), codeSlot.release()]);
      if (!(await resets.consume(normalized, pending.codeHash))) throw invalid;
      await users.setPassword(pending.companyId, pending.userId, await hashPassword(newPassword, deps.bcryptRounds), clock());
      await deps.realtime?.closeUserSockets(pending.companyId, pending.userId); // ADR 0013
      logger.info("password reset", { companyId: pending.companyId, userId: pending.userId });
    },
  };
};
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
