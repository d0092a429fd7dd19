import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { CycleSla, TicketChange, TicketCycle, TicketView } from "@atende/shared/contracts/http/tickets";
import type { TicketListQuery, TicketStatus } from "@atende/shared/domain/tickets/ticket";
import { TICKET_STATUSES } from "@atende/shared/domain/tickets/ticket";
import type { TicketViewer } from "@atende/shared/domain/tickets/visibility";
import type { Db } from "../../../platform/db/client";
import { companyPk, pad } from "../../../platform/db/keys";
import { mergedIndexPage, type IndexPartition, type ItemFilter } from "../../../platform/db/merged-query";
import { mapItem, type RecordFields } from "../../../platform/db/map-item";
import { transact, TxConditionFailed, type TxItem } from "../../../platform/db/transact";
import { batchGetAll } from "../../../platform/db/batch-get";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import { contactFromItem, contactItemKey } from "../contacts/contacts.repository";

/** Where the chatbot is with a customer (kept on the ticket, so a restart never forgets). */
export type BotState = {
  stage: "none" | "queues" | "options" | "done";
  /** current option node in the queue's tree (null = the queue's root) */
  optionParentId: number | null;
  /** menus sent this cycle (maxUseBotQueues) */
  sends: number;
  lastSentAt: string | null;
  outOfHoursAt: string | null;
  greetedAt: string | null;
  /** the words of the last automatic message sent with a bot state (a digest): its repeat is not indexed (docs/adr/0061) */
  digest?: string | null;
};
export const NEW_BOT: BotState = { stage: "none", optionParentId: null, sends: 0, lastSentAt: null, outOfHoursAt: null, greetedAt: null };

/** What a ticket starts with besides who, where and how it was opened: no message yet, no tags, no bot turn. */
export const newTicketFields = (at: string) => ({
  lastMessage: "",
  lastMessageLc: "",
  lastMessageAt: at,
  lastFromMe: false,
  lastInboundId: null,
  unreadMessages: 0,
  tagIds: [] as number[],
  presence: null,
  chatbot: false,
  useIntegration: false,
  promptId: null,
  integrationId: null,
  bot: NEW_BOT,
  createdAt: at,
  updatedAt: at,
});

/**
 * The attention cycle as kept on the ticket (copied to the cycle item the dashboard and reports read). Tickets
 * stored before issue 13 lack `protocol`, `firstResponseAt` and `sla`.
 */
export type TicketCycleTimes = {
  queuedAt: string;
  acceptedAt: string | null;
  finishedAt: string | null;
  ratedAt: string | null;
  rating: number | null;
  /** YYYYMMDD + daily sequence, given when the cycle starts, never recomputed (tickets/protocols.ts) */
  protocol?: string | null;
  /** the first message an attendant (not a bot, not an automatic message) sent in the cycle */
  firstResponseAt?: string | null;
  /** the last message an attendant sent in the cycle (SLA: next response, waiting on the customer) */
  lastResponseAt?: string | null;
  /** SLA clocks (features/sla) */
  sla?: CycleSla | null;
  /** reports (issue 13): queues and owners of the cycle in order, when the rating request went out */
  queuePath?: number[];
  userIds?: number[];
  ratingRequestedAt?: string | null;
};

/**
 * What a ticket's card shows of its contact (the API's `TicketView.contact`), copied onto the ticket's list items so a
 * list page needs no read of the contacts (docs/adr/0057). Kept by the ticket's writes (it travels with the record) and
 * by every change of the contact (`TicketsRepository#followContact`).
 */
export type ContactCard = NonNullable<TicketView["contact"]>;
/** The card's copy of a contact (the same fields as the API's `contact` of a ticket, nothing else: no LID, no dates). */
export const contactCardOf = (c: ContactCard): ContactCard => ({
  id: c.id,
  name: c.name,
  number: c.number,
  email: c.email,
  profilePicUrl: c.profilePicUrl,
  isGroup: c.isGroup,
  extraInfo: c.extraInfo,
});
/**
 * The largest card copied onto tickets (its JSON, ~150–300 bytes for a usual contact): a contact with long extra fields
 * (up to 50 × 1,000 characters) would make every write of each of its tickets and copies that much larger, so its
 * tickets carry no copy and their cards read the contact, as items written before the copies do.
 */
export const CONTACT_CARD_MAX_BYTES = 2048;
/** The card a ticket of this contact carries: `{ contactCard }`, or `{}` when the card is too large to copy. */
export const contactCardFields = (c: ContactCard): { contactCard?: ContactCard } => {
  const card = contactCardOf(c);
  return Buffer.byteLength(JSON.stringify(card)) <= CONTACT_CARD_MAX_BYTES ? { contactCard: card } : {};
};
/** Whether two copies are the same (`undefined`: no copy — an item written before the copies existed, or too large). */
export const sameContactCard = (a: ContactCard | null | undefined, b: ContactCard | null | undefined) =>
  a === undefined || a === null || b === undefined || b === null ? a === b : JSON.stringify(contactCardOf(a)) === JSON.stringify(contactCardOf(b));

