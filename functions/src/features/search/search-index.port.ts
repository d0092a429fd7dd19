import type { QueryTerm } from "@atende/shared/domain/search/text-search";

/**
 * A searchable document (docs/adr/0035-full-text-search.md): a message (`m:<messageId>`: body, caption,
 * transcript) or a ticket's identity (`t:<ticketId>`: contact name and number, protocol number).
 */
export type SearchDoc = {
  docId: string;
  companyId: number;
  ticketId: number;
  contactId: number;
  /** sort time (newest first): the message's time, the ticket's creation */
  at: string;
  /** free text (folded, stemmed) */
  text: string;
  /** numbers indexed as digits (and their usual shorter forms), searchable by prefix */
  numbers: string[];
};

/** One document that answered a query (every query term), newest first. */
export type SearchPosting = { docId: string; ticketId: number; contactId: number; at: string };

/**
 * The full-text index port. Implemented on the one table (search-index.repository.ts) for AWS, the local platform
 * and the tests alike; an OpenSearch adapter would implement the same port (the ADR weighs both).
 */
export type SearchIndex = {
  /** Stores or replaces a document's entries (idempotent: unchanged documents write nothing). */
  /** `isNew`: nothing stored yet (skip the read); `repair`: ignore this instance's memory (backfill). */
  put(doc: SearchDoc, opts?: { isNew?: boolean; repair?: boolean }): Promise<void>;
  /** Removes a document's entries (message deleted, LGPD erasure). */
  remove(companyId: number, docIds: string[]): Promise<void>;
  /** Documents answering every term, newest first, at most `limit` (one round trip of bounded reads). */
  query(companyId: number, terms: QueryTerm[], limit: number): Promise<SearchPosting[]>;
};

export const messageDocId = (messageId: string) => `m:${messageId}`;
export const ticketDocId = (ticketId: number) => `t:${ticketId}`;
