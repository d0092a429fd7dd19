import { randomUUID } from "node:crypto";
import { ulid } from "ulid";
import type { TicketChange, TicketCycle } from "@atende/shared/contracts/http/tickets";
import type { TicketStatus } from "@atende/shared/domain/tickets/ticket";
import type { Db } from "../../../platform/db/client";
import { nextId } from "../../../platform/db/counters";
import { isTransactionConflict, TxConditionFailed, type TxItem } from "../../../platform/db/transact";
import { AppError } from "../../../platform/errors";
import type { Protocols } from "./protocols";
import type { TicketTimersRepository } from "./ticket-timers.repository";
import { newSlaAlerts, slaWakeUps, type SlaAlert } from "@atende/shared/domain/service-levels/sla";
import { newTicketFields, type TicketRecord, type TicketsRepository } from "./tickets.repository";
import type { InboxSla, TicketBoard, TicketChangeListener, TicketSlots } from "../inbox-ports";

/** Another writer changed the ticket since we read it: re-read and re-apply. */
export class VersionConflict extends Error {}
/** One of the caller's extra transaction items lost its condition (e.g. the message id is already stored). */
export class ExtraConditionFailed extends Error {
  constructor(readonly index: number) {
    super("extra condition failed");
  }
}
/** An automatic assignment lost its slot (the attendant is no longer online or reached capacity meanwhile). */
export class SlotUnavailable extends Error {}
/** The contact already has a pending/open ticket on that connection. */
export class OpenTicketExists extends Error {
  constructor(readonly ticketId: number) {
    super("open ticket exists");
  }
}

export type ChangeAction = TicketChange["action"];

/**
 * How long a write waits for its turn on a ticket many write at once (parallel sends to one number, docs/adr/0067)
 * before answering ERR_TICKET_BUSY; retries back off with full jitter up to BUSY_BACKOFF_CAP_MS apart.
 */
export const TICKET_BUSY_WAIT_MS = 15_000;
const BUSY_BACKOFF_BASE_MS = 8;
const BUSY_BACKOFF_CAP_MS = 250;
const backoff = (attempt: number) => Math.random() * Math.min(BUSY_BACKOFF_CAP_MS, BUSY_BACKOFF_BASE_MS * 2 ** attempt);
const scope = (t: TicketRecord) => ({ status: t.status, userId: t.userId, queueId: t.queueId, whatsappId: t.whatsappId });
const active = (s: TicketStatus) => s !== "closed";

export const cycleOf = (t: TicketRecord): TicketCycle => ({
  ticketId: t.id,
  companyId: t.companyId,
  contactId: t.contactId,
  whatsappId: t.whatsappId,
  queueId: t.queueId,
  userId: t.userId,
  status: t.status,
  tagIds: t.tagIds,
  ...t.cycle,
  // reports: the cycle's queue path and owners (older tickets: what they hold now)
  queuePath: t.cycle.queuePath ?? (t.queueId !== null ? [t.queueId] : []),
  userIds: t.cycle.userIds ?? (t.userId !== null ? [t.userId] : []),
});

/** The cycle's queue path and owners after a move: a new queue or owner is appended (a return to an earlier one too). */
const trackCycle = (cycle: TicketRecord["cycle"], current: Pick<TicketRecord, "queueId" | "userId">, next: Pick<TicketRecord, "queueId" | "userId">) => {
  const path = cycle.queuePath ?? (current.queueId !== null ? [current.queueId] : []);
  const users = cycle.userIds ?? (current.userId !== null ? [current.userId] : []);
  return {
    ...cycle,
    queuePath: next.queueId !== null && path[path.length - 1] !== next.queueId ? [...path, next.queueId] : path,
    userIds: next.userId !== null && !users.includes(next.userId) ? [...users, next.userId] : users,
  };
};

/**
 * Every ticket write goes through here: one transaction holding the ticket (conditioned on its version), the
 * contact+connection lock (taken when a ticket becomes pending/open, released when it closes), the attention
 * cycle and a change record (who, when, from, to), plus the caller's items (a message).
 */
