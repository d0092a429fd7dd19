import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { ContactEventData } from "@atende/shared/contracts/http/contacts";
import type {
  ContactDuplicatesResponse,
  ContactMergeConflict,
  ContactMergeCounts,
  ContactMergeResponse,
  SameContactCandidate,
  SameContactResponse,
} from "@atende/shared/contracts/http/contact-merge";
import { AppError } from "../../../platform/errors";
import type { AuditRecorder } from "../../audit/audit.port";
import { auditEntry } from "../../audit/audit-diff";
import type { RealtimeService } from "../../realtime/realtime.service";
import type { InboxEvents } from "../tickets/inbox-events";
import { contactCardFields, type TicketsRepository } from "../tickets/tickets.repository";
import { channelIdentity, type ContactIdentity } from "./contact-identity";
import { duplicateGroups, numberKey, type DuplicateCandidate } from "./contact-duplicates";
import type { ContactMergeRepository } from "./contact-merge.repository";
import type { ContactsRepository } from "./contacts.repository";

/** The duplicates view reads at most this many contacts per request (pages of 1,000 of the number index). */
export const CONTACT_DUPLICATES_MAX_READ = 20_000;

const LIVE = new Set(["pending", "open"]);
/** A Brazilian mobile with and without its ninth digit (contact lists keep the digits as typed). */
const numberVariants = (raw: string): string[] => {
  const n = raw.replace(/\D/g, "");
  const m = /^55(\d{2})(9?)(\d{8})$/.exec(n);
  if (!m) return n ? [n] : [];
  return m[2] ? [n, `55${m[1]}${m[3]}`] : [n, `55${m[1]}9${m[3]}`];
};
/** The identities a contact item names (its number or group, LID, channel user). */
const ownIdentities = (c: Contact): ContactIdentity[] => {
  const out: ContactIdentity[] = [];
  if (c.number) out.push({ kind: c.isGroup ? "G" : "N", value: c.number });
  if (c.lid) out.push({ kind: "L", value: c.lid });
  if (c.channel && c.channelUserId) out.push(channelIdentity(c.channel, c.channelUserId));
  return out;
};
const zero = (): ContactMergeCounts => ({ tickets: 0, messages: 0, notes: 0, tags: 0, extraInfo: 0, schedules: 0, listMemberships: 0, optOuts: 0, lgpdRecords: 0, identities: 0 });

/**
 * Contacts merged, never duplicated (issue 34 point 5, issue 31 point 3; docs/adr/0103-contact-merge.md, 0104).
 * A merge is a run of resumable steps, not one transaction (a contact with 5,000 messages is 5,000 item writes,
 * DynamoDB's transactions hold 100): a marker item names the kept contact first, every step moves what still names the
 * merged contact, and the merged contact is deleted last — so running the same merge again after a crash finishes it.
 */
