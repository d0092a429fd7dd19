/** A contact list (spec 3 "ContactList"). */
export type ContactListResponse = { id: number; name: string; contactsCount: number; companyId: number; createdAt: string; updatedAt: string };

/** GET /contact-lists/ (searchParam, pageNumber): by name A-Z. */
export type ContactListPageResponse = { records: ContactListResponse[]; hasMore: boolean };

/**
 * An item of a list (spec 3 "ContactListItem"). `isWhatsappValid` turns true once WhatsApp confirmed the number;
 * `checkedAt` is null while the background check has not answered.
 */
export type ContactListItemResponse = {
  id: number;
  name: string;
  number: string;
  email: string;
  isWhatsappValid: boolean;
  checkedAt: string | null;
  companyId: number;
  contactListId: number;
  createdAt: string;
  updatedAt: string;
};

/** GET /contact-list-items (searchParam, pageNumber, contactListId). */
export type ContactListItemPageResponse = { contacts: ContactListItemResponse[]; hasMore: boolean };

/**
 * POST /contact-lists/{id}/upload: what the import did. A large file is written in the background: `queued` rows
 * (ContactListItem `reload` events follow as they land). Validity answers always arrive later as events.
 */
export type ContactListImportResponse = {
  added: number;
  queued: number;
  duplicates: number;
  invalid: number;
  truncated: boolean;
  contactList: ContactListResponse;
  /** LGPD (docs/adr/0030): rows refused because the number belongs to a person whose data was erased (ERR_NUMBER_ERASED) */
  erased?: number;
  erasedNumbers?: string[];
};

/** Realtime `ContactList` (channel company-{id}-ContactList; company admins). */
export type ContactListEventData = { action: "create" | "update"; record: ContactListResponse } | { action: "delete"; id: number };

/** Realtime `ContactListItem` (channel company-{id}-ContactListItem; company admins). `reload`: many items changed (an import). */
export type ContactListItemEventData =
  | { action: "create" | "update"; record: ContactListItemResponse }
  | { action: "delete"; id: number; contactListId: number }
  | { action: "reload"; contactListId: number };
