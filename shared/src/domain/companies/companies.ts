import { z } from "zod";
import { NAME_MAX, NAME_MIN, PASSWORD_MAX, PASSWORD_MIN, RECURRENCES, type Recurrence } from "../../constants/business";
import { daysUntilDue } from "../auth/auth";
import { addMonths } from "../format/dates";

const recurrence = z.enum(Object.keys(RECURRENCES) as [Recurrence, ...Recurrence[]]);
/** An empty or invalid due date is sent as null (spec 2 section 5). */
const dueDate = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => (v && !Number.isNaN(new Date(v).getTime()) ? new Date(v).toISOString() : null));

/** POST /companies and PUT /companies/{id} (operator). */
export const companySchema = z.object({
  name: z.string().trim().min(NAME_MIN, "Too Short!").max(NAME_MAX, "Too Long!"),
  email: z.string().trim().toLowerCase().min(1, "Required").email("Invalid email"),
  phone: z.string().trim().max(30).optional().default(""),
  planId: z.coerce.number().int().positive(),
  status: z.union([z.boolean(), z.enum(["true", "false", "t", "f"]).transform((v) => v === "true" || v === "t")]).optional().default(true),
  campaignsEnabled: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).optional(),
  dueDate,
  recurrence: recurrence.optional().default("MENSAL"),
  timezone: z.string().max(60).optional(),
  billingName: z.string().max(200).optional(),
  addressZipCode: z.string().max(20).optional(),
  addressStreet: z.string().max(200).optional(),
  addressState: z.string().max(60).optional(),
  addressCity: z.string().max(100).optional(),
  addressDistrict: z.string().max(100).optional(),
});
export type CompanyInput = z.infer<typeof companySchema>;

/** Sign-up phone: the mask (99) 99999-9999, at most 11 digits. */
export const signupPhoneSchema = z
  .string()
  .transform((v) => v.replace(/\D/g, ""))
  .pipe(z.string().min(10, "Required").max(11, "Too Long!"));

/** POST /companies/cadastro (public). The server decides recurrence, due date, status and campaigns. */
export const signupSchema = z.object({
  name: z.string().trim().min(NAME_MIN, "Too Short!").max(NAME_MAX, "Too Long!"),
  email: z.string().trim().toLowerCase().min(1, "Required").email("Invalid email"),
  phone: signupPhoneSchema,
  password: z.string().min(PASSWORD_MIN, "Too Short!").max(PASSWORD_MAX, "Too Long!"),
  planId: z.coerce.number().int().positive(),
});
export type SignupInput = z.infer<typeof signupSchema>;

/** Formats digits with the sign-up mask (99) 99999-9999. */
export const maskSignupPhone = (value: string): string => {
  const d = value.replace(/\D/g, "").slice(0, 11);
  if (d.length <= 2) return d.length ? `(${d}` : "";
  if (d.length <= 7) return `(${d.slice(0, 2)}) ${d.slice(2)}`;
  return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
};

/** '+Vencimento': the due date pushed forward by the recurrence (from today when there is none). */
export const nextDueDate = (current: string | null | undefined, rec: Recurrence, now: Date = new Date()): string =>
  addMonths(current && !Number.isNaN(new Date(current).getTime()) ? current : now, RECURRENCES[rec]).toISOString();

/** Companies table row colour: red when due today or past, yellow when due in 1 to 5 days. */
export const dueDateRowTone = (due: string | null | undefined, now: Date = new Date()): "overdue" | "soon" | null => {
  const days = daysUntilDue(due, now);
  if (days === null) return null;
  if (days <= 0) return "overdue";
  if (days <= 5) return "soon";
  return null;
};
