import { TRIAL_DAYS_DEFAULT, TRIAL_DAYS_MAX, TRIAL_DAYS_MIN } from "@atende/shared/constants/business";
import type { SignupInput } from "@atende/shared/domain/companies/companies";
import { AppError } from "../../platform/errors";
import type { Logger } from "../../platform/logger";
import type { CompaniesService } from "../companies/companies.service";
import type { PlansService } from "../plans/plans.service";
import type { SettingsService } from "../settings/settings.service";
import type { UserCreation } from "../users/users.ports";
import { hashPassword } from "../auth/password";
import type { AttemptLimiter } from "../../platform/limits/attempt-limiter";

const DAY_MS = 86_400_000;
/** Sign-ups per client address per hour: a person signs up once; a script is stopped. */
export const SIGNUPS_PER_ADDRESS_PER_HOUR = 10;

/**
 * POST /companies/cadastro: a prospect's trial company (MENSAL, due in the configured trial days, active,
 * campaigns enabled) with its admin. Refused when the operator disabled sign-up.
 */
export const createSignupService = (deps: {
  companies: CompaniesService;
  plans: PlansService;
  settings: SettingsService;
  users: UserCreation;
  /** every sign-up takes a slot of its address first, atomically (docs/adr/0064) */
  limiter: AttemptLimiter;
  logger: Logger;
  clock: () => Date;
  bcryptRounds: number;
}) => {
  const { companies, plans, settings, users, logger, clock } = deps;
  return {
    async signup(input: SignupInput, clientAddress: string): Promise<{ id: number; name: string; dueDate: string }> {
      await deps.limiter.take(`signup:ip#${clientAddress}`, { limit: SIGNUPS_PER_ADDRESS_PER_HOUR, windowSeconds: 3600 });
      if ((await settings.globalValue("allowregister")) !== "enabled") throw new AppError("ERR_SIGNUP_DISABLED");
      await plans.get(input.planId).catch(() => {
        throw new AppError("ERR_VALIDATION", { field: "planId" });
      });
      if (await users.findByEmail(input.email)) throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
      const configured = Number(await settings.globalValue("trial"));
      const days = configured >= TRIAL_DAYS_MIN && configured <= TRIAL_DAYS_MAX ? configured : TRIAL_DAYS_DEFAULT;
      const now = clock();
      const dueDate = new Date(now.getTime() + days * DAY_MS).toISOString();
      const company = await companies.create(
        {
          name: input.name,
          email: input.email,
          phone: input.phone,
          planId: input.planId,
          status: true,
          campaignsEnabled: true,
          dueDate,
          recurrence: "MENSAL",
        },
        { trialExpiration: dueDate },
      );
      try {
        await users.create(
          company.id,
          {
            name: input.name,
            email: input.email,
            passwordHash: await hashPassword(input.password, deps.bcryptRounds),
            profile: "admin",
            super: false,
            whatsappId: null,
            allTicket: "enabled",
            queueIds: [],
          },
          now,
        );
      } catch (e) {
        // the email was taken between the check and the write: undo the company
        await companies.discard(company.id);
        throw e;
      }
      logger.info("signup", { companyId: company.id });
      return { id: company.id, name: company.name, dueDate };
    },
  };
};
export type SignupService = ReturnType<typeof createSignupService>;
