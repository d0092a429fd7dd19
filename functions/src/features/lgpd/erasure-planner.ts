import { pad } from "../../platform/db/keys";
import type { ItemKey, PersonData, RawItem } from "./personal-data.repository";

/**
 * What erasing a person does to each item the table holds about them, key by key (pure: the service applies
 * the plan). Three kinds of step:
 * - delete: items that exist only because of the person (the contact, its identities, messages, notes, list
 *   items, schedules, the opt-out entry, cached cursors);
 * - anonymise: items the company's figures need (tickets: the dashboard and the transfer log point at them;
 *   campaign shippings: the campaign report counts them) keep their numbers and times and lose every
 *   personal field;
 * - add: counters that counted the person (the company's contact count, each list's contactsCount).
 * Kept untouched because they hold no personal data: attention cycles (times, queue, attendant, rating), the
 * ticket change log (who moved it where), the ticket's uuid pointer.
 */
export type ErasureStep =
  | { op: "delete"; key: ItemKey; what: ErasureKind }
  | { op: "update"; key: ItemKey; what: ErasureKind; set: Record<string, unknown>; remove: string[] }
  | { op: "add"; key: ItemKey; what: ErasureKind; add: Record<string, number> };

export type ErasureKind =
  | "contact"
  | "identity"
  | "ticketPointer"
  | "ticket"
  | "ticketTagCopy"
  | "ratingWait"
  | "note"
  | "message"
  | "campaignLink"
  | "listItem"
  | "listItemPointer"
  | "listCount"
  | "shipping"
  | "schedule"
  | "numberCheck"
  | "pageCursor"
  | "optOut"
  | "optOutWindow"
  | "contactCount";

export type ErasurePlan = {
  steps: ErasureStep[];
  /** media objects to delete from storage (message attachments) */
  mediaKeys: string[];
  /** how many items of each kind are deleted or anonymised (the answer and the audit entry) */
  counts: Partial<Record<ErasureKind, number>>;
};

/** The ticket fields that could identify the person, and their anonymous values. */
export const ANONYMOUS_TICKET = {
  lastMessage: "",
  lastMessageLc: "",
  chatJid: "",
  lastInboundId: null,
  presence: null,
  bot: { stage: "done", optionParentId: null, sends: 0, lastSentAt: null, outOfHoursAt: null, greetedAt: null },
  // the card's copy of the contact (docs/adr/0057): the contact is deleted, its cards show none
  contactCard: null,
} as const;

/** The shipping fields that could identify the person (the state and times stay for the campaign report). */
export const ANONYMOUS_SHIPPING = { number: "", name: "", email: "", contactId: null, erased: true } as const;

const keyOf = (i: RawItem): ItemKey => ({ pk: i.pk, sk: i.sk });

export const planErasure = (data: PersonData): ErasurePlan => {
  const steps: ErasureStep[] = [];
  const del = (items: RawItem[], what: ErasureKind) => items.forEach((i) => steps.push({ op: "delete", key: keyOf(i), what }));

  // the conversation first: a re-run after a failure still finds the contact (deleted last) and so the rest
  del(data.messages, "message");
  del(data.campaignLinks, "campaignLink");
  del(data.notes, "note");
  del(data.ratingWaits, "ratingWait");
  for (const t of data.tickets) steps.push({ op: "update", key: keyOf(t), what: "ticket", set: { ...ANONYMOUS_TICKET }, remove: [] });
  // a tagged ticket's copies (one per tag, closed tickets too since docs/adr/0057; keys: tickets.repository.ts
  // tagCopyKey) hold the same fields: anonymised with it (an update of a missing copy does nothing)
  for (const t of data.tickets)
    for (const tagId of new Set(Array.isArray(t.tagIds) ? (t.tagIds as number[]) : []))
      steps.push({ op: "update", key: { pk: `${t.pk}#TTAG#${pad(Number(t.id))}`, sk: `TAG#${pad(tagId)}` }, what: "ticketTagCopy", set: { ...ANONYMOUS_TICKET }, remove: [] });
  for (const s of data.shippings) steps.push({ op: "update", key: keyOf(s), what: "shipping", set: { ...ANONYMOUS_SHIPPING }, remove: ["gsi1pk", "gsi1sk"] });
  del(data.listItems, "listItem");
  del(data.listItemPointers, "listItemPointer");
  for (const key of data.listCounters) steps.push({ op: "add", key, what: "listCount", add: { contactsCount: -1 } });
  del(data.schedules, "schedule");
  del(data.numberChecks, "numberCheck");
  del(data.pageCursors, "pageCursor");
  if (data.optOut) del([data.optOut], "optOut");
  if (data.optOutWindow) del([data.optOutWindow], "optOutWindow");
  del(data.ticketPointers, "ticketPointer");
  del(data.identities, "identity");
  if (data.contact) {
    steps.push({ op: "add", key: data.contactCounter, what: "contactCount", add: { count: -1 } });
    del([data.contact], "contact");
  }

  const mediaKeys = [...new Set(data.messages.map((m) => m.mediaKey).filter((k): k is string => typeof k === "string" && k.length > 0))];
  const counts: ErasurePlan["counts"] = {};
  for (const s of steps) if (s.op !== "add") counts[s.what] = (counts[s.what] ?? 0) + 1;
  return { steps, mediaKeys, counts };
};
