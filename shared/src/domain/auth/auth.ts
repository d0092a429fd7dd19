import * as z from "zod";
import { DUE_DATE_WARNING_DAYS, NAME_MAX, NAME_MIN, PASSWORD_MAX, PASSWORD_MIN, RESET_PASSWORD_MIN } from "../../constants/business";

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().email("Invalid email").max(200),
  password: z.string().min(1, "Required").max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const userFormSchema = z.object({
  name: z.string().trim().min(NAME_MIN, "Too Short!").max(NAME_MAX, "Too Long!"),
  email: z.string().trim().toLowerCase().min(1, "Required").email("Invalid email"),
  password: z.string().min(PASSWORD_MIN, "Too Short!").max(PASSWORD_MAX, "Too Long!"),
});

/** Reset step 2: at least 8 characters with an uppercase letter, a lowercase letter and a digit. */
export const resetPasswordSchema = z
  .string()
  .min(RESET_PASSWORD_MIN, "Campo obrigatório")
  .regex(/[A-Z]/)
  .regex(/[a-z]/)
  .regex(/[0-9]/);

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
