import type { TicketListQuery, TicketStatus } from "@atende/shared/domain/tickets/ticket";
import { TICKET_STATUSES } from "@atende/shared/domain/tickets/ticket";
import { canSeeTicket, type TicketViewer } from "@atende/shared/domain/tickets/visibility";
import type { IndexPartition, ItemFilter } from "../../platform/db/merged-query";
import { queuePartition, statusPartition, userPartition } from "./tickets.repository";

/**
 * Which index partitions answer a ticket list (docs/adr/0005-ticket-keys.md):
 * - admin with users=[..]: each user's partitions (gsi3);
 * - admin with showAll and no queue filter: the status partitions (gsi1);
 * - everyone else: the partitions of the queues they may see (gsi2), filtered by `queueIds` when given, the
 *   queue-less partition when allowed (with or without a queue filter), and their own tickets (gsi3). Merged newest-first by last activity.
 */
export const listPartitions = (companyId: number, viewer: TicketViewer, q: TicketListQuery, companyQueueIds: number[]): IndexPartition[] => {
  const statuses: TicketStatus[] = q.status ? [q.status] : [...TICKET_STATUSES];
  const isAdmin = viewer.profile === "admin";
  if (isAdmin && q.users.length) return statuses.flatMap((s) => q.users.map((u) => userPartition(companyId, u, s)));
  if (isAdmin && q.showAll && !q.queueIds.length) return statuses.map((s) => statusPartition(companyId, s));
  const allowed = isAdmin ? companyQueueIds : viewer.queueIds;
  const queues = q.queueIds.length ? q.queueIds.filter((id) => allowed.includes(id)) : allowed;
  // queue-less tickets (a customer still in the menu) stay in a queue-filtered list for whoever may see them, as
  // the reference does: they would otherwise vanish from "Aguardando" while the dashboard counts them
  const withQueueless = isAdmin || viewer.allTicket === "enabled";
  return statuses.flatMap((s) => [
    ...queues.map((id) => queuePartition(companyId, id, s)),
    ...(withQueueless ? [queuePartition(companyId, null, s)] : []),
    userPartition(companyId, viewer.userId, s),
  ]);
};

/** Filters applied while reading (bounded per page): tags, unread, day of last activity. */
export const listFilter = (q: TicketListQuery): ItemFilter | undefined => {
  const parts: string[] = [];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  if (q.tags.length) {
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

export const visibleTo = (viewer: TicketViewer) => (t: { status: string; queueId: number | null; userId: number | null }) => canSeeTicket(viewer, t);