export const createContactMergeService = (deps: {
  contacts: ContactsRepository;
  merge: ContactMergeRepository;
  tickets: Pick<TicketsRepository, "followContact">;
  events: Pick<InboxEvents, "contactUpdated">;
  realtime: Pick<RealtimeService, "publish">;
  audit: AuditRecorder;
  clock: () => Date;
  /** the number index, a page at a time (the duplicates view) */
  readContacts?: (companyId: number, max: number) => Promise<{ contacts: DuplicateCandidate[]; truncated: boolean }>;
}) => {
  const { contacts, merge: repo, clock } = deps;

  const findOrFail = async (companyId: number, id: number) => {
    const c = await contacts.findById(companyId, id);
    if (!c) throw new AppError("ERR_NO_CONTACT_FOUND");
    return c;
  };

  /** Everything that would move, read only; throws the refusals (open tickets on one connection, an erasure). */
  const plan = async (companyId: number, from: Contact, into: Contact) => {
    const [fromJobs, intoJobs] = await Promise.all([repo.lgpdJobsOf(companyId, from.id), repo.lgpdJobsOf(companyId, into.id)]);
    if ([...fromJobs, ...intoJobs].some((j) => j.kind === "erase" && j.status === "running")) throw new AppError("ERR_MERGE_ERASURE_RUNNING");
    const tickets = await repo.ticketsOf(companyId, from.id);
    const close: ContactMergeConflict["close"] = [];
    for (const t of tickets) {
      if (!LIVE.has(String(t.status))) continue;
      const whatsappId = t.whatsappId === null || t.whatsappId === undefined ? null : Number(t.whatsappId);
      const kept = await repo.openLockHolder(companyId, into.id, whatsappId);
      if (kept !== null && kept !== Number(t.id)) close.push({ ticketId: Number(t.id), whatsappId, keptTicketId: kept });
    }
    if (close.length) throw new AppError("ERR_MERGE_OPEN_TICKETS", { close } satisfies ContactMergeConflict);
    const notes = (await Promise.all(tickets.map((t) => repo.notesOf(companyId, Number(t.id))))).flat().filter((n) => Number(n.contactId) === from.id);
    const aliases = await contacts.aliasesOf(companyId, from.id);
    const identities = await repo.identitiesHeld(companyId, from.id, [...ownIdentities(from), ...aliases]);
    const [messages, schedules, optOut, listEntries] = await Promise.all([
      repo.countMessages(companyId, from.id),
      repo.schedulesOf(companyId, from.id),
      from.number && !from.isGroup ? repo.optOut(companyId, from.number) : Promise.resolve(null),
      from.isGroup ? Promise.resolve([]) : repo.listEntries(companyId, numberVariants(from.number)),
    ]);
    const keptNames = new Set(into.extraInfo.map((e) => e.name.trim().toLowerCase()));
    const extraInfo = from.extraInfo.filter((e) => !keptNames.has(e.name.trim().toLowerCase()));
    const counts: ContactMergeCounts = {
      tickets: tickets.length,
      messages,
      notes: notes.length,
      tags: tickets.reduce((n, t) => n + new Set((t.tagIds as number[] | undefined) ?? []).size, 0),
      extraInfo: extraInfo.length,
      schedules: schedules.length,
      listMemberships: listEntries.length,
      optOuts: optOut && Number(optOut.contactId) !== into.id ? 1 : 0,
      lgpdRecords: fromJobs.length,
      identities: identities.length,
    };
    return { tickets, schedules, optOut, fromJobs, identities, extraInfo, counts };
  };

  /** The kept contact gains what it lacks (e-mail, LID, number, channel user, extra fields); nothing is overwritten. */
  const completed = (into: Contact, from: Contact, extraInfo: Contact["extraInfo"]): Contact => ({
    ...into,
    email: into.email || from.email,
    lid: into.lid ?? from.lid,
    number: into.number || (from.isGroup ? "" : from.number),
    ...(into.channel || !from.channel ? {} : { channel: from.channel, channelUserId: from.channelUserId, channelUsername: from.channelUsername }),
    extraInfo: [...into.extraInfo, ...extraInfo].slice(0, 50),
    updatedAt: clock().toISOString(),
  });

  const run = async (auth: AuthContext, fromId: number, input: { intoId: number; dryRun?: boolean }): Promise<ContactMergeResponse> => {
    const { companyId } = auth;
    const intoId = input.intoId;
    if (fromId === intoId) throw new AppError("ERR_MERGE_SAME_CONTACT");
    const into = await findOrFail(companyId, intoId);
    const marker = await repo.marker(companyId, fromId);
    if (marker !== null && marker !== intoId) throw new AppError("ERR_MERGE_IN_PROGRESS");
    const from = await contacts.findById(companyId, fromId);
    if (!from) {
      // a merge that crashed after deleting the merged contact: only its marker is left
      if (marker === intoId && !input.dryRun) await repo.deleteMarker(companyId, fromId);
      if (marker === intoId) return { dryRun: Boolean(input.dryRun), fromId, intoId, counts: zero() };
      throw new AppError("ERR_NO_CONTACT_FOUND");
    }
    if (from.isGroup !== into.isGroup) throw new AppError("ERR_VALIDATION", { field: "intoId" });
    const p = await plan(companyId, from, into);
    if (input.dryRun) return { dryRun: true, fromId, intoId, counts: p.counts };

    if (!(await repo.putMarker(companyId, fromId, intoId, clock()))) throw new AppError("ERR_MERGE_IN_PROGRESS");
    // 1. identities first: from now on an inbound message of the merged number, LID or channel user lands on the kept contact
    await contacts.addAliases(companyId, intoId, p.identities);
    for (const i of p.identities) await repo.repointIdentity(companyId, i, fromId, intoId);
    // 2. tickets with their notes, tag copies, cycles, locks, rating waits; 3. messages; 4. other features' items
    for (const t of p.tickets) await repo.moveTicket(companyId, t, fromId, intoId);
    await repo.moveMessages(companyId, fromId, intoId);
    for (const s of p.schedules) await repo.moveSchedule(companyId, s, fromId, intoId);
    for (const j of p.fromJobs) await repo.moveLgpdJob(companyId, j, fromId, intoId);
    if (p.optOut) await repo.moveOptOut(companyId, p.optOut, fromId, intoId, into.isGroup ? "" : into.number);
    // 5. the kept contact's fields, its cards on every ticket (the moved ones too), then the merged contact goes
    const next = completed(into, from, p.extraInfo);
    await contacts.save(next, null, into.email);
    await deps.tickets.followContact(companyId, intoId, contactCardFields(next).contactCard);
    await contacts.remove(from);
    await repo.forgetDismissals(companyId, fromId);
    await repo.deleteMarker(companyId, fromId);

    await deps.realtime.publish<ContactEventData>(companyId, "contact", { action: "delete", contactId: fromId }, { kind: "company" });
    await deps.events.contactUpdated(next);
    const counts = p.counts;
    await deps.audit.record(
      auditEntry(auth, "merge", { kind: "contact", id: intoId }, { mergedContactId: { from: fromId, to: intoId }, ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, { from: 0, to: v }])) }),
    );
    return { dryRun: false, fromId, intoId, counts };
  };

  return {
    merge(auth: AuthContext, fromId: number, input: { intoId: number; dryRun?: boolean }) {
      if (auth.user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION");
      return run(auth, fromId, input);
    },

    async duplicates(auth: AuthContext): Promise<ContactDuplicatesResponse> {
      if (auth.user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION");
      if (!deps.readContacts) return { groups: [], truncated: false };
      const read = await deps.readContacts(auth.companyId, CONTACT_DUPLICATES_MAX_READ);
      return { groups: duplicateGroups(read.contacts), truncated: read.truncated };
    },

    /**
     * A website visitor's contact: the known contacts its typed phone or e-mail matches (docs/adr/0104), unless the
     * attendant said they are not the same. Any user of the company may see it (it names no more than the card does).
     */
    async sameContact(auth: AuthContext, id: number): Promise<SameContactResponse> {
      const c = await findOrFail(auth.companyId, id);
      if (c.channel !== "webchat" || !c.channelUserId) return { candidates: [] };
      const typed = await repo.visitor(auth.companyId, c.channelUserId);
      if (!typed) return { candidates: [] };
      const found = new Map<number, SameContactCandidate["reason"]>();
      const phone = typed.phone ? numberKey(typed.phone) : "";
      if (phone) {
        const byNumber = await contacts.findIdByIdentity(auth.companyId, { kind: "N", value: phone });
        if (byNumber !== null) found.set(byNumber, "number");
      }
      if (typed.email) for (const other of await contacts.idsByEmail(auth.companyId, typed.email)) if (!found.has(other)) found.set(other, "email");
      found.delete(id);
      const dismissed = await repo.dismissed(auth.companyId, id);
      const ids = [...found.keys()].filter((other) => !dismissed.has(other));
      const known = await contacts.findByIds(auth.companyId, ids);
      return { candidates: known.map((k) => ({ id: k.id, name: k.name, number: k.number, email: k.email, reason: found.get(k.id) ?? "number" })) };
    },
    /** The attendant says they are not the same person: never offered again for this pair. */
    async dismissSameContact(auth: AuthContext, id: number, otherId: number): Promise<void> {
      await findOrFail(auth.companyId, id);
      await repo.dismiss(auth.companyId, id, otherId, auth.user.id, clock());
    },
    /**
     * The attendant confirms: the visitor's contact merges into the known one. Allowed to any user of the company
     * because the server checks the offer itself (only a candidate `sameContact` answers may be confirmed).
     */
    async confirmSameContact(auth: AuthContext, id: number, otherId: number): Promise<ContactMergeResponse> {
      const { candidates } = await this.sameContact(auth, id);
      if (!candidates.some((c) => c.id === otherId)) throw new AppError("ERR_NO_CONTACT_FOUND");
      return run(auth, id, { intoId: otherId });
    },
  };
};
export type ContactMergeService = ReturnType<typeof createContactMergeService>;
