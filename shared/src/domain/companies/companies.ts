import * as z from "zod";
import { flag, optionalText, requiredId } from "../../contracts/body-values";
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
  phone: optionalText(z.string().trim().max(30)).optional().default(""),
  planId: requiredId(),
  status: z.union([flag(), z.literal(["t", "f"]).transform((v) => v === "t")]).optional().default(true),
  campaignsEnabled: flag().optional(),
  dueDate,
  /** "" (the spec's editor before a choice) is the default */
  recurrence: z.union([recurrence, z.literal("").transform((): Recurrence => "MENSAL")]).optional().default("MENSAL"),
  timezone: optionalText(z.string().max(60)).optional(),
  billingName: optionalText(z.string().max(200)).optional(),
  addressZipCode: optionalText(z.string().max(20)).optional(),
  addressStreet: optionalText(z.string().max(200)).optional(),
  addressState: optionalText(z.string().max(60)).optional(),
  addressCity: optionalText(z.string().max(100)).optional(),
  addressDistrict: optionalText(z.string().max(100)).optional(),
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
  planId: requiredId(),
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
