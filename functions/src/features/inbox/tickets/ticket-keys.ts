import type { TicketListQuery, TicketStatus } from "@atende/shared/domain/tickets/ticket";
import { TICKET_STATUSES } from "@atende/shared/domain/tickets/ticket";
import type { TicketViewer } from "@atende/shared/domain/tickets/visibility";
import { seesEveryTicket } from "@atende/shared/domain/permissions/permissions";
import { companyPk, pad } from "../../../platform/db/keys";
import type { IndexPartition, ItemFilter } from "../../../platform/db/merged-query";
import type { TicketRecord } from "./ticket-record";

/** The keys of a ticket's items and of its lists' index partitions and counter cells (docs/adr/0005, 0036, 0040). */
export const activityKey = (t: TicketRecord) => `${t.updatedAt}#${pad(t.id)}`;
export const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `TICKET#${pad(id)}` });
export const uuidKey = (companyId: number, uuid: string) => ({ pk: `${companyPk(companyId)}#TUUID#${uuid}`, sk: "TUUID" });
/** The "one pending/open ticket per contact and connection" lock (docs/adr/0005-ticket-keys.md). */
export const openLockKey = (companyId: number, contactId: number, whatsappId: number | null) => ({
  pk: `${companyPk(companyId)}#OPEN#${contactId}#${whatsappId ?? 0}`,
  sk: "OPEN",
});
export const contactTicketKey = (companyId: number, contactId: number, ticketId: number) => ({ pk: `${companyPk(companyId)}#CT#${contactId}`, sk: pad(ticketId) });
export const cycleKey = (companyId: number, ticketId: number) => ({ pk: companyPk(companyId), sk: `CYCLE#${pad(ticketId)}` });
/** Protocol number → ticket (the ticket search finds a cycle by its protocol). */
export const protocolKey = (companyId: number, protocol: string) => ({ pk: `${companyPk(companyId)}#PROTO#${protocol}`, sk: "PROTO" });
export const changeKey = (companyId: number, ticketId: number, at: string, seq: string) => ({ pk: `${companyPk(companyId)}#TLOG#${ticketId}`, sk: `${at}#${seq}` });
export const ratingWaitKey = (companyId: number, contactId: number, whatsappId: number | null) => ({
  pk: `${companyPk(companyId)}#RATE#${contactId}#${whatsappId ?? 0}`,
  sk: "RATE",
});

/**
 * Index partitions of a ticket: by status (gsi1), by queue and status (gsi2), by owner and status (gsi3). With a
 * tag: the same partitions of that tag's copies of the tickets carrying it (docs/adr/0040-tag-lists-and-page-tokens.md, 0057).
 */
export const family = (companyId: number, tagId?: number) => `${companyPk(companyId)}${tagId !== undefined ? `#TG#${tagId}` : ""}`;
export const statusPartition = (companyId: number, status: TicketStatus, tagId?: number): IndexPartition => ({ index: "gsi1", pk: `${family(companyId, tagId)}#TST#${status}` });
export const queuePartition = (companyId: number, queueId: number | null, status: TicketStatus, tagId?: number): IndexPartition => ({
  index: "gsi2",
  pk: `${family(companyId, tagId)}#TQ#${queueId ?? 0}#${status}`,
});
export const userPartition = (companyId: number, userId: number, status: TicketStatus, tagId?: number): IndexPartition => ({
  index: "gsi3",
  pk: `${family(companyId, tagId)}#TU#${userId}#${status}`,
});
/** Live statuses: they have counter cells (below); the closed history has none (its tab has no exact count). */
export const COUNTED: ReadonlySet<TicketStatus> = new Set<TicketStatus>(["pending", "open"]);
/**
 * Statuses whose tickets have tag copies: live ones since docs/adr/0040, closed ones too since docs/adr/0057 (the closed
 * tab with a tag filter read ~400 tickets by item filter to find a page; it reads the tag's closed partitions now).
 */
export const COPIED: ReadonlySet<TicketStatus> = new Set<TicketStatus>(TICKET_STATUSES);

/**
 * What a ticket list reads: the caller and their query. `companyQueueIds` is no longer needed by the lists (an
 * admin sees every ticket, so an admin's list without a queue filter is the status partition and one with a
 * queue filter reads the named queues: the partition keys carry the company, so a foreign id finds nothing);
 * kept optional for callers that still pass it (docs/adr/0036-ticket-list-keys.md).
 */
