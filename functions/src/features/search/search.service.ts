import type { SearchHit, SearchResponse, TicketSearchResponse } from "@atende/shared/contracts/http/search";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import { numberForms, parseQuery, score, snippet, textMatches, type QueryTerm } from "@atende/shared/domain/search/text-search";
import type { InboxService } from "../inbox/inbox.service";
import type { Logger } from "../../platform/logger";
import { messageDocId, ticketDocId, type SearchIndex } from "./search-index.port";

type SearchReads = InboxService["search"];
type SearchMessage = Awaited<ReturnType<SearchReads["conversation"]>>[number];
type SearchTicket = Awaited<ReturnType<SearchReads["resolve"]>>["tickets"][number];

/** Postings read from the index per search (several may be one ticket, some may be invisible to the caller). */
export const SEARCH_CANDIDATES = 300;
/** Tickets resolved per search (newest first): each with its newest matching message, read in one batch. */
export const SEARCH_TICKETS = 40;
export const SEARCH_PAGE_MAX = 50;

/** The searchable text of a message: body (a media's caption), audio transcript, a document's file name. */
export const messageText = (m: Pick<SearchMessage, "body" | "transcript" | "mediaName">) =>
  [m.body, m.transcript ?? "", m.mediaName ?? ""].filter(Boolean).join("\n");
/** The searchable identity of a ticket: contact name, number, protocol. */
const ticketText = (contact: Pick<Contact, "name" | "number"> | null, protocol: string | null) =>
  [contact?.name ?? "", ...(contact ? numberForms(contact.number) : []), ...(protocol ? numberForms(protocol) : [])].join(" ");

/**
 * Full-text search (docs/adr/0035-full-text-search.md): the index answers which documents hold every query word,
 * the inbox which of their tickets the caller may see; results are ranked and cut into highlighted snippets.
 */
