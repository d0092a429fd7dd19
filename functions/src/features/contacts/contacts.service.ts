import type { ContactCreateResponse, ContactListResponse } from "@atende/shared/contracts/http/contacts";
import type { Contact, ContactFormInput } from "@atende/shared/domain/contacts/contact";
import { PAGE_SIZE } from "@atende/shared/constants/business";
import { canonicalBrazilianNumber } from "@atende/shared/domain/format/phone";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { AppError } from "../../platform/errors";
import type { AuthContext } from "../auth/auth.service";
import type { ContactEventData } from "@atende/shared/contracts/http/contacts";
import type { RealtimeService } from "../realtime/realtime.service";
import type { InboxEvents } from "../tickets/inbox-events";
import type { TicketsRepository } from "../tickets/tickets.repository";
import { identitiesOf, normalizeName } from "./contact-identity";
import type { ContactsRepository } from "./contacts.repository";

export type ContactListQuery = { searchParam: string; pageNumber: number; date?: string; dateStart?: string; dateEnd?: string };

/** Tickets read to find a pending/open one before a delete (older ones are closed: one open ticket per connection). */
const OPEN_TICKET_LOOKBACK = 50;

export const createContactsService = (deps: {
  contacts: ContactsRepository;
  tickets: Pick<TicketsRepository, "listIdsByContact" | "findByIds">;
  realtime: Pick<RealtimeService, "publish">;
  cursors: PageCursors;
  events: () => InboxEvents;
  clock: () => Date;
}) => {
  const { contacts, cursors, clock } = deps;

  const findOrFail = async (companyId: number, id: number) => {
    const c = await contacts.findById(companyId, id);
    if (!c) throw new AppError("ERR_NO_CONTACT_FOUND");
    return c;
  };

  return {
    findOrFail,
    /** GET /contacts: by name; a search matches name or number prefixes through their indexes. */
    async list(auth: AuthContext, q: ContactListQuery): Promise<ContactListResponse> {
      const term = q.searchParam.trim();
      const from = q.dateStart ?? q.date;
      const to = q.dateEnd ?? q.date;
      if (term) {
        const digits = term.replace(/\D/g, "");
        const found = (await contacts.searchPrefix(auth.companyId, normalizeName(term), digits.length >= 3 ? digits : "", 100))
          .filter((c) => (!from || c.createdAt.slice(0, 10) >= from.slice(0, 10)) && (!to || c.createdAt.slice(0, 10) <= to.slice(0, 10)))
          .sort((a, b) => normalizeName(a.name).localeCompare(normalizeName(b.name)));
        const start = (q.pageNumber - 1) * PAGE_SIZE;
        return { contacts: found.slice(start, start + PAGE_SIZE), count: found.length, hasMore: found.length > start + PAGE_SIZE };
      }
      const filter =
        from || to
          ? {
              expression: "#c BETWEEN :from AND :to",
              names: { "#c": "createdAt" },
              values: { ":from": (from ?? "0000-00-00").slice(0, 10), ":to": `${(to ?? "9999-12-31").slice(0, 10)}~` },
            }
          : undefined;
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["contacts", filter ?? null]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => contacts.pageByName(auth.companyId, PAGE_SIZE, cursor, filter),
      });
      return { contacts: items, count: await contacts.count(auth.companyId), hasMore };
    },
    /** GET /contacts/list: every contact for pickers, bounded (first 1000 by name). */
    async listAll(auth: AuthContext): Promise<Contact[]> {
      const out: Contact[] = [];
      let cursor: string | undefined;
      do {
        const page = await contacts.pageByName(auth.companyId, 200, cursor);
        out.push(...page.items);
        cursor = page.next;
      } while (cursor && out.length < 1000);
      return out;
    },
    async get(auth: AuthContext, id: number): Promise<Contact> {
      return findOrFail(auth.companyId, id);
    },
    /** POST /contacts: a number that already has a contact answers it with alreadyExists (one identity per number). */
    async create(auth: AuthContext, input: ContactFormInput): Promise<ContactCreateResponse> {
      const digits = canonicalBrazilianNumber(input.number);
      if (digits.length < 8) throw new AppError("ERR_WAPP_INVALID_CONTACT");
      const now = clock().toISOString();
      const { contact, created } = await contacts.createWithIdentities(
        {
          companyId: auth.companyId,
          name: input.name,
          number: digits,
          email: input.email ?? "",
          profilePicUrl: "",
          isGroup: false,
          lid: null,
          whatsappId: auth.user.whatsappId,
          extraInfo: input.extraInfo ?? [],
          createdAt: now,
          updatedAt: now,
        },
        [{ kind: "N", value: digits }],
      );
      if (!created) return { ...contact, alreadyExists: true, existingContact: contact };
      await deps.events().contactUpdated(contact);
      return contact;
    },
    async update(auth: AuthContext, id: number, input: Partial<ContactFormInput>): Promise<Contact> {
      const current = await findOrFail(auth.companyId, id);
      const number = input.number !== undefined ? canonicalBrazilianNumber(input.number) : current.number;
      if (input.number !== undefined && number.length < 8) throw new AppError("ERR_WAPP_INVALID_CONTACT");
      const next: Contact = {
        ...current,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.extraInfo !== undefined ? { extraInfo: input.extraInfo } : {}),
        number,
        updatedAt: clock().toISOString(),
      };
      const result = await contacts.save(next, current.isGroup ? null : current.number);
      if (result === "duplicate") throw new AppError("ERR_DUPLICATED_CONTACT");
      await deps.events().contactUpdated(next);
      return next;
    },
    /**
     * DELETE /contacts/{id} (admins): refused with ERR_CONTACT_HAS_OPEN_TICKET while a pending/open ticket exists;
     * closed tickets keep their history. The number can then become a new contact.
     */
    async remove(auth: AuthContext, id: number): Promise<void> {
      if (auth.user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION");
      const contact = await findOrFail(auth.companyId, id);
      const ticketIds = await deps.tickets.listIdsByContact(auth.companyId, id, OPEN_TICKET_LOOKBACK);
      const tickets = await deps.tickets.findByIds(auth.companyId, ticketIds);
      if (tickets.some((t) => t.status === "pending" || t.status === "open")) throw new AppError("ERR_CONTACT_HAS_OPEN_TICKET");
      await contacts.remove(contact);
      await deps.realtime.publish<ContactEventData>(auth.companyId, "contact", { action: "delete", contactId: id }, { kind: "company" });
    },

    /**
     * Inbound: the contact of a WhatsApp party, created on first sight. Number and LID of one person resolve
     * to one contact; the Brazilian ninth digit is normalised; concurrent first messages create one contact.
     */
    async upsertFromWhatsapp(
      companyId: number,
      whatsappId: number,
      party: { jid: string; number?: string; lid?: string; pushName?: string; isGroup?: boolean; groupSubject?: string },
    ): Promise<Contact> {
      const identities = identitiesOf(party);
      if (!identities.length) throw new Error(`no identity for ${party.jid}`);
      for (const identity of identities) {
        const id = await contacts.findIdByIdentity(companyId, identity);
        if (!id) continue;
        const found = await contacts.findById(companyId, id);
        if (!found) continue;
        // learn the identities we did not know yet (e.g. the LID of a number), never stealing another's
        for (const other of identities) if (other !== identity) await contacts.addIdentity(companyId, id, other);
        const lid = identities.find((i) => i.kind === "L")?.value;
        if ((lid && !found.lid) || (party.isGroup && party.groupSubject && party.groupSubject !== found.name)) {
          return (await contacts.setProfile(companyId, id, { lid: lid ?? found.lid, name: party.isGroup && party.groupSubject ? party.groupSubject : found.name }, clock())) ?? found;
        }
        return found;
      }
      const now = clock().toISOString();
      const number = identities.find((i) => i.kind === "N" || i.kind === "G")?.value ?? "";
      const { contact } = await contacts.createWithIdentities(
        {
          companyId,
          name: (party.isGroup ? party.groupSubject : party.pushName) || number || party.jid,
          number,
          email: "",
          profilePicUrl: "",
          isGroup: Boolean(party.isGroup),
          lid: identities.find((i) => i.kind === "L")?.value ?? null,
          whatsappId,
          extraInfo: [],
          createdAt: now,
          updatedAt: now,
        },
        identities,
      );
      return contact;
    },
    /** A contact by a chat jid, without creating one (presence, calls). */
    async findByJid(companyId: number, jid: string): Promise<Contact | null> {
      for (const identity of identitiesOf({ jid })) {
        const id = await contacts.findIdByIdentity(companyId, identity);
        if (id) return contacts.findById(companyId, id);
      }
      return null;
    },
  };
};
export type ContactsService = ReturnType<typeof createContactsService>;
