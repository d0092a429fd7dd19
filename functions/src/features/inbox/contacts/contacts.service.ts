import { randomUUID } from "node:crypto";
import type {
  ContactCreateResponse,
  ContactImportResponse,
  ContactListResponse,
  ContactMergeSummary,
  ContactUploadResponse,
} from "@atende/shared/contracts/http/contacts";
import type { InboundEvent, PhoneContact } from "@atende/shared/contracts/queue-messages";
import type { Contact, ContactFormInput } from "@atende/shared/domain/contacts/contact";
import { PAGE_SIZE } from "@atende/shared/constants/business";
import { canonicalBrazilianNumber, searchedDigits } from "@atende/shared/domain/format/phone";
import { CONTACTS_UPLOAD_EXTENSIONS, INLINE_IMPORT_ROWS, isImportFile, MAX_IMPORT_BYTES } from "@atende/shared/domain/contact-lists/contact-list";
import { hashQuery, pageByNumber, type PageCursors } from "../../../platform/db/page-cursors";
import { AppError } from "../../../platform/errors";
import type { UploadedFile } from "../../../platform/http/uploaded-file";
import type { CommandQueue } from "../../../platform/queues/commands.port";
import type { JobQueue } from "../../../platform/queues/jobs.port";
import { companyOfMediaKey, mediaKeyFor, type MediaStore } from "../../../platform/storage/media-store.port";
import { parseContactCsv, parseContactSpreadsheet } from "../../contact-lists/contact-list-spreadsheet";
import type { SpreadsheetCodec } from "../../../platform/spreadsheets/spreadsheet.port";
import type { InboxReads } from "../inbox-ports";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { ContactEventData, ContactImportState } from "@atende/shared/contracts/http/contacts";
import type { RealtimeService } from "../../realtime/realtime.service";
import type { InboxEvents } from "../tickets/inbox-events";
import { contactCardFields, sameContactCard, type TicketsRepository } from "../tickets/tickets.repository";
import { identitiesOf, normalizeName } from "./contact-identity";
import { parseChannelJid } from "@atende/shared/domain/channels/channel-providers";
import type { ContactIdentity } from "./contact-identity";
import type { ContactsRepository } from "./contacts.repository";
import type { AuditRecorder } from "../../audit/audit.port";
import { auditEntry } from "../../audit/audit-diff";

export type ContactListQuery = { searchParam: string; pageNumber: number; date?: string; dateStart?: string; dateEnd?: string };

/** One contact to merge: a phone-book entry (jid, number and/or LID) or a spreadsheet row (number). */
export type ContactEntry = { number?: string; lid?: string; jid?: string; name?: string; email?: string };

/** The contacts an upload's answer lists. */
const UPLOAD_ANSWER_CONTACTS = 1000;
/** The `feature` job that merges a large upload's rows, this many per run (docs/adr/0023-inbox-feature.md). */
export const CONTACT_UPLOAD_JOB = "contacts.upload";
const UPLOAD_JOB_ROWS = 1000;
/** `key`: the parsed rows (JSON) in the media store; `offset`: the first row not merged yet. */
export type UploadJobPayload = { key: string; offset: number; whatsappId: number | null; requestId: string };
/** Large uploads: `upl:<userId>:<uuid>`. */
const UPLOAD_REQUEST_PREFIX = "upl:";
/** Phone imports: `imp:<userId>:<uuid>` (the requester's id travels with the answer). */
const IMPORT_REQUEST_PREFIX = "imp:";

/** A name worth keeping: not empty and not just the number (what an unnamed contact shows). */
const isRealName = (name: string | undefined, number: string) => Boolean(name && name.trim() && name.replace(/\D/g, "") !== number && !/^[+\d\s()-]+$/.test(name));

/** Tickets read to find a pending/open one before a delete (older ones are closed: one open ticket per connection). */
const OPEN_TICKET_LOOKBACK = 50;