export type TicketListScope = { companyId: number; viewer: TicketViewer; query: TicketListQuery; companyQueueIds?: number[] };

/** Which queues a non-user-filtered list reads, and whether it adds the queue-less tickets and the viewer's own. */
export const listShape = ({ viewer, query: q }: TicketListScope) => {
  // admins and supervisors (docs/adr/0101) read every ticket the same way
  const isAdmin = seesEveryTicket(viewer.profile);
  const queues = isAdmin ? q.queueIds : q.queueIds.length ? q.queueIds.filter((id) => viewer.queueIds.includes(id)) : viewer.queueIds;
  // queue-less tickets (a customer still in the menu) stay in a queue-filtered list for whoever may see them, as
  // the reference does: they would otherwise vanish from "Aguardando" while the dashboard counts them
  const withQueueless = isAdmin || viewer.allTicket === "enabled";
  return { isAdmin, queues, withQueueless };
};

/**
 * Which index partitions answer a ticket list (docs/adr/0005-ticket-keys.md, 0036):
 * - admin with users=[..]: each user's partitions (gsi3);
 * - admin without a queue filter (showAll or not: an admin sees every ticket): the status partitions (gsi1);
 * - everyone else: the partitions of the queues they may see (gsi2), filtered by `queueIds` when given, the
 *   queue-less partition when allowed (with or without a queue filter), and their own tickets (gsi3). Merged newest-first by last activity.
 * `tagId`: the same partitions of that tag's copies (every status since docs/adr/0057).
 */
export const basePartitions = (scope: TicketListScope, tagId?: number): IndexPartition[] => {
  const { companyId, viewer, query: q } = scope;
  const statuses: TicketStatus[] = q.status ? [q.status] : [...TICKET_STATUSES];
  const { isAdmin, queues, withQueueless } = listShape(scope);
  if (isAdmin && q.users.length) return statuses.flatMap((s) => q.users.map((u) => userPartition(companyId, u, s, tagId)));
  if (isAdmin && !q.queueIds.length) return statuses.map((s) => statusPartition(companyId, s, tagId));
  return statuses.flatMap((s) => [
    ...queues.map((id) => queuePartition(companyId, id, s, tagId)),
    ...(withQueueless ? [queuePartition(companyId, null, s, tagId)] : []),
    userPartition(companyId, viewer.userId, s, tagId),
  ]);
};
/**
 * A tag-filtered list of one status reads the tags' copies (about one page, whatever the tab's size; several tags:
 * each tag's partitions, a ticket carrying two of them served once; closed tabs too since docs/adr/0057); a tag filter
 * over all statuses reads the tab's partitions with the tags as an item filter (docs/adr/0040).
 */
export const readsTagCopies = (q: TicketListQuery) => q.tags.length > 0 && !!q.status && COPIED.has(q.status);
export const listPartitions = (scope: TicketListScope): IndexPartition[] =>
  readsTagCopies(scope.query) ? [...new Set(scope.query.tags)].flatMap((tagId) => basePartitions(scope, tagId)) : basePartitions(scope);

/**
 * The list counters (docs/adr/0036-ticket-list-keys.md): one small item per company, live status, queue and
 * owner (`CO#c#TCNT` / `<status>#<queueId or 0>#<userId or 0>`, `n` = tickets in that cell), kept by every ticket
 * write in the ticket's own transaction. A ticket is in exactly one cell, so any list's exact count is the sum
 * of the cells its partitions cover, without double-counting a ticket that is both in a queue and owned.
 * Only the live statuses (pending, open) have cells: the closed history has no exact count.
 */
export const countPk = (companyId: number) => `${companyPk(companyId)}#TCNT`;
/** `tagId`: the cell of the tickets carrying that tag (a ticket is in one such cell per tag), for a one-tag filter. */
export const countSk = (status: TicketStatus, queueId: number | null, userId: number | null, tagId?: number) =>
  `${tagId !== undefined ? `T${tagId}#` : ""}${status}#${queueId ?? 0}#${userId ?? 0}`;
