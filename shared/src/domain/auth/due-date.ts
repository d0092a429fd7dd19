import { DUE_DATE_WARNING_DAYS } from "../../constants/business";

/* The subscription's due date, without zod: the web app's login page reads these before anything else (issue 15). */

/** Whole days from `now` until the due date (negative once past). Dates are compared by calendar day. */
export const daysUntilDue = (dueDate: string | null | undefined, now: Date = new Date()): number | null => {
  if (!dueDate) return null;
  const due = new Date(dueDate);
  if (Number.isNaN(due.getTime())) return null;
  const dayMs = 86_400_000;
  const dueDay = Date.UTC(due.getUTCFullYear(), due.getUTCMonth(), due.getUTCDate());
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((dueDay - today) / dayMs);
};

/** A company is expired once its due date (end of that day) is past. */
export const isCompanyExpired = (dueDate: string | null | undefined, now: Date = new Date()): boolean => {
  const days = daysUntilDue(dueDate, now);
  return days !== null && days < 0;
};

export const shouldWarnDueDate = (dueDate: string | null | undefined, now: Date = new Date()): boolean => {
  const days = daysUntilDue(dueDate, now);
  return days !== null && days >= 0 && days < DUE_DATE_WARNING_DAYS;
};
