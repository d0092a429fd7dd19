import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Message } from "@atende/shared/domain/messages/message";
import type { Logger } from "../../platform/logger";
import { messageDocId, ticketDocId, type SearchIndex } from "./search-index.port";

type Ticket = { id: number; companyId: number; contactId: number; createdAt: string; protocol?: string | null };
type IndexedMessage = Pick<Message, "id" | "companyId" | "ticketId" | "contactId" | "body" | "createdAt" | "isDeleted" | "mediaName"> & { transcript?: string | null };

/** Media kinds without words of their own (a reaction's emoji, a call notice). */
const SKIPPED = new Set(["reactionMessage", "call_log"]);

/**
 * Keeps the index in step with the inbox (docs/adr/0035): the inbox's listeners (a message stored, edited or
 * deleted; a contact renamed), the LGPD erasure, and the backfill. A failure is logged, never thrown into the
 * message pipeline: the backfill repairs a missed entry.
 */
export const createSearchIndexer = (deps: { index: SearchIndex; logger: Logger }) => {
  const { index, logger } = deps;
  const safe = async (what: string, companyId: number, run: () => Promise<void>) => {
    try {
      await run();
    } catch (err) {
      logger.error(`search: ${what} not indexed`, { companyId, err: String(err) });
    }
  };
  const messageDoc = (m: IndexedMessage) => ({
    docId: messageDocId(m.id),
    companyId: m.companyId,
    ticketId: m.ticketId,
    contactId: m.contactId,
    at: m.createdAt,
    text: [m.body, m.transcript ?? "", m.mediaName ?? ""].filter(Boolean).join("\n"),
    numbers: [],
  });
  const ticketDoc = (t: Ticket, contact: Pick<Contact, "name" | "number"> | null) => ({
    docId: ticketDocId(t.id),
    companyId: t.companyId,
    ticketId: t.id,
    contactId: t.contactId,
    at: t.createdAt,
    text: contact?.name ?? "",
    numbers: [contact?.number ?? "", t.protocol ?? ""].filter(Boolean),
  });
  const indexer = {
    async message(action: "create" | "update", m: Message & { mediaType?: string }, t: Ticket, contact: Contact | null) {
      await safe("message", m.companyId, async () => {
        // side by side: the message's items (one BatchWriteItem) and the ticket's identity (usually known: nothing);
        // an automatic message repeating the previous one word for word has no entry (docs/adr/0061) until an edit
        await Promise.all([
          m.isRepeat && !m.isEdited
            ? undefined
            : m.isDeleted || SKIPPED.has(m.mediaType ?? "")
              ? index.remove(m.companyId, [messageDocId(m.id)])
              : index.put(messageDoc(m), { isNew: action === "create" }),
          index.put(ticketDoc(t, contact)),
        ]);
      });
    },
    async contact(contact: Contact, tickets: Ticket[]) {
      await safe("contact", contact.companyId, async () => {
        for (const t of tickets) await index.put(ticketDoc(t, contact));
      });
    },
    /** LGPD erasure: the person's messages and tickets leave the index. */
    async forget(companyId: number, ids: { messageIds: string[]; ticketIds: number[] }) {
      await index.remove(companyId, [...ids.messageIds.map(messageDocId), ...ids.ticketIds.map(ticketDocId)]);
    },
    /** Backfill: one contact's tickets and messages (idempotent). */
    async backfill(contact: Contact, tickets: Ticket[], messages: IndexedMessage[]) {
      for (const t of tickets) await index.put(ticketDoc(t, contact), { repair: true });
      for (let i = 0; i < messages.length; i += 8) {
        await Promise.all(messages.slice(i, i + 8).map((m) => index.put(messageDoc({ ...m, companyId: contact.companyId }), { repair: true })));
      }
    },
  };
  return indexer;
};
export type SearchIndexer = ReturnType<typeof createSearchIndexer>;
