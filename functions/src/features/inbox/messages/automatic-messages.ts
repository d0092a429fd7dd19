import { automaticSkippedNote, type AutomaticKind } from "@atende/shared/domain/cloud-api/automatic-messages";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Logger } from "../../../platform/logger";
import type { ContactsRepository } from "../contacts/contacts.repository";
import type { TicketNotesRepository } from "../notes/ticket-notes.repository";
import type { Directory } from "../tickets/inbox-directory";
import type { TicketRecord } from "../tickets/tickets.repository";
import type { ChannelRules } from "./messages.service";
import type { OutboundService } from "./outbound.service";

/**
 * The automatic messages that may fall outside a Cloud API customer's 24-hour window (rating request, inactivity
 * message, transfer notice; docs/adr/0031-cloud-api-templates-and-window.md): the provider's rules decide whether
 * the text goes (QR connections, window open), the connection's template goes instead, or nothing goes and an
 * internal note on the ticket says why. Answers what happened, so the caller knows whether to await a rating.
 */
export const createAutomaticMessages = (deps: {
  outbound: Pick<OutboundService, "send">;
  notes: Pick<TicketNotesRepository, "create">;
  contacts: Pick<ContactsRepository, "findById">;
  channelRules?: Pick<ChannelRules, "automaticMessage">;
  clock: () => Date;
  logger: Logger;
}) => ({
  async send(
    ticket: TicketRecord,
    kind: AutomaticKind,
    body: string,
    ctx: { dir: Directory; contact?: Contact | null; /** `ticket` is as stored now (outbound.service.ts) */ current?: boolean },
  ): Promise<"text" | "template" | "skipped"> {
    const rules = deps.channelRules;
    const contact = ctx.contact !== undefined ? ctx.contact : await deps.contacts.findById(ticket.companyId, ticket.contactId);
    const decision = rules
      ? await rules.automaticMessage(ticket.companyId, ticket.whatsappId, ticket.chatJid, kind, {
          name: contact?.name ?? "",
          number: contact?.number ?? "",
          ticketId: ticket.id,
          protocol: ticket.cycle.protocol,
          queue: ticket.queueId !== null ? ctx.dir.queues.get(ticket.queueId)?.name : undefined,
          user: ticket.userId !== null ? ctx.dir.users.get(ticket.userId)?.name : undefined,
        })
      : ({ send: "text" } as const);
    if (decision.send === "text") {
      await deps.outbound.send(ticket, { body, userId: null }, { dir: ctx.dir, contact, current: ctx.current });
      return "text";
    }
    if (decision.send === "template") {
      await deps.outbound.send(ticket, { body: decision.prepared.body, template: decision.prepared.template, userId: null }, { dir: ctx.dir, contact, current: ctx.current });
      return "template";
    }
    deps.logger.info("automatic message skipped outside the window", { companyId: ticket.companyId, ticketId: ticket.id, kind, reason: decision.reason });
    await deps.notes.create({ companyId: ticket.companyId, note: automaticSkippedNote(kind, decision.reason), ticketId: ticket.id, contactId: ticket.contactId, userId: null }, deps.clock());
    return "skipped";
  },
});
export type AutomaticMessages = ReturnType<typeof createAutomaticMessages>;
