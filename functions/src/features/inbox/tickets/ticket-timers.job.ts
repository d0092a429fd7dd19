import type { Logger } from "../../../platform/logger";
import type { AutomaticMessages } from "../messages/automatic-messages";
import type { InboxDirectory } from "./inbox-directory";
import type { InboxEvents } from "./inbox-events";
import type { TicketChanges } from "./ticket-changes";
import type { TicketTimer, TicketTimersRepository } from "./ticket-timers.repository";

/**
 * The minute tick's ticket timers: inactivity expiry (open tickets whose last message was ours, older than
 * `expiresTicket` minutes: closed with `expiresInactiveMessage`) and timed transfer (pending queue-less tickets
 * moved to `transferQueueId` after `timeToTransfer` minutes). Reads only due timers; each re-checks its ticket.
 */
export const createTicketTimersJob = (deps: {
  timers: TicketTimersRepository;
  changes: TicketChanges;
  directory: InboxDirectory;
  events: InboxEvents;
  /** the inactivity message: outside a Cloud API window, the connection's template or a note (ADR 0031) */
  automatic: Pick<AutomaticMessages, "send">;
  logger: Logger;
}) => {
  const { timers, changes, directory, events, automatic, logger } = deps;

  const fire = async (timer: TicketTimer, now: Date) => {
    if (timer.kind === "sla") {
      // a clock turns amber or falls due: the write re-evaluates the clocks (ticket-changes.ts), the alerts listener
      // notifies; a clock met or paused meanwhile makes this a no-op write of the same clocks
      await changes.mutate(timer.companyId, timer.ticketId, (t) => (t.cycle.sla && t.status !== "closed" ? { patch: {}, touch: false } : null), { byUserId: null, now });
      return;
    }
    const dir = await directory.load(timer.companyId);
    if (timer.kind === "expire") {
      const out = await changes.mutate(
        timer.companyId,
        timer.ticketId,
        (t) => {
          const wa = t.whatsappId !== null ? dir.whatsapps.get(t.whatsappId) : undefined;
          if (!wa || wa.expiresTicket <= 0 || t.status !== "open" || !t.lastFromMe) return null;
          if (now.getTime() - new Date(t.lastMessageAt).getTime() < wa.expiresTicket * 60_000) return null;
          return { patch: { status: "closed", unreadMessages: 0, bot: { ...t.bot, stage: "done" } }, action: "expire" };
        },
        { byUserId: null, now },
      );
      if (!out) return;
      await events.ticketUpdated(out.after, out.before, dir);
      const wa = out.after.whatsappId !== null ? dir.whatsapps.get(out.after.whatsappId) : undefined;
      if (wa?.expiresInactiveMessage && !out.after.isGroup) await automatic.send(out.after, "inactivity", wa.expiresInactiveMessage, { dir });
      return;
    }
    const out = await changes.mutate(
      timer.companyId,
      timer.ticketId,
      (t) => {
        const wa = t.whatsappId !== null ? dir.whatsapps.get(t.whatsappId) : undefined;
        if (!wa?.transferQueueId || t.status !== "pending" || t.queueId !== null || t.userId !== null) return null;
        if (!dir.queues.has(wa.transferQueueId)) return null;
        return { patch: { queueId: wa.transferQueueId, bot: { ...t.bot, stage: "done" } }, action: "autoTransfer" };
      },
      { byUserId: null, now },
    );
    if (out) await events.ticketUpdated(out.after, out.before, dir);
  };

  return {
    name: "ticket-timers",
    async run(now: Date) {
      const due = await timers.listDue(now);
      for (const timer of due) {
        try {
          await fire(timer, now);
        } catch (err) {
          if ((err as { code?: string }).code !== "ERR_NO_TICKET_FOUND") {
            logger.error("ticket timer failed", { companyId: timer.companyId, ticketId: timer.ticketId, kind: timer.kind, err: String(err) });
            continue;
          }
        }
        await timers.remove(timer);
      }
    },
  };
};
