import type { TicketNoteView } from "@atende/shared/contracts/http/messages";
import { AppError } from "../../../platform/errors";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { TicketsService } from "../tickets/tickets.service";
import type { InboxReads } from "../inbox-ports";
import type { TicketNote, TicketNotesRepository } from "./ticket-notes.repository";

export const createTicketNotesService = (deps: { notes: TicketNotesRepository; tickets: TicketsService; users: Pick<InboxReads["users"], "listByCompany">; clock: () => Date }) => {
  const { notes, tickets, users, clock } = deps;
  const views = async (companyId: number, list: TicketNote[]): Promise<TicketNoteView[]> => {
    const byId = new Map((await users.listByCompany(companyId)).map((u) => [u.id, u]));
    return list.map((n) => {
      const u = n.userId !== null ? byId.get(n.userId) : undefined;
      return { id: n.id, note: n.note, ticketId: n.ticketId, contactId: n.contactId, userId: n.userId, user: u ? { id: u.id, name: u.name } : null, createdAt: n.createdAt };
    });
  };
  return {
    async create(auth: AuthContext, input: { note: string; ticketId: number; contactId?: number }): Promise<TicketNoteView> {
      const t = await tickets.findVisible(auth, input.ticketId);
      if (input.contactId !== undefined && input.contactId !== t.contactId) throw new AppError("ERR_NO_CONTACT_FOUND");
      const note = await notes.create({ companyId: auth.companyId, note: input.note, ticketId: t.id, contactId: t.contactId, userId: auth.user.id }, clock());
      return (await views(auth.companyId, [note]))[0]!;
    },
    async list(auth: AuthContext, ticketId: number, contactId?: number): Promise<TicketNoteView[]> {
      const t = await tickets.findVisible(auth, ticketId);
      if (contactId !== undefined && contactId !== t.contactId) return [];
      return views(auth.companyId, await notes.listByTicket(auth.companyId, t.id));
    },
    /** Only the author or an admin removes a note. */
    async remove(auth: AuthContext, id: number): Promise<void> {
      const note = await notes.findById(auth.companyId, id);
      if (!note) throw new AppError("ERR_NOT_FOUND");
      await tickets.findVisible(auth, note.ticketId);
      if (note.userId !== auth.user.id && auth.user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION");
      await notes.remove(auth.companyId, id);
    },
  };
};
export type TicketNotesService = ReturnType<typeof createTicketNotesService>;