/** The owner whose open ticket this is (slot counters, docs/adr/0032). */
const ownedOpen = (t: Pick<TicketRecord, "status" | "userId"> | null) => (t && t.status === "open" && t.userId ? t.userId : null);

export const createTicketChanges = (deps: {
  db: Db;
  tickets: TicketsRepository;
  /** the protocol number of a new attention cycle (tickets/protocols.ts); absent: cycles get none */
  protocols?: Pick<Protocols, "next">;
  /** the attendants' slot counters, moved in the ticket's own transaction (docs/adr/0032) */
  slots?: TicketSlots;
  /** told after every committed write, in order (distribution's trigger); failures are swallowed */
  listeners?: TicketChangeListener[];
  /** the SLA planner (features/sla): the cycle's clocks, evaluated on every write and stored with it */
  sla?: InboxSla;
  /** where the clocks' wake-ups go (the minute tick's due-time index), in the same transaction */
  timers?: Pick<TicketTimersRepository, "item">;
  /** told of clocks that turned amber or fell due with a write (notifications); a failure is the listener's own */
  onSlaAlerts?: ((t: TicketRecord, alerts: SlaAlert[]) => Promise<void>)[];
  /** the supervisors' board (docs/adr/0101), moved in the ticket's own transaction */
  board?: TicketBoard;
  /** `mutate`'s wait for its turn on a busy ticket (default TICKET_BUSY_WAIT_MS) */
  busyWaitMs?: number;
}) => {
  const { db, tickets, slots, listeners = [], protocols, sla, timers } = deps;

  /** Counter moves of a change: the old owner loses an open ticket, the new one gains one (guarded when assigned). */
  const slotItems = (before: TicketRecord | null, after: TicketRecord, take?: { capacity: number; now: Date }): TxItem[] => {
    if (!slots) return [];
    const was = ownedOpen(before);
    const is = ownedOpen(after);
    if (was === is) return [];
    const items: TxItem[] = [];
    if (was) items.push(slots.deltaItem(after.companyId, was, -1));
    if (is) items.push(take ? slots.takeSlotItem(after.companyId, is, take.capacity, take.now, after.id) : slots.deltaItem(after.companyId, is, 1));
    return items;
  };
  const told = async (before: TicketRecord | null, after: TicketRecord, byUserId: number | null) => {
    for (const fn of listeners) await fn(before, after, { byUserId }).catch(() => undefined);
  };

  /** The clocks after the change (stored with it), the wake-ups not scheduled yet and the alerts it raises. */
  const planSla = async (before: TicketRecord | null, next: TicketRecord, now: Date) => {
    if (!sla) return { items: [] as TxItem[], alerts: [] as SlaAlert[], changed: false };
    const prev = next.cycle.sla ?? null;
    const clocks = await sla.evaluate(next, now);
    const changed = JSON.stringify(clocks) !== JSON.stringify(prev);
    if (changed) next.cycle = { ...next.cycle, sla: clocks };
    const known = new Set(slaWakeUps(before?.cycle.sla, before?.status ?? "closed"));
    const items = timers
      ? slaWakeUps(clocks, next.status)
          .filter((at) => !known.has(at) || !before)
          .map((dueAt) => timers.item({ companyId: next.companyId, ticketId: next.id, kind: "sla", dueAt }))
      : [];
    return { items, alerts: newSlaAlerts(before?.cycle.sla, clocks), changed };
  };
  const tellAlerts = async (t: TicketRecord, alerts: SlaAlert[]) => {
    if (!alerts.length) return;
    for (const listener of deps.onSlaAlerts ?? []) await listener(t, alerts).catch(() => undefined);
  };

  const explain = async (e: TxConditionFailed, companyId: number, lockIndex: number, extraStart: number, contactId: number, whatsappId: number | null) => {
    if (e.failed.includes(lockIndex)) {
      const holder = await tickets.findOpenId(companyId, contactId, whatsappId);
      if (holder) return new OpenTicketExists(holder);
      return new VersionConflict();
    }
    const extra = e.failed.find((i) => i >= extraStart);
    if (extra !== undefined) return new ExtraConditionFailed(extra - extraStart);
    return new VersionConflict();
  };

  return {
    /** The board's items of a ticket written around this writer (a deleted ticket: `after` null). */
    boardItems: (before: TicketRecord | null, after: TicketRecord | null): TxItem[] => deps.board?.items(before, after) ?? [],
    async create(
      input: Pick<TicketRecord, "companyId" | "contactId" | "whatsappId" | "queueId" | "userId" | "status" | "isGroup" | "chatJid"> & Partial<TicketRecord>,
      opts: { byUserId: number | null; now: Date; extra?: (t: TicketRecord) => TxItem[] },
    ): Promise<TicketRecord> {
      const id = await nextId(db, input.companyId, "ticket");
      const protocol = protocols ? await protocols.next(input.companyId, opts.now) : null;
      const at = opts.now.toISOString();
      const t: TicketRecord = {
        uuid: randomUUID(),
        ...newTicketFields(at),
        ...input,
        id,
        version: 1,
        cycle: {
          queuedAt: at,
          acceptedAt: input.status === "open" ? at : null,
          finishedAt: null,
          ratedAt: null,
          rating: null,
          protocol,
          firstResponseAt: null,
          queuePath: input.queueId ? [input.queueId] : [],
          userIds: input.userId ? [input.userId] : [],
        },
      };
      const planned = await planSla(null, t, opts.now);
      const created = tickets.createItems(t);
      const items: TxItem[] = [
        ...created,
        tickets.lockOpenItem(t),
        tickets.cycleItem(cycleOf(t)),
        tickets.changeItem(t.companyId, { ticketId: id, at, byUserId: opts.byUserId, action: "create", from: null, to: scope(t) }, ulid()),
        ...tickets.countItems(null, t),
        // the tag-filtered lists' copies (docs/adr/0040)
        ...tickets.tagCopyItems(null, t),
        ...(deps.board?.items(null, t) ?? []),
      ];
      const lockIndex = created.length;
      items.push(...slotItems(null, t));
      items.push(...planned.items);
      const extraStart = items.length;
      items.push(...(opts.extra?.(t) ?? []));
      try {
        await tickets.transact(items);
      } catch (e) {
        if (e instanceof TxConditionFailed) throw await explain(e, t.companyId, lockIndex, extraStart, t.contactId, t.whatsappId);
        throw e;
      }
      await tellAlerts(t, planned.alerts);
      await told(null, t, opts.byUserId);
      return t;
    },

    /** Applies `patch` to `current` (as read); VersionConflict when someone else wrote in between. */
    async apply(
      current: TicketRecord,
      patch: Partial<TicketRecord>,
      opts: { byUserId: number | null; now: Date; action?: ChangeAction; extra?: TxItem[]; touch?: boolean; takeSlot?: { capacity: number } },
    ): Promise<TicketRecord> {
      const at = opts.now.toISOString();
      const next: TicketRecord = { ...current, ...patch, version: current.version + 1, updatedAt: opts.touch === false ? current.updatedAt : (patch.updatedAt ?? at) };
      const moved =
        next.status !== current.status || next.userId !== current.userId || next.queueId !== current.queueId || next.whatsappId !== current.whatsappId;
      if (moved) {
        const cycle = trackCycle(next.cycle, current, next);
        if (current.status === "pending" && next.status === "open" && !cycle.acceptedAt) cycle.acceptedAt = at;
        if (next.status === "closed" && current.status !== "closed") cycle.finishedAt = at;
        if (current.status === "closed" && next.status !== "closed") {
          cycle.finishedAt = null;
          if (next.status === "open") cycle.acceptedAt = cycle.acceptedAt ?? at;
        }
        next.cycle = cycle;
      }
      const planned = await planSla(current, next, opts.now);
      const items: TxItem[] = [tickets.saveItem(next, current.version)];
      let lockIndex = -1;
      const relocked = next.whatsappId !== current.whatsappId || next.contactId !== current.contactId;
      if (active(current.status) && (!active(next.status) || relocked)) items.push(tickets.unlockOpenItem(current));
      if (active(next.status) && (!active(current.status) || relocked)) {
        lockIndex = items.length;
        items.push(tickets.lockOpenItem(next));
      }
      // the cycle item follows the ticket's moves, its cycle fields, its tags (the report reads only cycles) and its SLA clocks
      if (moved || opts.action || patch.cycle !== undefined || patch.tagIds !== undefined || planned.changed) items.push(tickets.cycleItem(cycleOf(next)));
      if (moved || opts.action) {
        items.push(
          tickets.changeItem(next.companyId, { ticketId: next.id, at, byUserId: opts.byUserId, action: opts.action ?? "update", from: scope(current), to: scope(next) }, ulid()),
        );
      }
      const slotMoves = slotItems(current, next, opts.takeSlot ? { capacity: opts.takeSlot.capacity, now: opts.now } : undefined);
      items.push(...slotMoves);
      // the guarded slot is the last of the slot moves (its index, whatever follows it in the transaction)
      const guardedSlot = opts.takeSlot ? items.length - 1 : -1;
      items.push(...tickets.countItems(current, next));
      // the tag-filtered lists' copies of a live tagged ticket follow every write of it (docs/adr/0040)
      items.push(...tickets.tagCopyItems(current, next));
      items.push(...(deps.board?.items(current, next) ?? []));
      items.push(...planned.items);
      const extraStart = items.length;
      items.push(...(opts.extra ?? []));
      try {
        await tickets.transact(items);
      } catch (e) {
        if (e instanceof TxConditionFailed) {
          // the guarded slot refused (full, paused, offline); the ticket's own version lost too means someone else wrote it
          if (opts.takeSlot && slotMoves.length && e.failed.includes(guardedSlot) && !e.failed.includes(0)) throw new SlotUnavailable();
          throw await explain(e, next.companyId, lockIndex, extraStart, next.contactId, next.whatsappId);
        }
        throw e;
      }
      await tellAlerts(next, planned.alerts);
      await told(current, next, opts.byUserId);
      return next;
    },

    /**
     * Re-reads and re-applies on a version conflict (or a transaction cancelled by another one on the same items),
     * after a pause with full jitter that doubles up to BUSY_BACKOFF_CAP_MS, so many writers of one ticket take turns
     * instead of colliding again at once; after `busyWaitMs` of losing: ERR_TICKET_BUSY (409, nothing written).
     * `opts.read`: the ticket as the caller just read it, used for the first attempt instead of reading it again
     * (the version condition still guards the write; a conflict re-reads).
     */
    async mutate(
      companyId: number,
      id: number,
      change: (current: TicketRecord) => { patch: Partial<TicketRecord>; action?: ChangeAction; extra?: TxItem[]; touch?: boolean; takeSlot?: { capacity: number } } | null,
      opts: { byUserId: number | null; now: Date; read?: TicketRecord },
    ): Promise<{ before: TicketRecord; after: TicketRecord } | null> {
      // wall time, not the injected clock: this is how long the caller waits
      const giveUpAt = Date.now() + (deps.busyWaitMs ?? TICKET_BUSY_WAIT_MS);
      for (let attempt = 0; ; attempt++) {
        const current = attempt === 0 && opts.read ? opts.read : await tickets.findById(companyId, id);
        if (!current) throw new AppError("ERR_NO_TICKET_FOUND");
        const wanted = change(current);
        if (!wanted) return null;
        try {
          const after = await this.apply(current, wanted.patch, { byUserId: opts.byUserId, now: opts.now, action: wanted.action, extra: wanted.extra, touch: wanted.touch, takeSlot: wanted.takeSlot });
          return { before: current, after };
        } catch (e) {
          if (!(e instanceof VersionConflict) && !isTransactionConflict(e)) throw e;
        }
        // the first retry at once (one other writer is the usual case), then apart
        if (Date.now() >= giveUpAt) throw new AppError("ERR_TICKET_BUSY");
        if (attempt > 0) await new Promise((r) => setTimeout(r, backoff(attempt)));
      }
    },
  };
};
export type TicketChanges = ReturnType<typeof createTicketChanges>;
