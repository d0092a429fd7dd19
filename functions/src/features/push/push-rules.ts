import type { PushEvent } from "@atende/shared/contracts/job-messages";
import type { PushService } from "./push.service";

/** What the rules see of a ticket (the inbox's ticket-change snapshot; `uuid` is in every stored ticket). */
type RuleTicket = {
  id: number;
  uuid?: string;
  companyId: number;
  status: "open" | "pending" | "closed";
  userId: number | null;
  queueId: number | null;
  contactId: number;
  isGroup: boolean;
  bot: { stage: string };
};

// a customer still choosing a queue or an option is the bot's, not yet waiting for a person
const CHOOSING = new Set(["queues", "options"]);
const waiting = (t: RuleTicket | null): t is RuleTicket => !!t && t.status === "pending" && t.userId === null && !t.isGroup && !CHOOSING.has(t.bot.stage);
const refOf = (t: RuleTicket & { uuid: string }) => ({ id: t.id, uuid: t.uuid, queueId: t.queueId, userId: t.userId });

/**
 * What notifies whom (issue 32, docs/adr/0097), hooked on the inbox's committed changes and the chats' and
 * announcements' events. Each only queues a `push.notify` after the unit of work; the job decides and sends.
 */
export const createPushRules = (push: Pick<PushService, "emit">) => ({
  /** inbox ticket-change listener (told after the ticket's transaction committed): a ticket starts waiting (new, returned, or moved to another queue); a ticket given to someone */
  async ticketChanged(before: RuleTicket | null, after: RuleTicket, change: { byUserId: number | null }): Promise<void> {
    if (!after.uuid) return;
    const t = after as RuleTicket & { uuid: string };
    if (waiting(after) && !(waiting(before) && before.queueId === after.queueId)) {
      await push.emit(after.companyId, { kind: "waiting", ticket: refOf(t), contactId: after.contactId }, { committed: true });
    }
    if (after.status !== "closed" && after.userId !== null && before?.userId !== after.userId && change.byUserId !== after.userId) {
      await push.emit(after.companyId, { kind: "transfer", ticket: refOf(t), contactId: after.contactId }, { committed: true });
    }
  },
  /** inbox message listener: a customer's new message on an owned ticket (the job checks that no socket of the owner has it open) */
  async message(action: "create" | "update", m: { fromMe: boolean; body: string }, t: { companyId: number; id: number; uuid?: string; userId?: number | null; queueId?: number | null; contactId: number }): Promise<void> {
    if (action !== "create" || m.fromMe || !t.uuid || t.userId == null) return;
    const event: PushEvent = { kind: "message", ticket: { id: t.id, uuid: t.uuid, queueId: t.queueId ?? null, userId: t.userId }, contactId: t.contactId, preview: m.body.slice(0, 500) };
    await push.emit(t.companyId, event);
  },
  /** an internal chat message: the chat's other members */
  async chatMessage(companyId: number, chatUuid: string, memberIds: number[], sender: { id: number; name: string }, text: string): Promise<void> {
    const userIds = memberIds.filter((id) => id !== sender.id);
    if (userIds.length) await push.emit(companyId, { kind: "chat", chatUuid, userIds, from: sender.name, preview: text.slice(0, 500) });
  },
  /** a supervisor's whisper to the ticket's attendant (issue 34): the attendant's devices */
  async whisper(companyId: number, t: { id: number; uuid: string; queueId: number | null; userId: number }, from: string, text: string): Promise<void> {
    await push.emit(companyId, { kind: "whisper", ticket: { id: t.id, uuid: t.uuid, queueId: t.queueId, userId: t.userId }, from, preview: text.slice(0, 500) });
  },
  /** an announcement published (created active): each company's users, from the announcements' fan-out job */
  async announcement(companyId: number, a: { id: number; title: string }): Promise<void> {
    await push.emit(companyId, { kind: "announcement", id: a.id, title: a.title });
  },
});
export type PushRules = ReturnType<typeof createPushRules>;
