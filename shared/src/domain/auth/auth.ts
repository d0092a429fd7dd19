import * as z from "zod";
import { NAME_MAX, NAME_MIN, PASSWORD_MAX, PASSWORD_MIN, RESET_PASSWORD_MIN } from "../../constants/business";

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

// kept here for the server's importers; the web app imports ./due-date (no zod on the first screen)
export { daysUntilDue, isCompanyExpired, shouldWarnDueDate } from "./due-date";
