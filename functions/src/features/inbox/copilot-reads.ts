import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { Message } from "@atende/shared/domain/messages/message";
import type { MediaStore } from "../../platform/storage/media-store.port";
import type { TicketsService } from "./tickets/tickets.service";
import type { TicketsRepository } from "./tickets/tickets.repository";
import type { MessagesRepository } from "./messages/messages.repository";
import type { TicketNotesRepository } from "./notes/ticket-notes.repository";
import type { InboxEvents } from "./tickets/inbox-events";

/** A ticket as the copilot reads it. */
export type CopilotTicket = { id: number; companyId: number; contactId: number; queueId: number | null; userId: number | null; createdAt: string };
/** One line of a conversation, oldest first: the customer's, ours, or an internal note. */
export type CopilotLine = { kind: "customer" | "agent" | "note"; text: string; createdAt: string };
export type CopilotAudio = { id: string; ticketId: number; fromMe: boolean; mediaType: string; mediaKey: string | null; mediaMimetype: string | null; mediaName: string | null; transcript: string | null };

/** Reactions and call logs are not what was said. */
const NOT_CONVERSATION = new Set(["reactionMessage", "call_log"]);
/** A whisper (internal, docs/adr/0102) is a note to the attendant, never something said to the customer. */
const lineOf = (m: Message): CopilotLine => ({
  kind: m.internal ? "note" : m.fromMe ? "agent" : "customer",
  text: (m.transcript?.trim() || m.body.trim() || `[${m.mediaType}]`).normalize("NFC"),
  createdAt: m.createdAt,
});

/**
 * What the copilot (features/copilot, issue 33) reads and writes of the inbox: the ticket as the caller may see it
 * (the visibility rules), the ticket's newest messages with its internal notes, a voice note and its transcript, and
 * an internal note by the system (the summary on a transfer). Reads are bounded: at most `limit` messages.
 */
export const createCopilotReads = (deps: {
  tickets: Pick<TicketsService, "findVisible">;
  ticketsRepo: Pick<TicketsRepository, "findById">;
  messages: Pick<MessagesRepository, "findById" | "pageByContact" | "update">;
  notes: Pick<TicketNotesRepository, "create" | "listByTicket">;
  events: Pick<InboxEvents, "message">;
  media: MediaStore;
  clock: () => Date;
}) => {
  const toTicket = (t: CopilotTicket): CopilotTicket => ({ id: t.id, companyId: t.companyId, contactId: t.contactId, queueId: t.queueId, userId: t.userId, createdAt: t.createdAt });
  return {
    /** ERR_NO_TICKET_FOUND / ERR_NO_PERMISSION as GET /tickets/{id} answers them */
    async visibleTicket(auth: AuthContext, id: number): Promise<CopilotTicket> {
      return toTicket(await deps.tickets.findVisible(auth, id));
    },
    async ticket(companyId: number, id: number): Promise<CopilotTicket | null> {
      const t = await deps.ticketsRepo.findById(companyId, id);
      return t ? toTicket(t) : null;
    },
    /** The ticket's newest `limit` messages and its notes, oldest first. */
    async conversation(t: CopilotTicket, limit: number): Promise<CopilotLine[]> {
      // the notes side by side with the messages (one query each; a ticket holds few notes)
      const notesRead = deps.notes.listByTicket(t.companyId, t.id);
      notesRead.catch(() => undefined); // awaited below; a failing page must not leave it unhandled
      const kept: Message[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 5 && kept.length < limit; page++) {
        const out = await deps.messages.pageByContact(t.companyId, t.contactId, limit - kept.length + 10, cursor);
        for (const m of out.items) if (m.ticketId === t.id && !m.isDeleted && !NOT_CONVERSATION.has(m.mediaType) && kept.length < limit) kept.push(m);
        cursor = out.next ?? undefined;
        if (!cursor || out.items.some((m) => m.createdAt < t.createdAt)) break;
      }
      const notes = await notesRead;
      const oldestKept = kept.at(-1)?.createdAt ?? "";
      // oldest first before the (stable) sort: messages of one second keep their order (WhatsApp times are whole seconds)
      const lines = [
        ...kept.reverse().map(lineOf),
        ...notes.filter((n) => n.createdAt >= oldestKept || kept.length < limit).map((n): CopilotLine => ({ kind: "note", text: n.note, createdAt: n.createdAt })),
      ];
      return lines.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    },
    async audio(companyId: number, ticketId: number, messageId: string): Promise<CopilotAudio | null> {
      const m = await deps.messages.findById(companyId, messageId);
      if (!m || m.ticketId !== ticketId) return null;
      return { id: m.id, ticketId: m.ticketId, fromMe: m.fromMe, mediaType: m.mediaType, mediaKey: m.mediaKey, mediaMimetype: m.mediaMimetype, mediaName: m.mediaName, transcript: m.transcript ?? null };
    },
    async readMedia(key: string): Promise<Uint8Array | null> {
      return (await deps.media.get(key))?.body ?? null;
    },
    /** Stores the transcript (and whether the audio was cut to the provider's limit) and tells the conversation. */
    async saveTranscript(companyId: number, ticketId: number, messageId: string, transcript: string, cut: boolean): Promise<void> {
      const updated = await deps.messages.update(companyId, messageId, { transcript: transcript.slice(0, 10_000), ...(cut ? { transcriptCut: true } : {}) });
      const t = updated ? await deps.ticketsRepo.findById(companyId, ticketId) : null;
      if (updated && t) await deps.events.message("update", updated, t);
    },
    /** An internal note by the system (no author). */
    async addNote(t: CopilotTicket, note: string): Promise<void> {
      await deps.notes.create({ companyId: t.companyId, note, ticketId: t.id, contactId: t.contactId, userId: null }, deps.clock());
    },
  };
};
export type CopilotReads = ReturnType<typeof createCopilotReads>;