export const createSearchService = (deps: { index: SearchIndex; inbox: { search: SearchReads }; logger: Logger }) => {
  const { index, inbox } = deps;

  const ticketHit = (terms: QueryTerm[], t: SearchTicket, contact: Contact | null): { field: SearchHit["field"]; text: string } | null => {
    if (t.protocol && textMatches(terms, numberForms(t.protocol).join(" "))) return { field: "protocol", text: t.protocol };
    if (contact && textMatches(terms, ticketText(contact, null))) {
      return { field: "contact", text: textMatches(terms, contact.name) ? contact.name : contact.number };
    }
    return null;
  };

  return {
    /** GET /search?q=: tickets the caller may see with the message (or name, number, protocol) that matched. */
    async search(auth: AuthContext, q: string, limit: number): Promise<SearchResponse> {
      const terms = parseQuery(q);
      if (!terms.length) return { results: [], hasMore: false };
      const all = await index.query(auth.companyId, terms, SEARCH_CANDIDATES);
      // the newest tickets, each with its newest matching message and its identity (name, number, protocol)
      const kept = new Map<number, { message?: (typeof all)[number]; ticket?: (typeof all)[number] }>();
      for (const p of all) {
        const slot = kept.get(p.ticketId) ?? (kept.size < SEARCH_TICKETS ? {} : null);
        if (!slot) continue;
        if (p.docId.startsWith("m:")) slot.message ??= p;
        else slot.ticket ??= p;
        kept.set(p.ticketId, slot);
      }
      const postings = [...kept.values()].flatMap((k) => [k.ticket, k.message].filter((p): p is (typeof all)[number] => !!p));
      const ticketIds = [...kept.keys()];
      const messageIds = postings.filter((p) => p.docId.startsWith("m:")).map((p) => p.docId.slice(2));
      const contactIds = [...new Set(postings.map((p) => p.contactId))];
      const found = await inbox.search.resolve(auth, { ticketIds, messageIds, contactIds });
      const tickets = new Map(found.tickets.map((t) => [t.id, t]));
      const messages = new Map(found.messages.map((m) => [m.id, m]));
      const contacts = new Map(found.contacts.map((c) => [c.id, c]));
      // a ticket whose contact is not the one its entries name (merged into another, docs/adr/0103): its contact now,
      // in one more round trip only then
      const moved = [...new Set(found.tickets.map((t) => t.contactId).filter((id) => !contacts.has(id)))];
      if (moved.length) for (const c of (await inbox.search.resolve(auth, { ticketIds: [], messageIds: [], contactIds: moved })).contacts) contacts.set(c.id, c);
      const best = new Map<number, { hit: SearchHit; score: number; at: string }>();
      for (const p of postings) {
        const t = tickets.get(p.ticketId);
        if (!t) continue;
        const contact = contacts.get(t.contactId) ?? null;
        let hit: SearchHit | null = null;
        let s = 0;
        if (p.docId.startsWith("m:")) {
          const m = messages.get(p.docId.slice(2));
          const text = m ? messageText(m) : "";
          // an index entry can outlive an edit for a moment: the stored text decides
          if (!m || !textMatches(terms, text)) continue;
          s = score(terms, text, "message");
          hit = { ...base(t, contact), field: "message", message: { id: m.id, createdAt: m.createdAt, fromMe: m.fromMe }, snippet: snippet(terms, text) };
        } else {
          const matched = ticketHit(terms, t, contact);
          if (!matched) continue;
          s = score(terms, matched.text, matched.field);
          hit = { ...base(t, contact), field: matched.field, message: null, snippet: snippet(terms, matched.text) };
        }
        const prev = best.get(t.id);
        if (!prev || s > prev.score) best.set(t.id, { hit, score: s, at: p.at });
      }
      const ranked = [...best.values()].sort((a, b) => b.score - a.score || (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      const size = Math.min(Math.max(limit, 1), SEARCH_PAGE_MAX);
      return { results: ranked.slice(0, size).map((r) => r.hit), hasMore: ranked.length > size || all.length >= SEARCH_CANDIDATES };
    },

    /** GET /search/tickets/{ticketId}?q=: the conversation's messages that match, oldest first. */
    async inTicket(auth: AuthContext, ticketId: number, q: string): Promise<TicketSearchResponse> {
      const terms = parseQuery(q);
      if (!terms.length) return { matches: [] };
      const all = await inbox.search.conversation(auth, ticketId);
      return {
        matches: all
          .filter((m) => textMatches(terms, messageText(m)))
          // the conversation's own order (web: by time, then id)
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
          .map((m) => ({ id: m.id, createdAt: m.createdAt })),
      };
    },
  };
};
export type SearchService = ReturnType<typeof createSearchService>;

/**
 * The tickets whose history matches a text (GET /tickets?searchParam= for spec clients; built before the inbox, which
 * applies its own visibility and filters). A failure answers null: the list falls back to the contacts' name and
 * number indexes and last messages.
 */
export const createHistorySearch =
  (deps: { index: SearchIndex; logger: Logger }) =>
  async (companyId: number, text: string, limit: number): Promise<{ ticketId: number; contactId: number }[] | null> => {
    const terms = parseQuery(text);
    if (!terms.length) return [];
    try {
      const postings = await deps.index.query(companyId, terms, limit * 3);
      // each ticket once (its newest posting), with its contact: the list reads the ticket and its contact together (ADR 0055)
      const byTicket = new Map<number, { ticketId: number; contactId: number }>();
      for (const p of postings) if (!byTicket.has(p.ticketId)) byTicket.set(p.ticketId, { ticketId: p.ticketId, contactId: p.contactId });
      return [...byTicket.values()].slice(0, limit);
    } catch (err) {
      deps.logger.error("search: history search failed; the list answers from names and last messages", { companyId, err: String(err) });
      // null, not "nothing found": the list then looks names and numbers up in the contacts' own indexes (ADR 0055)
      return null;
    }
  };

const base = (t: SearchTicket, contact: Contact | null) => ({
  ticketId: t.id,
  uuid: t.uuid,
  status: t.status,
  queueId: t.queueId,
  userId: t.userId,
  updatedAt: t.updatedAt,
  protocol: t.protocol,
  contact: contact ? { id: contact.id, name: contact.name, number: contact.number, profilePicUrl: contact.profilePicUrl || null } : null,
});

export { messageDocId, ticketDocId };
