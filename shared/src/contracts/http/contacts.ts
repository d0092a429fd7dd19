import type { Contact } from "../../domain/contacts/contact";

export type ContactView = Contact;

/** GET /contacts */
export type ContactListResponse = { contacts: ContactView[]; count: number; hasMore: boolean };

/** POST /contacts: a number that already has a contact answers that contact instead of a duplicate. */
export type ContactCreateResponse = ContactView & { alreadyExists?: boolean; existingContact?: ContactView; invalido?: boolean };

/** Realtime `contact` event. */
export type ContactEventData = { action: "update"; contact: ContactView } | { action: "delete"; contactId: number };
