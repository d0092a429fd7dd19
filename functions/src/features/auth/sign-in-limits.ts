import type { AttemptLimiter, LimitRule, Slot } from "../../platform/limits/attempt-limiter";

/**
 * The sign-in's limits (docs/adr/0064): every password or two-factor code takes a slot of its account (the email)
 * and of its client address before it is checked. Failures keep their slots; the right secret gives them back, and
 * a completed sign-in clears the account's. Per account 5 and per address 20 in 15 minutes by default (config
 * LOGIN_MAX_ATTEMPTS, LOGIN_MAX_ATTEMPTS_PER_ADDRESS, LOGIN_WINDOW_SECONDS): a few typos of one person behind an
 * office's NAT address lock that account only, not the office.
 */
export const createSignInLimits = (limiter: AttemptLimiter, rules: { perAccount: LimitRule; perAddress: LimitRule }) => {
  const accountKey = (email: string) => `signin:email#${email.trim().toLowerCase()}`;
  return {
    /** Slots of the account and the address, or ERR_TOO_MANY_ATTEMPTS (429, Retry-After) when either is spent. */
    take: (email: string, clientAddress: string): Promise<Slot> =>
      limiter.takeAll([
        { key: accountKey(email), rule: rules.perAccount },
        { key: `signin:ip#${clientAddress}`, rule: rules.perAddress },
      ]),
    /** A completed sign-in: the account's failures are forgotten (the address's are not: anyone can sign in there). */
    clearAccount: (email: string): Promise<void> => limiter.reset(accountKey(email)),
  };
};
export type SignInLimits = ReturnType<typeof createSignInLimits>;
