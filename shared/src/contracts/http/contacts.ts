import type { Contact } from "../../domain/contacts/contact";

export type ContactView = Contact;

/** GET /contacts */
export type ContactListResponse = { contacts: ContactView[]; count: number; hasMore: boolean };

/** POST /contacts: a number that already has a contact answers that contact instead of a duplicate. */
export type ContactCreateResponse = ContactView & { alreadyExists?: boolean; existingContact?: ContactView; invalido?: boolean };

/**
 * Realtime `contact` event. `reload`: many contacts changed at once (an upload or a phone import): lists refetch;
 * `import` names the phone import it belongs to (`done` on its last part, `error` when the phone could not list).
 */
/**
 * A background contact import (a phone's contacts, a large upload) as the `contact` reload event carries it and as
 * GET /contacts/import/{requestId} answers it (a page whose socket was closed when the end was published asks).
 */
export type ContactImportState = { requestId: string; done: boolean; error?: string; progress?: { merged: number; total: number } };

export type ContactEventData = { action: "update"; contact: ContactView } | { action: "delete"; contactId: number } | { action: "reload"; import?: ContactImportState };

/** What a bulk merge did: new contacts, existing ones completed (name, e-mail, LID), ones left as they were, rows refused. */
export type ContactMergeSummary = {
  created: number;
  updated: number;
  unchanged: number;
  invalid: number;
  /** LGPD (docs/adr/0030): rows refused because the number belongs to a person whose data was erased (ERR_NUMBER_ERASED) */
  erased?: number;
  /** those rows' numbers as given (at most 100), so the screen can say which */
  erasedNumbers?: string[];
};

/**
 * POST /contacts/upload (a .csv, .xls or .xlsx with nome/numero/email headers). The spec does not show its answer;
 * the reference answers the contacts of the file, so `contacts` holds them (first 1000); the counts are ours.
 */
/**
 * POST /contacts/upload. Up to INLINE_IMPORT_ROWS rows are merged in the request; a larger file is merged by a
 * background job: `queued` rows, `requestId` named by the `contact` reload events that report its progress.
 */
export type ContactUploadResponse = ContactMergeSummary & { duplicates: number; truncated: boolean; contacts: ContactView[]; queued?: number; requestId?: string };

/** POST /contacts/import: the phone's contacts are asked for; they arrive as `contact` reload events. */
export type ContactImportResponse = { message: string; requestId: string; whatsappId: number };
