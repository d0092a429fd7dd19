import * as z from "zod";
import { optionalText, requiredId } from "../../contracts/body-values";

/** POST /contact-lists and PUT /contact-lists/{id} (spec 3 section 5: name required, 2..50). */
export const contactListSchema = z.object({
  name: z.string("Required").trim().min(1, "Required").min(2, "Too Short!").max(50, "Too Long!"),
});
export type ContactListInput = z.infer<typeof contactListSchema>;

/** The digits of a phone number ("+55 (11) 98888-7777" -> "5511988887777"). */
export const numberDigits = (raw: string): string => raw.replace(/\D/g, "");

/**
 * POST /contact-list-items and PUT /contact-list-items/{id} (spec 3 section 5: name required 2..50,
 * number 8..50, email valid "Invalid email"). The number is stored as digits only.
 */
export const contactListItemSchema = z.object({
  name: z.string("Required").trim().min(1, "Required").min(2, "Too Short!").max(50, "Too Long!"),
  number: z
    .string("Required")
    .trim()
    .min(1, "Required")
    .min(8, "Too Short!")
    .max(50, "Too Long!")
    .refine((n) => numberDigits(n).length >= 8, "Too Short!"),
  email: optionalText(z.union([z.literal(""), z.email("Invalid email").max(254, "Too Long!")])).optional().default(""),
});
export type ContactListItemInput = z.infer<typeof contactListItemSchema>;

/** POST /contact-list-items also names the list. */
export const newContactListItemSchema = contactListItemSchema.extend({ contactListId: requiredId() });

/** Import: only spreadsheets (spec 3 section 5). */
export const CONTACT_LIST_IMPORT_EXTENSIONS = ["xls", "xlsx"] as const;
/** The largest spreadsheet an import accepts (contact lists and POST /contacts/upload). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** Imports of more rows than this run as background jobs (contact lists and POST /contacts/upload). */
export const INLINE_IMPORT_ROWS = 500;
/** POST /contacts/upload takes CSV too (semicolon or comma separated). */
export const CONTACTS_UPLOAD_EXTENSIONS = ["csv", "xls", "xlsx"] as const;
/** Whether a file name has one of an import's extensions (case-insensitive): the one rule of both imports. */
export const isImportFile = (fileName: string, extensions: readonly string[] = CONTACT_LIST_IMPORT_EXTENSIONS) =>
  extensions.includes(fileName.toLowerCase().split(".").pop() ?? "");
export const isContactListImportFile = (fileName: string) => isImportFile(fileName, CONTACT_LIST_IMPORT_EXTENSIONS);

/** Rows read from one imported file at most (the rest are ignored and reported). */
export const MAX_IMPORT_ROWS = 10_000;

/** Accepted spreadsheet header spellings (SERVER-RULES "Contact-list import"). */
export const IMPORT_HEADERS = {
  name: ["nome", "Nome"],
  number: ["numero", "número", "Numero", "Número"],
  email: ["email", "e-mail", "Email", "E-mail"],
} as const;