export type TicketRecord = {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  contactId: number;
  chatJid: string;
  isGroup: boolean;
  lastMessage: string;
  lastMessageLc: string;
  lastMessageAt: string;
  /** true when the last message was ours (expiry only closes those) */
  lastFromMe: boolean;
  lastInboundId: string | null;
  unreadMessages: number;
  tagIds: number[];
  presence: "composing" | "recording" | null;
  chatbot: boolean;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  bot: BotState;
  /** the attention cycle's times (copied to the cycle item the dashboard reads) */
  cycle: TicketCycleTimes;
  /** optimistic lock: every write is conditioned on the version it read */
  version: number;
  createdAt: string;
  updatedAt: string;
  /**
   * The contact's card (docs/adr/0057): absent on items written before session 9 (their cards read the contact),
   * null once the contact is deleted (the card shows no contact, as before).
   */
  contactCard?: ContactCard | null;
};

const activityKey = (t: TicketRecord) => `${t.updatedAt}#${pad(t.id)}`;
const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `TICKET#${pad(id)}` });
const uuidKey = (companyId: number, uuid: string) => ({ pk: `${companyPk(companyId)}#TUUID#${uuid}`, sk: "TUUID" });
/** The "one pending/open ticket per contact and connection" lock (docs/adr/0005-ticket-keys.md). */
const openLockKey = (companyId: number, contactId: number, whatsappId: number | null) => ({
  pk: `${companyPk(companyId)}#OPEN#${contactId}#${whatsappId ?? 0}`,
  sk: "OPEN",
});
const contactTicketKey = (companyId: number, contactId: number, ticketId: number) => ({ pk: `${companyPk(companyId)}#CT#${contactId}`, sk: pad(ticketId) });
const cycleKey = (companyId: number, ticketId: number) => ({ pk: companyPk(companyId), sk: `CYCLE#${pad(ticketId)}` });
/** Protocol number → ticket (the ticket search finds a cycle by its protocol). */
const protocolKey = (companyId: number, protocol: string) => ({ pk: `${companyPk(companyId)}#PROTO#${protocol}`, sk: "PROTO" });
const changeKey = (companyId: number, ticketId: number, at: string, seq: string) => ({ pk: `${companyPk(companyId)}#TLOG#${ticketId}`, sk: `${at}#${seq}` });
const ratingWaitKey = (companyId: number, contactId: number, whatsappId: number | null) => ({
  pk: `${companyPk(companyId)}#RATE#${contactId}#${whatsappId ?? 0}`,
  sk: "RATE",
});

/**
 * Index partitions of a ticket: by status (gsi1), by queue and status (gsi2), by owner and status (gsi3). With a
 * tag: the same partitions of that tag's copies of the tickets carrying it (docs/adr/0040-tag-lists-and-page-tokens.md, 0057).
 */
const family = (companyId: number, tagId?: number) => `${companyPk(companyId)}${tagId !== undefined ? `#TG#${tagId}` : ""}`;
const statusPartition = (companyId: number, status: TicketStatus, tagId?: number): IndexPartition => ({ index: "gsi1", pk: `${family(companyId, tagId)}#TST#${status}` });
const queuePartition = (companyId: number, queueId: number | null, status: TicketStatus, tagId?: number): IndexPartition => ({
  index: "gsi2",
  pk: `${family(companyId, tagId)}#TQ#${queueId ?? 0}#${status}`,
});
const userPartition = (companyId: number, userId: number, status: TicketStatus, tagId?: number): IndexPartition => ({
  index: "gsi3",
  pk: `${family(companyId, tagId)}#TU#${userId}#${status}`,
});
/** Live statuses: they have counter cells (below); the closed history has none (its tab has no exact count). */
const COUNTED: ReadonlySet<TicketStatus> = new Set<TicketStatus>(["pending", "open"]);
/**
 * Statuses whose tickets have tag copies: live ones since docs/adr/0040, closed ones too since docs/adr/0057 (the closed
 * tab with a tag filter read ~400 tickets by item filter to find a page; it reads the tag's closed partitions now).
 */
const COPIED: ReadonlySet<TicketStatus> = new Set<TicketStatus>(TICKET_STATUSES);
/**
 * A contact's change reaching its tickets' cards (docs/adr/0057): tickets read per BatchGetItem, updates per
 * transaction (DynamoDB's limit), and single updates in flight at once when a transaction had to be redone ticket by ticket.
 */
const FOLLOW_READ = 100;
const FOLLOW_TX_ITEMS = 100;
const FOLLOW_CONCURRENCY = 16;

/**
 * What a ticket list reads: the caller and their query. `companyQueueIds` is no longer needed by the lists (an
 * admin sees every ticket, so an admin's list without a queue filter is the status partition and one with a
 * queue filter reads the named queues: the partition keys carry the company, so a foreign id finds nothing);
 * kept optional for callers that still pass it (docs/adr/0036-ticket-list-keys.md).
 */
export type TicketListScope = { companyId: number; viewer: TicketViewer; query: TicketListQuery; companyQueueIds?: number[] };