export const createContactsService = (deps: {
  /** the audit trail (docs/adr/0029) */
  audit: AuditRecorder;
  contacts: ContactsRepository;
  whatsapps: InboxReads["whatsapps"];
  commands: CommandQueue;
  jobs: JobQueue;
  media: Pick<MediaStore, "put" | "get">;
  tickets: Pick<TicketsRepository, "listIdsByContact" | "findByIds" | "followContact">;
  realtime: Pick<RealtimeService, "publish">;
  cursors: PageCursors;
  events: Pick<InboxEvents, "contactUpdated">;
  /** LGPD (docs/adr/0030): which of these numbers belong to erased people (imports refuse them with a reason) */
  erasedAmong?: (companyId: number, numbers: string[]) => Promise<Set<string>>;
  clock: () => Date;
  /** reads the uploaded .csv/.xls/.xlsx (the API Lambda's SheetJS adapter; ADR 0038) */
  spreadsheets: SpreadsheetCodec;
}) => {
  const { contacts, cursors, clock } = deps;

  /**
   * A contact's card changed (name, number, e-mail, picture, extra fields; deleted: null): every card of its tickets
   * shows it when this returns (docs/adr/0057), so no list is stale after the change's answer. A change the card does
   * not show (a LID) writes nothing.
   */
  const followOnCards = async (companyId: number, id: number, before: Contact | null, after: Contact | null) => {
    const card = after ? contactCardFields(after).contactCard : null;
    if (before && after && sameContactCard(contactCardFields(before).contactCard, card)) return;
    await deps.tickets.followContact(companyId, id, card);
  };

  const findOrFail = async (companyId: number, id: number) => {
    const c = await contacts.findById(companyId, id);
    if (!c) throw new AppError("ERR_NO_CONTACT_FOUND");
    return c;
  };

  /**
   * Merges entries into the company's contacts by the identity rules (a Brazilian mobile with or without its ninth
   * digit, a number and its LID: one contact). New people become contacts; a known one only gains what it lacks (a
   * real name for a contact named by its number, an e-mail, its LID); nothing is ever duplicated or overwritten.
   */
  const mergeEntries = async (companyId: number, whatsappId: number | null, entries: ContactEntry[]): Promise<ContactMergeSummary & { contacts: Contact[] }> => {
    const summary = { created: 0, updated: 0, unchanged: 0, invalid: 0 };
    const touched: Contact[] = [];
    const erased = deps.erasedAmong ? await deps.erasedAmong(companyId, entries.flatMap((e) => (e.number ? [e.number] : []))) : new Set<string>();
    const erasedNumbers: string[] = [];
    for (const e of entries) {
      if (e.number && erased.has(e.number)) {
        erasedNumbers.push(e.number);
        continue;
      }
      const identities: ContactIdentity[] = e.jid ? identitiesOf({ jid: e.jid, number: e.number, lid: e.lid }) : [];
      if (!e.jid && e.number) identities.push({ kind: "N", value: canonicalBrazilianNumber(e.number) });
      const number = identities.find((i) => i.kind === "N")?.value ?? "";
      const lid = identities.find((i) => i.kind === "L")?.value ?? null;
      if (identities.some((i) => i.kind === "G") || (number && (number.length < 8 || number.length > 50)) || (!number && !lid)) {
        summary.invalid++;
        continue;
      }
      const name = e.name?.trim().slice(0, 50) ?? "";
      const email = e.email?.trim().slice(0, 254) ?? "";
      let existingId: number | null = null;
      for (const i of identities) if ((existingId = await contacts.findIdByIdentity(companyId, i))) break;
      const existing = existingId ? await contacts.findById(companyId, existingId) : null;
      if (existing) {
        for (const i of identities) await contacts.addIdentity(companyId, existing.id, i);
        const next: Contact = {
          ...existing,
          ...(isRealName(name, number) && !isRealName(existing.name, existing.number) ? { name } : {}),
          ...(email && !existing.email ? { email } : {}),
          ...(lid && !existing.lid ? { lid } : {}),
        };
        if (next.name === existing.name && next.email === existing.email && next.lid === existing.lid) {
          summary.unchanged++;
          touched.push(existing);
          continue;
        }
        next.updatedAt = clock().toISOString();
        await contacts.save(next, null);
        await followOnCards(companyId, existing.id, existing, next);
        summary.updated++;
        touched.push(next);
        continue;
      }
      const now = clock().toISOString();
      const made = await contacts.createWithIdentities(
        { companyId, name: name || number || lid || "", number, email, profilePicUrl: "", isGroup: false, lid, whatsappId, extraInfo: [], createdAt: now, updatedAt: now },
        identities,
      );
      if (made.created) summary.created++;
      else summary.unchanged++;
      touched.push(made.contact);
    }
    return { ...summary, ...(erasedNumbers.length ? { erased: erasedNumbers.length, erasedNumbers: erasedNumbers.slice(0, 100) } : {}), contacts: touched };
  };

  const publishReload = (companyId: number, data: Extract<ContactEventData, { action: "reload" }>) =>
    deps.realtime.publish<ContactEventData>(companyId, "contact", data, { kind: "company" });
  /** A background import's progress or end: kept first (a page whose socket was closed asks for it), then published. */
  const reportImport = async (companyId: number, state: ContactImportState) => {
    await contacts.putImportState(companyId, state, clock());
    await publishReload(companyId, { action: "reload", import: state });
  };

  /** The connection a phone import reads: the one asked for, else the user's, else the company's default. */
  const importConnection = async (auth: AuthContext, whatsappId: number | undefined) => {
    if (whatsappId !== undefined) {
      const w = await deps.whatsapps.findById(auth.companyId, whatsappId);
      if (!w) throw new AppError("ERR_NO_WAPP_FOUND");
      return w;
    }
    const all = await deps.whatsapps.listByCompany(auth.companyId);
    const w = all.find((x) => x.id === auth.user.whatsappId) ?? all.find((x) => x.isDefault) ?? all[0];
    if (!w) throw new AppError("ERR_NO_WAPP_FOUND");
    return w;
  };

  const service = {
    findOrFail,
    mergeEntries,

    /**
     * POST /contacts/upload: a .csv, .xls or .xlsx of contacts read by the contact lists' parser (first sheet,
     * nome/numero/email headers, digits only, one row per number), merged into the contacts. More than
     * INLINE_IMPORT_ROWS rows: the rows are stored and merged by CONTACT_UPLOAD_JOB runs, which report progress as
     * `contact` reload events naming the answer's `requestId` (as phone imports do).
     */
    async importFile(auth: AuthContext, file: UploadedFile): Promise<ContactUploadResponse> {
      if (!isImportFile(file.name, CONTACTS_UPLOAD_EXTENSIONS) || file.bytes.length === 0 || file.bytes.length > MAX_IMPORT_BYTES) throw new AppError("ERR_INVALID_IMPORT_FILE");
      const ext = file.name.toLowerCase().split(".").pop() ?? "";
      const parsed = ext === "csv" ? parseContactCsv(deps.spreadsheets, file.bytes) : parseContactSpreadsheet(deps.spreadsheets, file.bytes);
      if (parsed.rows.length > INLINE_IMPORT_ROWS) {
        const requestId = `${UPLOAD_REQUEST_PREFIX}${auth.user.id}:${randomUUID()}`;
        const key = mediaKeyFor(auth.companyId, `contact-upload-${randomUUID()}`, "rows.json");
        await deps.media.put(key, new TextEncoder().encode(JSON.stringify(parsed.rows)), "application/json");
        const payload: UploadJobPayload = { key, offset: 0, whatsappId: auth.user.whatsappId, requestId };
        await contacts.putImportState(auth.companyId, { requestId, done: false, progress: { merged: 0, total: parsed.rows.length } }, clock());
        await deps.jobs.enqueue({ type: "feature", companyId: auth.companyId, name: CONTACT_UPLOAD_JOB, payload });
        return { created: 0, updated: 0, unchanged: 0, invalid: parsed.invalid, duplicates: parsed.duplicates, truncated: parsed.truncated, contacts: [], queued: parsed.rows.length, requestId };
      }
      const merged = await mergeEntries(auth.companyId, auth.user.whatsappId, parsed.rows);
      if (merged.created + merged.updated > 0) await publishReload(auth.companyId, { action: "reload" });
      const { contacts: list, ...summary } = merged;
      return { ...summary, invalid: summary.invalid + parsed.invalid, duplicates: parsed.duplicates, truncated: parsed.truncated, contacts: list.slice(0, UPLOAD_ANSWER_CONTACTS) };
    },

    /** The CONTACT_UPLOAD_JOB: merges the next rows of a large upload, reports progress, re-enqueues itself. */
    async continueUpload(companyId: number, payload: UploadJobPayload): Promise<void> {
      if (!payload.requestId.startsWith(UPLOAD_REQUEST_PREFIX) || companyOfMediaKey(payload.key) !== companyId) return;
      const stored = await deps.media.get(payload.key);
      if (!stored) return;
      const rows = JSON.parse(new TextDecoder().decode(stored.body)) as ContactEntry[];
      const end = Math.min(payload.offset + UPLOAD_JOB_ROWS, rows.length);
      await mergeEntries(companyId, payload.whatsappId, rows.slice(payload.offset, end));
      const done = end >= rows.length;
      await reportImport(companyId, { requestId: payload.requestId, done, progress: { merged: end, total: rows.length } });
      if (!done) await deps.jobs.enqueue({ type: "feature", companyId, name: CONTACT_UPLOAD_JOB, payload: { ...payload, offset: end } });
    },

    /**
     * POST /contacts/import: asks the connection's session host for the phone's contacts (a listContacts command);
     * they arrive as contacts.listed events and are merged there. A connection that is not connected is refused.
     */
    async importFromPhone(auth: AuthContext, input: { whatsappId?: number }): Promise<ContactImportResponse> {
      const w = await importConnection(auth, input.whatsappId);
      if (w.status !== "CONNECTED") throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      const requestId = `${IMPORT_REQUEST_PREFIX}${auth.user.id}:${randomUUID()}`;
      await contacts.putImportState(auth.companyId, { requestId, done: false }, clock());
      await deps.commands.send({ type: "listContacts", commandId: randomUUID(), companyId: auth.companyId, whatsappId: w.id, requestId });
      return { message: "Importing contacts", requestId, whatsappId: w.id };
    },

    /** Inbound contacts.listed: one part of a phone's contacts, merged; lists reload; the last part ends the import. */
    async onContactsListed(event: Extract<InboundEvent, { type: "contacts.listed" }>): Promise<void> {
      if (!event.requestId.startsWith(IMPORT_REQUEST_PREFIX)) return;
      const w = await deps.whatsapps.findById(event.companyId, event.whatsappId);
      if (!w) return;
      const entries = event.contacts.map((c: PhoneContact): ContactEntry => ({ jid: c.jid, number: c.number, lid: c.lid, name: c.name }));
      const merged = await mergeEntries(event.companyId, w.id, entries);
      const state: ContactImportState = { requestId: event.requestId, done: event.last, ...(event.error ? { error: event.error } : {}) };
      if (event.last) await reportImport(event.companyId, state);
      else if (merged.created + merged.updated > 0) await publishReload(event.companyId, { action: "reload", import: state });
    },
    /**
     * GET /contacts/import/{requestId}: a background import's state in the caller's company (started, progress, ended
     * with or without an error); kept a day. What a page asks when its socket may have missed the end.
     */
    async importState(auth: AuthContext, requestId: string): Promise<ContactImportState> {
      const state = await contacts.findImportState(auth.companyId, requestId);
      if (!state) throw new AppError("ERR_NO_IMPORT_FOUND");
      return state;
    },
    /** GET /contacts: by name; a search matches name or number prefixes through their indexes. */
    async list(auth: AuthContext, q: ContactListQuery): Promise<ContactListResponse> {
      const term = q.searchParam.trim();
      const from = q.dateStart ?? q.date;
      const to = q.dateEnd ?? q.date;
      if (term) {
        const digits = searchedDigits(term);
        const found = (await contacts.searchPrefix(auth.companyId, normalizeName(term), digits.length >= 3 ? digits : "", 100))
          .filter((c) => (!from || c.createdAt.slice(0, 10) >= from.slice(0, 10)) && (!to || c.createdAt.slice(0, 10) <= to.slice(0, 10)))
          .sort((a, b) => normalizeName(a.name).localeCompare(normalizeName(b.name)));
        const start = (q.pageNumber - 1) * PAGE_SIZE;
        return { contacts: found.slice(start, start + PAGE_SIZE), count: found.length, hasMore: found.length > start + PAGE_SIZE };
      }
      const created = from || to ? { from: (from ?? "0000-00-00").slice(0, 10), to: (to ?? "9999-12-31").slice(0, 10) } : undefined;
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["contacts", created ?? null]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => contacts.pageByName(auth.companyId, PAGE_SIZE, cursor, created),
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
      if (deps.erasedAmong && (await deps.erasedAmong(auth.companyId, [digits])).size) throw new AppError("ERR_NUMBER_ERASED");
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
      await deps.events.contactUpdated(contact);
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
      const result = await contacts.save(next, current.isGroup ? null : current.number, current.email);
      if (result === "duplicate") throw new AppError("ERR_DUPLICATED_CONTACT");
      await followOnCards(auth.companyId, id, current, next);
      await deps.events.contactUpdated(next);
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
      // its closed tickets stay (history): their cards show no contact, as a read of the deleted contact did
      await followOnCards(auth.companyId, id, contact, null);
      await deps.realtime.publish<ContactEventData>(auth.companyId, "contact", { action: "delete", contactId: id }, { kind: "company" });
      // who and when only: the deleted person's data does not move into the trail (LGPD)
      await deps.audit.record(auditEntry(auth, "delete", { kind: "contact", id }));
    },

    /**
     * The contact id the party's first identity points to (what `upsertFromWhatsapp` reads first), or null; null
     * too for a party without identity. Lets a caller read it beside its own reads (docs/adr/0049).
     */
    async identifyParty(companyId: number, party: { jid: string; number?: string; lid?: string; isGroup?: boolean }): Promise<number | null> {
      const [first] = identitiesOf(party);
      return first ? contacts.findIdByIdentity(companyId, first) : null;
    },
    /**
     * Inbound: the contact of a WhatsApp party, created on first sight. Number and LID of one person resolve
     * to one contact; the Brazilian ninth digit is normalised; concurrent first messages create one contact.
     */
    async upsertFromWhatsapp(
      companyId: number,
      whatsappId: number,
      party: { jid: string; number?: string; lid?: string; pushName?: string; isGroup?: boolean; groupSubject?: string },
      /** the contact id the party's first identity points to, when the caller already read it (`identifyParty`) */
      known?: { firstIdentityId: number | null },
    ): Promise<Contact> {
      return (await service.upsertParty(companyId, whatsappId, party, known)).contact;
    },
    /**
     * `upsertFromWhatsapp`, also saying whether the contact was created by this call (`created`): a contact that did not
     * exist has no ticket, lock or rating wait yet (the inbound pipeline reads none of them, docs/adr/0058).
     */
    async upsertParty(
      companyId: number,
      whatsappId: number,
      party: { jid: string; number?: string; lid?: string; pushName?: string; isGroup?: boolean; groupSubject?: string; username?: string },
      known?: { firstIdentityId: number | null },
    ): Promise<{ contact: Contact; created: boolean }> {
      const identities = identitiesOf(party);
      if (!identities.length) throw new Error(`no identity for ${party.jid}`);
      for (const [i, identity] of identities.entries()) {
        const id = i === 0 && known ? known.firstIdentityId : await contacts.findIdByIdentity(companyId, identity);
        if (!id) continue;
        const found = await contacts.findById(companyId, id);
        if (!found) continue;
        // learn the identities we did not know yet (e.g. the LID of a number), never stealing another's
        for (const other of identities) if (other !== identity) await contacts.addIdentity(companyId, id, other);
        const lid = identities.find((i) => i.kind === "L")?.value;
        if ((lid && !found.lid) || (party.isGroup && party.groupSubject && party.groupSubject !== found.name)) {
          const next = await contacts.setProfile(companyId, id, { lid: lid ?? found.lid, name: party.isGroup && party.groupSubject ? party.groupSubject : found.name }, clock());
          if (next) await followOnCards(companyId, id, found, next);
          return { contact: next ?? found, created: false };
        }
        return { contact: found, created: false };
      }
      const now = clock().toISOString();
      const number = identities.find((i) => i.kind === "N" || i.kind === "G")?.value ?? "";
      // a user of another channel (docs/adr/0088): no number, identified by the channel's user id
      const other = parseChannelJid(party.jid);
      return contacts.createWithIdentities(
        {
          companyId,
          name: (party.isGroup ? party.groupSubject : party.pushName) || number || (party.username ? `@${party.username}` : party.jid),
          number,
          email: "",
          profilePicUrl: "",
          isGroup: Boolean(party.isGroup),
          lid: identities.find((i) => i.kind === "L")?.value ?? null,
          ...(other ? { channel: other.channel, channelUserId: other.userId, ...(party.username ? { channelUsername: party.username } : {}) } : {}),
          whatsappId,
          extraInfo: [],
          createdAt: now,
          updatedAt: now,
        },
        identities,
      );
    },
    /**
     * WhatsApp says a LID and a phone number are the same person (Baileys' lid-mapping.update): the contact known by
     * either form learns the other, so a later message from either lands on that contact and its tickets. When
     * both forms are already separate contacts, the number's contact keeps both identities from now on (the
     * LID-only contact keeps its history; nothing is merged). Neither known: nothing to link yet.
     */
    async linkIdentities(companyId: number, link: { lid: string; number: string }): Promise<Contact | null> {
      const numberId: ContactIdentity = { kind: "N", value: canonicalBrazilianNumber(link.number) };
      const lidId: ContactIdentity = { kind: "L", value: link.lid };
      if (!numberId.value || !lidId.value) return null;
      const byNumber = await contacts.findIdByIdentity(companyId, numberId);
      const byLid = await contacts.findIdByIdentity(companyId, lidId);
      if (byNumber) {
        const found = await contacts.findById(companyId, byNumber);
        if (!found || found.isGroup) return null;
        if (byLid !== byNumber) await contacts.pointIdentity(companyId, lidId, byNumber);
        return found.lid === link.lid ? found : await contacts.setProfile(companyId, byNumber, { lid: link.lid }, clock());
      }
      if (byLid) {
        const found = await contacts.findById(companyId, byLid);
        if (!found || found.isGroup) return null;
        if (found.number) return found; // a number of its own already (another form of it): left alone
        const next = { ...found, number: numberId.value, updatedAt: clock().toISOString() };
        if ((await contacts.save(next, "")) !== "ok") return found;
        await followOnCards(companyId, byLid, found, next);
        return next;
      }
      return null;
    },
    /** Inbound: a person's profile picture URL (the host looks it up on a first message, then at most once a day). */
    async setPictureFromWhatsapp(companyId: number, party: { jid: string; number?: string; lid?: string }, profilePicUrl: string): Promise<Contact | null> {
      for (const identity of identitiesOf(party)) {
        const id = await contacts.findIdByIdentity(companyId, identity);
        if (!id) continue;
        const found = await contacts.findById(companyId, id);
        if (!found || found.isGroup) return null;
        if (found.profilePicUrl === profilePicUrl) return found;
        const next = await contacts.setProfile(companyId, id, { profilePicUrl }, clock());
        if (next) await followOnCards(companyId, id, found, next);
        if (next) await deps.events.contactUpdated(next);
        return next;
      }
      return null;
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
  return service;
};
export type ContactsService = ReturnType<typeof createContactsService>;
