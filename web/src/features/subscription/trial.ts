import { daysUntilDue } from "@atende/shared/domain/auth/due-date";

/** Trial days left from the company's trialExpiration (0 once over; null when the company never had a trial). */
export const trialDaysLeft = (trialExpiration: string | null | undefined, now: Date = new Date()): number | null => {
  const days = daysUntilDue(trialExpiration, now);
  return days === null ? null : Math.max(0, days);
};