/** Which queues a non-user-filtered list reads, and whether it adds the queue-less tickets and the viewer's own. */
const listShape = ({ viewer, query: q }: TicketListScope) => {
  const isAdmin = viewer.profile === "admin";
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
const basePartitions = (scope: TicketListScope, tagId?: number): IndexPartition[] => {
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
const readsTagCopies = (q: TicketListQuery) => q.tags.length > 0 && !!q.status && COPIED.has(q.status);
const listPartitions = (scope: TicketListScope): IndexPartition[] =>
  readsTagCopies(scope.query) ? [...new Set(scope.query.tags)].flatMap((tagId) => basePartitions(scope, tagId)) : basePartitions(scope);

/**
 * The list counters (docs/adr/0036-ticket-list-keys.md): one small item per company, live status, queue and
 * owner (`CO#c#TCNT` / `<status>#<queueId or 0>#<userId or 0>`, `n` = tickets in that cell), kept by every ticket
 * write in the ticket's own transaction. A ticket is in exactly one cell, so any list's exact count is the sum
 * of the cells its partitions cover, without double-counting a ticket that is both in a queue and owned.
 * Only the live statuses (pending, open) have cells: the closed history has no exact count.
 */
const countPk = (companyId: number) => `${companyPk(companyId)}#TCNT`;
/** `tagId`: the cell of the tickets carrying that tag (a ticket is in one such cell per tag), for a one-tag filter. */
const countSk = (status: TicketStatus, queueId: number | null, userId: number | null, tagId?: number) =>
  `${tagId !== undefined ? `T${tagId}#` : ""}${status}#${queueId ?? 0}#${userId ?? 0}`;
type CountCell = { status: TicketStatus; queueId: number | null; userId: number | null; tagId?: number };
const cellsOf = (t: (CountCell & { tagIds: number[] }) | null): CountCell[] => {
  if (!t || !COUNTED.has(t.status)) return [];
  const base = { status: t.status, queueId: t.queueId, userId: t.userId };
  return [base, ...[...new Set(t.tagIds)].map((tagId) => ({ ...base, tagId }))];
};
const skOfCell = (c: CountCell) => countSk(c.status, c.queueId, c.userId, c.tagId);
/** Whether the tickets of a cell are in a list (the same rule as listPartitions, per ticket). */
const inList = (scope: TicketListScope) => {
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
const listFilter = (q: TicketListQuery, tags = !readsTagCopies(q)): ItemFilter | undefined => {
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
const lastMessageFilter = (term: string): ItemFilter => ({ expression: "contains(#lm, :q)", names: { "#lm": "lastMessageLc" }, values: { ":q": term.toLowerCase() } });

/** Attention cycles by company and month of queuing (dashboard reads by time range, never a scan). */
const cycleMonthPk = (companyId: number, iso: string) => `${companyPk(companyId)}#CYCLES#${iso.slice(0, 7)}`;

/** The index keys of a ticket item, or (`tagId`) of its copy for that tag (docs/adr/0040). */
const indexFields = (t: TicketRecord, tagId?: number) => {
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
const tagCopyKey = (companyId: number, ticketId: number, tagId: number) => ({ pk: `${companyPk(companyId)}#TTAG#${pad(ticketId)}`, sk: `TAG#${pad(tagId)}` });
const copiedTags = (t: TicketRecord | null): number[] => (t && COPIED.has(t.status) ? [...new Set(t.tagIds)] : []);

const toTicket = mapItem<TicketRecord>({
  id: true,
  uuid: true,
  companyId: true,
  status: true,
  userId: true,
  queueId: true,
  whatsappId: true,
  contactId: true,
  chatJid: true,
  isGroup: true,
  lastMessage: true,
  lastMessageLc: true,
  lastMessageAt: true,
  lastFromMe: true,
  lastInboundId: true,
  unreadMessages: true,
  tagIds: true,
  presence: true,
  chatbot: true,
  useIntegration: true,
  promptId: true,
  integrationId: true,
  bot: true,
  cycle: true,
  version: true,
  createdAt: true,
  updatedAt: true,
  contactCard: true,
});
/** The attributes of a ticket its card (the API's TicketView, inbox-directory.ts#toTicketView) and the lists' visibility read. */
const CARD_FIELDS = {
  id: true,
  uuid: true,
  status: true,
  userId: true,
  queueId: true,
  whatsappId: true,
  contactId: true,
  lastMessage: true,
  updatedAt: true,
  createdAt: true,
  version: true,
  unreadMessages: true,
  tagIds: true,
  presence: true,
  isGroup: true,
  chatbot: true,
  useIntegration: true,
  promptId: true,
  integrationId: true,
  contactCard: true,
} as const satisfies Partial<RecordFields<TicketRecord>>;
/** What a ticket's card reads of it: CARD_FIELDS and, of its cycle, the protocol and the SLA clocks. */
export type TicketCard = Pick<TicketRecord, keyof typeof CARD_FIELDS> & { cycle: Pick<TicketCycleTimes, "protocol" | "sla"> };
const CARD_ATTRIBUTES = [...Object.keys(CARD_FIELDS), "cycle.protocol", "cycle.sla"];
const toCardFields = mapItem<Omit<TicketCard, "cycle">>(CARD_FIELDS);
/** A card's item as read with CARD_ATTRIBUTES (a cycle without protocol and SLA comes back without `cycle`). */
const toCard = (item: Record<string, unknown>): TicketCard => {
  const cycle = (item.cycle ?? {}) as TicketCard["cycle"];
  return { ...toCardFields(item), cycle: { ...(cycle.protocol !== undefined ? { protocol: cycle.protocol } : {}), ...(cycle.sla !== undefined ? { sla: cycle.sla } : {}) } };
};

const toCycle = mapItem<TicketCycle>({
  ticketId: true,
  companyId: true,
  contactId: true,
  whatsappId: true,
  queueId: true,
  userId: true,
  queuedAt: true,
  acceptedAt: true,
  finishedAt: true,
  ratedAt: true,
  rating: true,
  status: true,
  protocol: true,
  firstResponseAt: true,
  sla: true,
  queuePath: true,
  userIds: true,
  tagIds: true,
  ratingRequestedAt: true,
});
const toChange = mapItem<TicketChange>({
  ticketId: true,
  at: true,
  byUserId: true,
  action: true,
  from: true,
  to: true,
});

export const createTicketsRepository = (db: Db) => {
  const T = db.tableName;
  /** One page of tickets from several index partitions, newest activity first. */
  const read = (partitions: IndexPartition[], limit: number, cursor?: string, filter?: ItemFilter, attributes?: readonly string[]) =>
    // one ticket may come from several partitions (own ticket in the viewer's queue, two of the filter's tags);
    // a filter reads its budget in one query per partition (round trips, docs/adr/0040)
    mergedIndexPage(db, partitions, { limit, cursor, filter, orderField: "act", dedupeBy: "id", budgetInOneRead: true, attributes });
  const page = async (partitions: IndexPartition[], limit: number, cursor?: string, filter?: ItemFilter) => {
    const out = await read(partitions, limit, cursor, filter);
    return { items: out.items.map(toTicket), next: out.next };
  };
  /** Items of some partitions (each partition's 1 MB pages one after another, the partitions side by side). */
  const count = async (partitions: IndexPartition[], filter?: ItemFilter): Promise<number> => {
    let total = 0;
    await Promise.all(partitions.map(async (p) => {
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            IndexName: p.index,
            KeyConditionExpression: "#pk = :pk",
            ExpressionAttributeNames: { "#pk": `${p.index}pk`, ...filter?.names },
            ExpressionAttributeValues: { ":pk": p.pk, ...filter?.values },
            ...(filter ? { FilterExpression: filter.expression } : {}),
            Select: "COUNT",
            ExclusiveStartKey: start,
          }),
        );
        total += out.Count ?? 0;
        start = out.LastEvaluatedKey;
      } while (start);
    }));
    return total;
  };
  /** Distinct tickets of some partitions (a ticket in several of them counted once): ids only, the partitions side by side. */
  const countDistinct = async (partitions: IndexPartition[], filter?: ItemFilter): Promise<number> => {
    const ids = new Set<unknown>();
    await Promise.all(
      partitions.map(async (p) => {
        let start: Record<string, unknown> | undefined;
        do {
          const out = await db.doc.send(
            new QueryCommand({
              TableName: T,
              IndexName: p.index,
              KeyConditionExpression: "#pk = :pk",
              ExpressionAttributeNames: { "#pk": `${p.index}pk`, "#id": "id", ...filter?.names },
              ExpressionAttributeValues: { ":pk": p.pk, ...filter?.values },
              ...(filter ? { FilterExpression: filter.expression } : {}),
              ProjectionExpression: "#id",
              ExclusiveStartKey: start,
            }),
          );
          for (const i of out.Items ?? []) ids.add(i.id);
          start = out.LastEvaluatedKey;
        } while (start);
      }),
    );
    return ids.size;
  };
  return {
    async findById(companyId: number, id: number): Promise<TicketRecord | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id), ConsistentRead: true }));
      return out.Item ? toTicket(out.Item) : null;
    },
    /**
     * The ticket and a contact in one strongly consistent BatchGetItem: one round trip and one call instead of two
     * side by side (a receipt's frame needs both, docs/adr/0045).
     */
    async findWithContact(companyId: number, id: number, contactId: number): Promise<{ ticket: TicketRecord | null; contact: Contact | null }> {
      const items = await batchGetAll(db, [key(companyId, id), contactItemKey(companyId, contactId)], { consistent: true });
      const ticketSk = key(companyId, id).sk;
      const contactSk = contactItemKey(companyId, contactId).sk;
      const ticket = items.find((i) => i.sk === ticketSk);
      const contact = items.find((i) => i.sk === contactSk);
      return { ticket: ticket ? toTicket(ticket) : null, contact: contact ? contactFromItem(contact) : null };
    },
    /** `fields`: only these fields of each ticket (search reads a few of many). */
    async findByIds(companyId: number, ids: number[], fields?: readonly string[]): Promise<TicketRecord[]> {
      return (await batchGetAll(db, [...new Set(ids)].map((id) => key(companyId, id)), fields ? { attributes: fields } : {})).map(toTicket);
    },
    async findIdByUuid(companyId: number, uuid: string): Promise<number | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: uuidKey(companyId, uuid) }));
      return out.Item ? Number(out.Item.ticketId) : null;
    },
    /** The ticket whose attention cycle has this protocol number. */
    async findIdByProtocol(companyId: number, protocol: string): Promise<number | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: protocolKey(companyId, protocol) }));
      return out.Item ? Number(out.Item.ticketId) : null;
    },
    /** The pending/open ticket of a contact on a connection, through the lock item (strongly consistent). */
    async findOpenId(companyId: number, contactId: number, whatsappId: number | null): Promise<number | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: openLockKey(companyId, contactId, whatsappId), ConsistentRead: true }));
      return out.Item ? Number(out.Item.ticketId) : null;
    },
    /** Newest tickets of a contact (search by contact, conversation history). */
    async listIdsByContact(companyId: number, contactId: number, limit: number): Promise<number[]> {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: T,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": contactTicketKey(companyId, contactId, 0).pk },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return (out.Items ?? []).map((i) => Number(i.ticketId));
    },
    /**
     * A contact's change reaches the cards of all its tickets at once (docs/adr/0057): every ticket of the contact
     * (its `CT#` pointers, newest first) gets the new `contactCard` and one more `version` — a ticket write read
     * before this one then loses its version condition and re-reads, so it never puts the old copy back — and the
     * ticket's tag copies (docs/adr/0040) get the card and the ticket's new version unless a newer write of the
     * ticket already rewrote them. `null`: the contact was deleted (its cards show no contact); `undefined`: the card
     * is too large to copy (CONTACT_CARD_MAX_BYTES), the copies are removed and the cards read the contact. In bulk:
     * one BatchGetItem per 100 tickets and one transaction per 100 updates (a contact with 10 tickets: 3 calls); a
     * transaction that loses a condition is redone ticket by ticket. Answers how many tickets and copies it wrote.
     */
    async followContact(companyId: number, contactId: number, card: ContactCard | null | undefined): Promise<{ tickets: number; copies: number }> {
      const set = card !== undefined;
      const ids: number[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": contactTicketKey(companyId, contactId, 0).pk },
            ProjectionExpression: "ticketId",
            ScanIndexForward: false,
            ExclusiveStartKey: start,
          }),
        );
        ids.push(...(out.Items ?? []).map((i) => Number(i.ticketId)));
        start = out.LastEvaluatedKey;
      } while (start);
      const written = { tickets: 0, copies: 0 };
      const ignoringCondition = async (send: () => Promise<unknown>) => {
        try {
          await send();
          return true;
        } catch (e) {
          if ((e as Error).name === "ConditionalCheckFailedException") return false;
          throw e;
        }
      };
      const one = async (ticketId: number) => {
        let after: Record<string, unknown> | undefined;
        const updated = await ignoringCondition(async () => {
          const out = await db.doc.send(
            new UpdateCommand({
              TableName: T,
              Key: key(companyId, ticketId),
              UpdateExpression: set ? "SET #cc = :cc ADD #v :one" : "REMOVE #cc ADD #v :one",
              // an item of this contact only (never creates one: the ticket may be gone)
              ConditionExpression: "attribute_exists(pk) AND #cid = :cid",
              ExpressionAttributeNames: { "#cc": "contactCard", "#v": "version", "#cid": "contactId" },
              ExpressionAttributeValues: { ...(set ? { ":cc": card } : {}), ":one": 1, ":cid": contactId },
              ReturnValues: "ALL_NEW",
            }),
          );
          after = out.Attributes;
        });
        if (!updated || !after) return;
        written.tickets++;
        const status = after.status as TicketStatus;
        if (!COPIED.has(status)) return;
        const version = Number(after.version);
        await Promise.all(
          [...new Set((after.tagIds as number[] | undefined) ?? [])].map(async (tagId) => {
            const done = await ignoringCondition(() =>
              db.doc.send(
                new UpdateCommand({
                  TableName: T,
                  Key: tagCopyKey(companyId, ticketId, tagId),
                  UpdateExpression: set ? "SET #cc = :cc, #v = :v" : "SET #v = :v REMOVE #cc",
                  ConditionExpression: "attribute_exists(pk) AND #v <= :v",
                  ExpressionAttributeNames: { "#cc": "contactCard", "#v": "version" },
                  ExpressionAttributeValues: { ...(set ? { ":cc": card } : {}), ":v": version },
                }),
              ),
            );
            if (done) written.copies++;
          }),
        );
      };
      // in bulk: the tickets' status, tags and version (one BatchGetItem per 100), then transactions of up to 100
      // updates, each ticket's conditioned on the version just read (so its copies are the ones that version wrote);
      // a transaction that loses a condition (a ticket written meanwhile, a copy missing) redoes its tickets one by one
      const names = { "#cc": "contactCard", "#v": "version", "#cid": "contactId" };
      const setCard = (v: number) => ({
        UpdateExpression: set ? "SET #cc = :cc, #v = :nv" : "SET #v = :nv REMOVE #cc",
        ExpressionAttributeValues: { ...(set ? { ":cc": card } : {}), ":nv": v + 1 },
      });
      type Found = { id: number; version: number; copies: number[] };
      const run = async (group: Found[]) => {
        const items: TxItem[] = group.flatMap((f): TxItem[] => {
          const ticket = setCard(f.version);
          return [
            {
              Update: {
                TableName: T,
                Key: key(companyId, f.id),
                ...ticket,
                ConditionExpression: "#v = :v AND #cid = :cid",
                ExpressionAttributeNames: names,
                ExpressionAttributeValues: { ...ticket.ExpressionAttributeValues, ":v": f.version, ":cid": contactId },
              },
            },
            ...f.copies.map((tagId): TxItem => {
              const copy = setCard(f.version);
              return { Update: { TableName: T, Key: tagCopyKey(companyId, f.id, tagId), ...copy, ConditionExpression: "attribute_exists(pk)", ExpressionAttributeNames: { "#cc": "contactCard", "#v": "version" } } };
            }),
          ];
        });
        try {
          await transact(db, items);
          written.tickets += group.length;
          written.copies += items.length - group.length;
        } catch (e) {
          if (!(e instanceof TxConditionFailed)) throw e;
          for (let i = 0; i < group.length; i += FOLLOW_CONCURRENCY) await Promise.all(group.slice(i, i + FOLLOW_CONCURRENCY).map((f) => one(f.id)));
        }
      };
      for (let i = 0; i < ids.length; i += FOLLOW_READ) {
        const found = (await batchGetAll(db, ids.slice(i, i + FOLLOW_READ).map((id) => key(companyId, id)), { consistent: true, attributes: ["id", "status", "tagIds", "version", "contactId"] }))
          .filter((it) => Number(it.contactId) === contactId)
          .map((it): Found => ({ id: Number(it.id), version: Number(it.version), copies: COPIED.has(it.status as TicketStatus) ? [...new Set((it.tagIds as number[] | undefined) ?? [])] : [] }));
        const groups: Found[][] = [];
        let ops = 0;
        for (const f of found) {
          if (!groups.length || ops + 1 + f.copies.length > FOLLOW_TX_ITEMS) {
            groups.push([]);
            ops = 0;
          }
          groups.at(-1)!.push(f);
          ops += 1 + f.copies.length;
        }
        await Promise.all(groups.map(run));
      }
      return written;
    },
    /** What identifies a list's reads (its partitions and filter), for the page cursors kept between requests. */
    listCacheKey(scope: TicketListScope): unknown[] {
      return ["tickets", listPartitions(scope).map((p) => p.pk), listFilter(scope.query) ?? null];
    },
    /**
     * Whether a list reads without an item filter (tags read by item filter, unread, date): then a read of `n` pages'
     * worth of items gives exactly the items of pages 1..n one after the other (no page cut short by a read budget),
     * which lets the first pages be served from the start without a remembered cursor (docs/adr/0046).
     */
    readsWithoutItemFilter(scope: TicketListScope): boolean {
      return listFilter(scope.query) === undefined;
    },
    /** One page of a ticket list (the query's filters applied while reading), newest activity first. */
    async pageList(scope: TicketListScope, limit: number, cursor?: string) {
      return page(listPartitions(scope), limit, cursor, listFilter(scope.query));
    },
    /**
     * pageList reading only what a ticket's card shows (docs/adr/0050): about half of a ticket item's attributes
     * (not its index keys, bot state, cycle history, lower-cased text or chat id), fewer bytes to carry
     * and to unmarshal per item; the same items, order and cursor.
     */
    async pageListCards(scope: TicketListScope, limit: number, cursor?: string): Promise<{ items: TicketCard[]; next?: string }> {
      const out = await read(listPartitions(scope), limit, cursor, listFilter(scope.query), CARD_ATTRIBUTES);
      return { items: out.items.map(toCard), next: out.next };
    },
    /**
     * How many tickets a list holds. A pending or open list without item filters (tags, unread, date) sums its
     * counter cells (one query of a small partition, whatever the history's size); otherwise every partition is
     * counted (meant for the small open and pending sets).
     */
    async countList(scope: TicketListScope): Promise<number> {
      const q = scope.query;
      const status = q.status;
      // one tag, no other item filter: the tag's cells; unread, a date or several tags: every partition counted
      const byCells = !!status && COUNTED.has(status) && !listFilter(q, false) && q.tags.length <= 1;
      // several tags (or a tag with unread/date): the tags' copies' ids, a ticket counted once (bounded by the live
      // tickets carrying those tags, not by the tab)
      if (!byCells) return readsTagCopies(q) ? countDistinct(listPartitions(scope), listFilter(q)) : count(listPartitions(scope), listFilter(q));
      const member = inList(scope);
      let total = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: "pk = :pk AND begins_with(sk, :s)",
            ExpressionAttributeValues: { ":pk": countPk(scope.companyId), ":s": `${q.tags.length ? `T${q.tags[0]}#` : ""}${status}#` },
            ExclusiveStartKey: start,
          }),
        );
        for (const i of out.Items ?? []) {
          const cell = { status: i.status as TicketStatus, queueId: (i.queueId as number | null) ?? null, userId: (i.userId as number | null) ?? null };
          if (member(cell)) total += Number(i.n ?? 0);
        }
        start = out.LastEvaluatedKey;
      } while (start);
      return total;
    },
    /**
     * The counter updates of a ticket moving from `before` to `after` (null: created / deleted), for the ticket's
     * own transaction; none when it stays in the same cells (a message, a read).
     */
    countItems(before: TicketRecord | null, after: TicketRecord | null): TxItem[] {
      const from = new Map(cellsOf(before).map((c) => [skOfCell(c), c]));
      const to = new Map(cellsOf(after).map((c) => [skOfCell(c), c]));
      const companyId = (after ?? before)!.companyId;
      const add = (c: CountCell, n: number): TxItem => ({
        Update: {
          TableName: T,
          Key: { pk: countPk(companyId), sk: skOfCell(c) },
          UpdateExpression: "SET #e = :e, #s = :s, #q = :q, #u = :u ADD #n :n",
          ExpressionAttributeNames: { "#e": "entity", "#s": "status", "#q": "queueId", "#u": "userId", "#n": "n" },
          ExpressionAttributeValues: { ":e": "ticketCount", ":s": c.status, ":q": c.queueId, ":u": c.userId, ":n": n },
        },
      });
      return [...[...from].filter(([k]) => !to.has(k)).map(([, c]) => add(c, -1)), ...[...to].filter(([k]) => !from.has(k)).map(([, c]) => add(c, 1))];
    },
    /**
     * The tag copies of a ticket moving from `before` to `after` (null: created / deleted), for the ticket's own
     * transaction (docs/adr/0040, 0057): every copy of a tagged ticket is rewritten with it (its card and activity
     * change with it), copies of tags it lost or of a deleted ticket are deleted.
     */
    tagCopyItems(before: TicketRecord | null, after: TicketRecord | null): TxItem[] {
      const kept = copiedTags(after);
      const t = (after ?? before)!;
      return [
        ...copiedTags(before)
          .filter((tagId) => !kept.includes(tagId))
          .map((tagId): TxItem => ({ Delete: { TableName: T, Key: tagCopyKey(t.companyId, t.id, tagId) } })),
        ...kept.map((tagId): TxItem => ({ Put: { TableName: T, Item: { ...tagCopyKey(t.companyId, t.id, tagId), ...indexFields(after!, tagId), entity: "ticketTagCopy", tagId, ...after } } })),
      ];
    },
    /**
     * Rebuilds a company's counter cells (from its pending and open tickets) and tag copies (docs/adr/0040; of its
     * closed tagged tickets too since docs/adr/0057) for a table written before they existed, or data loaded around
     * the repository (e.g. the benchmark's seed). Writes absolute values: run it while the company's tickets are not
     * changing. (Copies are only added or replaced: a copy of a tag the ticket no longer carries goes with the
     * ticket's next write.)
     */
    async recountLists(companyId: number): Promise<void> {
      const cells = new Map<string, CountCell & { n: number }>();
      const copies: Record<string, unknown>[] = [];
      for (const status of COPIED) {
        // the closed history only for its tagged tickets' copies (it has no counter cells)
        const taggedOnly = !COUNTED.has(status);
        let start: Record<string, unknown> | undefined;
        do {
          const out = await db.doc.send(
            new QueryCommand({
              TableName: T,
              IndexName: "gsi1",
              KeyConditionExpression: "gsi1pk = :pk",
              ExpressionAttributeValues: { ":pk": statusPartition(companyId, status).pk, ...(taggedOnly ? { ":zero": 0 } : {}) },
              ...(taggedOnly ? { FilterExpression: "size(tagIds) > :zero" } : {}),
              ExclusiveStartKey: start,
            }),
          );
          for (const i of out.Items ?? []) {
            const t = toTicket(i);
            t.tagIds = t.tagIds ?? [];
            for (const c of cellsOf(t)) {
              const k = skOfCell(c);
              cells.set(k, { ...c, n: (cells.get(k)?.n ?? 0) + 1 });
            }
            for (const tagId of copiedTags(t)) copies.push({ ...tagCopyKey(companyId, t.id, tagId), ...indexFields(t, tagId), entity: "ticketTagCopy", tagId, ...t });
          }
          start = out.LastEvaluatedKey;
        } while (start);
      }
      const stale = await db.doc.send(new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": countPk(companyId) } }));
      const items = [
        ...(stale.Items ?? []).filter((i) => !cells.has(String(i.sk))).map((i) => ({ ...i, n: 0 })),
        ...[...cells].map(([sk, c]) => ({ pk: countPk(companyId), sk, entity: "ticketCount", ...c })),
        ...copies,
      ];
      for (let i = 0; i < items.length; i += 25) {
        let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
        while (pending.length) {
          const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [T]: pending } }));
          pending = (out.UnprocessedItems?.[T] ?? []) as typeof pending;
        }
      }
    },
    /** The first page of a list's tickets whose last message contains `term` (the query's other filters not applied). */
    async pageListByLastMessage(scope: TicketListScope, term: string, limit: number) {
      return page(listPartitions(scope), limit, undefined, lastMessageFilter(term));
    },
    /** Automatic distribution (docs/adr/0032): up to `limit` pending tickets of a queue (newest activity first). */
    async listQueuePending(companyId: number, queueId: number, limit: number): Promise<TicketRecord[]> {
      return (await page([queuePartition(companyId, queueId, "pending")], limit)).items;
    },
    /** Automatic distribution: how many open tickets a user owns (reconciles the slot counter). */
    async countOwnedOpen(companyId: number, userId: number): Promise<number> {
      return count([userPartition(companyId, userId, "open")]);
    },
    /** One page merging several lists (e.g. the open and the pending tab of the kanban), newest activity first. */
    async pageLists(scopes: TicketListScope[], limit: number, cursor?: string) {
      return page(scopes.flatMap(listPartitions), limit, cursor);
    },

    // ---- transaction items (the service composes one transaction per change) ----
    /** A new ticket: the item, its uuid pointer and the contact's ticket pointer. */
    createItems(t: TicketRecord): TxItem[] {
      return [
        { Put: { TableName: T, Item: { ...key(t.companyId, t.id), ...indexFields(t), entity: "ticket", ...t }, ConditionExpression: "attribute_not_exists(pk)" } },
        { Put: { TableName: T, Item: { ...uuidKey(t.companyId, t.uuid), entity: "ticketUuid", ticketId: t.id } } },
        { Put: { TableName: T, Item: { ...contactTicketKey(t.companyId, t.contactId, t.id), entity: "contactTicket", ticketId: t.id } } },
        ...(t.cycle.protocol
          ? [{ Put: { TableName: T, Item: { ...protocolKey(t.companyId, t.cycle.protocol), entity: "ticketProtocol", ticketId: t.id }, ConditionExpression: "attribute_not_exists(pk)" } }]
          : []),
      ];
    },
    /** Replaces the ticket if nobody changed it since `expectedVersion` was read. */
    saveItem(t: TicketRecord, expectedVersion: number): TxItem {
      return {
        Put: {
          TableName: T,
          Item: { ...key(t.companyId, t.id), ...indexFields(t), entity: "ticket", ...t },
          ConditionExpression: "#v = :v",
          ExpressionAttributeNames: { "#v": "version" },
          ExpressionAttributeValues: { ":v": expectedVersion },
        },
      };
    },
    deleteItems(t: TicketRecord): TxItem[] {
      return [
        { Delete: { TableName: T, Key: key(t.companyId, t.id) } },
        { Delete: { TableName: T, Key: uuidKey(t.companyId, t.uuid) } },
        { Delete: { TableName: T, Key: contactTicketKey(t.companyId, t.contactId, t.id) } },
        { Delete: { TableName: T, Key: cycleKey(t.companyId, t.id) } },
        ...(t.cycle.protocol ? [{ Delete: { TableName: T, Key: protocolKey(t.companyId, t.cycle.protocol) } }] : []),
      ];
    },
    /** Takes the contact+connection lock for this ticket; fails if another ticket holds it. */
    lockOpenItem(t: Pick<TicketRecord, "companyId" | "contactId" | "whatsappId" | "id">): TxItem {
      return {
        Put: {
          TableName: T,
          Item: { ...openLockKey(t.companyId, t.contactId, t.whatsappId), entity: "ticketOpenLock", ticketId: t.id },
          ConditionExpression: "attribute_not_exists(pk) OR ticketId = :id",
          ExpressionAttributeValues: { ":id": t.id },
        },
      };
    },
    /** Releases the lock only if this ticket holds it. */
    unlockOpenItem(t: Pick<TicketRecord, "companyId" | "contactId" | "whatsappId" | "id">): TxItem {
      return {
        Delete: {
          TableName: T,
          Key: openLockKey(t.companyId, t.contactId, t.whatsappId),
          ConditionExpression: "attribute_not_exists(pk) OR ticketId = :id",
          ExpressionAttributeValues: { ":id": t.id },
        },
      };
    },
    cycleItem(c: TicketCycle): TxItem {
      return { Put: { TableName: T, Item: { ...cycleKey(c.companyId, c.ticketId), gsi1pk: cycleMonthPk(c.companyId, c.queuedAt), gsi1sk: `${c.queuedAt}#${pad(c.ticketId)}`, entity: "ticketCycle", ...c } } };
    },
    changeItem(companyId: number, change: TicketChange, seq: string): TxItem {
      return { Put: { TableName: T, Item: { ...changeKey(companyId, change.ticketId, change.at, seq), entity: "ticketChange", ...change } } };
    },
    async transact(items: TxItem[]) {
      await transact(db, items);
    },

    async findCycle(companyId: number, ticketId: number): Promise<TicketCycle | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: cycleKey(companyId, ticketId) }));
      return out.Item ? toCycle(out.Item) : null;
    },
    /** Attention cycles queued in [fromIso, toIso): one query per month bucket of the range. */
    async listCyclesBetween(companyId: number, fromIso: string, toIso: string): Promise<TicketCycle[]> {
      const months: string[] = [];
      const d = new Date(`${fromIso.slice(0, 7)}-01T00:00:00.000Z`);
      while (d.toISOString().slice(0, 7) <= toIso.slice(0, 7)) {
        months.push(d.toISOString());
        d.setUTCMonth(d.getUTCMonth() + 1);
      }
      const cycles: TicketCycle[] = [];
      for (const m of months) {
        let start: Record<string, unknown> | undefined;
        do {
          const out = await db.doc.send(
            new QueryCommand({
              TableName: T,
              IndexName: "gsi1",
              KeyConditionExpression: "gsi1pk = :pk AND gsi1sk BETWEEN :a AND :b",
              ExpressionAttributeValues: { ":pk": cycleMonthPk(companyId, m), ":a": fromIso, ":b": `${toIso}` },
              ExclusiveStartKey: start,
            }),
          );
          cycles.push(...(out.Items ?? []).map(toCycle));
          start = out.LastEvaluatedKey;
        } while (start);
      }
      return cycles.filter((c) => c.queuedAt >= fromIso && c.queuedAt < toIso);
    },
    async listChanges(companyId: number, ticketId: number): Promise<TicketChange[]> {
      const out = await db.doc.send(
        new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": changeKey(companyId, ticketId, "", "").pk } }),
      );
      return (out.Items ?? []).map(toChange);
    },

    // ---- rating wait: after a close with userRating on, the contact's next 1..3 is a rating ----
    async putRatingWait(companyId: number, contactId: number, whatsappId: number | null, ticketId: number, until: Date): Promise<void> {
      await db.doc.send(
        new PutCommand({
          TableName: T,
          Item: { ...ratingWaitKey(companyId, contactId, whatsappId), entity: "ratingWait", ticketId, until: until.toISOString(), ttl: Math.floor(until.getTime() / 1000) },
        }),
      );
    },
    async findRatingWait(companyId: number, contactId: number, whatsappId: number | null): Promise<{ ticketId: number; until: string } | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: ratingWaitKey(companyId, contactId, whatsappId), ConsistentRead: true }));
      return out.Item ? { ticketId: Number(out.Item.ticketId), until: String(out.Item.until) } : null;
    },
    /** Consumes the wait once (conditional delete): true for the one caller that took it. */
    async takeRatingWait(companyId: number, contactId: number, whatsappId: number | null): Promise<boolean> {
      try {
        await db.doc.send(new DeleteCommand({ TableName: T, Key: ratingWaitKey(companyId, contactId, whatsappId), ConditionExpression: "attribute_exists(pk)" }));
        return true;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return false;
        throw e;
      }
    },
  };
};
export type TicketsRepository = ReturnType<typeof createTicketsRepository>;