export type CountCell = { status: TicketStatus; queueId: number | null; userId: number | null; tagId?: number };
export const cellsOf = (t: (CountCell & { tagIds: number[] }) | null): CountCell[] => {
  if (!t || !COUNTED.has(t.status)) return [];
  const base = { status: t.status, queueId: t.queueId, userId: t.userId };
  return [base, ...[...new Set(t.tagIds)].map((tagId) => ({ ...base, tagId }))];
};
export const skOfCell = (c: CountCell) => countSk(c.status, c.queueId, c.userId, c.tagId);
/** Whether the tickets of a cell are in a list (the same rule as listPartitions, per ticket). */
export const inList = (scope: TicketListScope) => {
  const { viewer, query: q } = scope;
  const { isAdmin, queues, withQueueless } = listShape(scope);
  return (c: CountCell) => {
    if (q.status && c.status !== q.status) return false;
    if (isAdmin && q.users.length) return c.userId !== null && q.users.includes(c.userId);
    if (isAdmin && !q.queueIds.length) return true;
    if (c.userId !== null && c.userId === viewer.userId) return true;
    return c.queueId === null ? withQueueless : queues.includes(c.queueId);
  };
};

/**
 * Filters applied while reading (bounded per page): tags (unless the list reads the tags' copies, or `tags` says
 * otherwise), unread, day of last activity.
 */
export const listFilter = (q: TicketListQuery, tags = !readsTagCopies(q)): ItemFilter | undefined => {
  const parts: string[] = [];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  if (tags && q.tags.length) {
    names["#tags"] = "tagIds";
    parts.push(`(${q.tags.map((t, i) => ((values[`:tag${i}`] = t), `contains(#tags, :tag${i})`)).join(" OR ")})`);
  }
  if (q.withUnreadMessages) {
    names["#unread"] = "unreadMessages";
    values[":zero"] = 0;
    parts.push("#unread > :zero");
  }
  const day = (q.date ?? q.updatedAt ?? "").slice(0, 10);
  if (/^\d{4}-\d{2}-\d{2}$/.test(day)) {
    names["#upd"] = "updatedAt";
    values[":day"] = day;
    parts.push("begins_with(#upd, :day)");
  }
  return parts.length ? { expression: parts.join(" AND "), names, values } : undefined;
};

/** Tickets whose last message contains a (lower-cased) text. */
export const lastMessageFilter = (term: string): ItemFilter => ({ expression: "contains(#lm, :q)", names: { "#lm": "lastMessageLc" }, values: { ":q": term.toLowerCase() } });

/** Attention cycles by company and month of queuing (dashboard reads by time range, never a scan). */
export const cycleMonthPk = (companyId: number, iso: string) => `${companyPk(companyId)}#CYCLES#${iso.slice(0, 7)}`;

/** The index keys of a ticket item, or (`tagId`) of its copy for that tag (docs/adr/0040). */
export const indexFields = (t: TicketRecord, tagId?: number) => {
  const act = activityKey(t);
  return {
    act,
    gsi1pk: statusPartition(t.companyId, t.status, tagId).pk,
    gsi1sk: act,
    gsi2pk: queuePartition(t.companyId, t.queueId, t.status, tagId).pk,
    gsi2sk: act,
    ...(t.userId !== null ? { gsi3pk: userPartition(t.companyId, t.userId, t.status, tagId).pk, gsi3sk: act } : {}),
  };
};
/**
 * A ticket's copy per tag it carries (docs/adr/0040-tag-lists-and-page-tokens.md; closed tickets too since
 * docs/adr/0057): the whole ticket under `CO#c#TTAG#<ticket>` / `TAG#<tag>`, indexed like the ticket in the tag's own
 * partitions, so a tag-filtered tab of any status reads about one page. Rewritten in the ticket's own transaction on
 * every write of the ticket; deleted when it loses the tag or is deleted. The LGPD erasure anonymises a closed
 * ticket's copies with the ticket (lgpd/erasure-planner.ts).
 */
export const tagCopyKey = (companyId: number, ticketId: number, tagId: number) => ({ pk: `${companyPk(companyId)}#TTAG#${pad(ticketId)}`, sk: `TAG#${pad(tagId)}` });
export const copiedTags = (t: TicketRecord | null): number[] => (t && COPIED.has(t.status) ? [...new Set(t.tagIds)] : []);
