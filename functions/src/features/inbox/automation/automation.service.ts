import { createHash } from "node:crypto";
import { DEFAULT_SCHEDULES } from "@atende/shared/constants/business";
import { isCompanyExpired } from "@atende/shared/domain/auth/auth";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Message } from "@atende/shared/domain/messages/message";
import { customerNotices, isTicketUpdateAction } from "@atende/shared/domain/tickets/ticket-transitions";
import type { Logger } from "../../../platform/logger";
import type { ContactsRepository } from "../contacts/contacts.repository";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { OutboundMedia, OutboundService } from "../messages/outbound.service";
import type { AutomaticMessages } from "../messages/automatic-messages";
import type { AutomaticKind } from "@atende/shared/domain/cloud-api/automatic-messages";
import type { InboxQueue, InboxQueueOption, InboxReads, InboxWhatsapp } from "../inbox-ports";
import type { Directory } from "../tickets/inbox-directory";
import type { InboxEvents } from "../tickets/inbox-events";
import type { ChangeAction, TicketChanges } from "../tickets/ticket-changes";
import type { BotState, TicketRecord } from "../tickets/tickets.repository";
import type { TicketLifecycle } from "../tickets/ticket-lifecycle";
import type { TicketNotices } from "../tickets/tickets.service";
import { isWithinHours, renderTemplate, type HoursEntry } from "./templates";

/** Sent when a cycle opens and the company's `sendProtocolOnOpen` setting is on (issue 13 item 5). */
export const PROTOCOL_NOTICE = "*Mensagem automática*: o número de protocolo do seu atendimento é *{{protocol}}*.";

export const RATING_REQUEST =
  "Por favor, avalie nosso atendimento respondendo com um número:\n\n*1* - Insatisfeito\n*2* - Satisfeito\n*3* - Muito Satisfeito";

const guessKind = (name: string): OutboundMedia["kind"] => {
  const ext = name.toLowerCase().split(".").pop() ?? "";
  if (["jpg", "jpeg", "png", "gif", "webp"].includes(ext)) return "image";
  if (["mp3", "ogg", "opus", "m4a", "wav"].includes(ext)) return "audio";
  if (["mp4", "mov", "3gp", "webm"].includes(ext)) return "video";
  return "document";
};

/**
 * Automation on arrival (SERVER-RULES "Inbound message" 5-7) and the customer notices of ticket changes.
 * Runs only while no attendant owns a pending ticket, never in groups, never for our own messages; its state
 * (stage, menu position, menus sent, out-of-hours sent) lives on the ticket, so nothing repeats or loops.
 */
export const createAutomationService = (deps: {
  changes: TicketChanges;
  lifecycle: Pick<TicketLifecycle, "awaitRating">;
  outbound: OutboundService;
  /** rating request and transfer notice: outside a Cloud API window, the connection's template or a note (ADR 0031) */
  automatic: AutomaticMessages;
  queueOptions: InboxReads["queueOptions"];
  contacts: Pick<ContactsRepository, "findById">;
  events: InboxEvents;
  clock: () => Date;
  logger: Logger;
  /** issue 30: does a flow take this new conversation (the connection's or queue's flow, a keyword)? Then automation stands aside */
  flowStart?: (t: TicketRecord, wa: InboxWhatsapp, body: string) => Promise<boolean>;
}) => {
  const { changes, lifecycle, outbound, queueOptions, events, clock, logger } = deps;

  /**
   * Sends an automatic text; answers the ticket as stored after it (unchanged when nothing was sent). The arrival
   * pipeline's tickets are as stored (`current`: the send does not read the ticket again; a concurrent writer only
   * costs a retry); the notices' are not known to be.
   */
  const say = async (ticket: TicketRecord, contact: Contact, dir: Directory, text: string, media?: OutboundMedia, current = true): Promise<TicketRecord> => {
    if (!text.trim() && !media) return ticket;
    const body = renderTemplate(text, { name: contact.name, ticketId: ticket.id, now: clock(), timeZone: dir.company?.timezone, protocol: ticket.cycle.protocol });
    return (await outbound.send(ticket, { body, media, userId: null }, { dir, contact, current })).ticket;
  };
  /** An automatic message that may fall outside a Cloud API window: its text, the connection's template, or a note. */
  const sayAutomatic = async (ticket: TicketRecord, contact: Contact, dir: Directory, kind: AutomaticKind, text: string) => {
    const body = renderTemplate(text, { name: contact.name, ticketId: ticket.id, now: clock(), timeZone: dir.company?.timezone, protocol: ticket.cycle.protocol });
    return deps.automatic.send(ticket, kind, body, { dir, contact });
  };
  const queueMedia = (q: Pick<InboxQueue, "mediaPath" | "mediaName"> | InboxQueueOption): OutboundMedia | undefined =>
    q.mediaPath ? { key: q.mediaPath, mimetype: "application/octet-stream", filename: q.mediaName ?? q.mediaPath, kind: guessKind(q.mediaName ?? q.mediaPath) } : undefined;
  /**
   * `t` as stored now (the arrival pipeline's, after its sends): the first attempt does not read it again. A change
   * record ("bot") only when the ticket moves to another queue (a menu re-sent where it was moved nothing).
   */
  const setBot = async (t: TicketRecord, bot: Partial<BotState>, patch: Partial<TicketRecord> = {}, ctx: { contact?: Contact; dir?: Directory } = {}) => {
    const out = await changes.mutate(t.companyId, t.id, (cur) => ({ patch: { ...patch, bot: { ...cur.bot, ...bot } }, action: patch.queueId !== undefined && patch.queueId !== cur.queueId ? "bot" : undefined, touch: false }), {
      byUserId: null,
      now: clock(),
      read: t,
    });
    if (out && out.before.queueId !== out.after.queueId) {
      await events.ticketUpdated(out.after, out.before, ctx.dir, ctx.contact?.id === out.after.contactId ? ctx.contact : undefined);
    }
    return out?.after ?? t;
  };
  /**
   * An automatic text and the bot state it leads to, in the message's own transaction (one write instead of the
   * send's and the bot state's; docs/adr/0061). Only where the ticket stays where it is (its queue unchanged).
   * Nothing to send: only the bot state. A text repeating word for word the last one sent this way (the menu
   * re-sent for an answer the bot did not understand) is stored and sent as ever, but not indexed again.
   */
  const sayWithBot = async (t: TicketRecord, contact: Contact, dir: Directory, text: string, media: OutboundMedia | undefined, bot: Partial<BotState>): Promise<TicketRecord> => {
    if (!text.trim() && !media) return setBot(t, bot);
    const body = renderTemplate(text, { name: contact.name, ticketId: t.id, now: clock(), timeZone: dir.company?.timezone, protocol: t.cycle.protocol });
    const digest = createHash("sha256").update(`${body}\u0000${media?.key ?? ""}`).digest("base64url").slice(0, 22);
    const sent = await outbound.send(
      t,
      { body, media, userId: null, repeat: t.bot.digest === digest, ticketPatch: (cur) => ({ bot: { ...cur.bot, ...bot, digest } }) },
      { dir, contact, current: true },
    );
    return sent.ticket;
  };
  const menuOf = (items: { label: string; key: string }[]) => items.map((i) => `*[ ${i.key} ]* - ${i.label}`).join("\n");
  const queuesOf = (wa: InboxWhatsapp, dir: Directory) =>
    wa.queueIds
      .map((id) => dir.queues.get(id))
      .filter((q): q is InboxQueue => Boolean(q))
      .sort((a, b) => (a.orderQueue ?? 999) - (b.orderQueue ?? 999) || a.id - b.id);
  const optionKey = (o: InboxQueueOption, i: number) => String(o.option ?? i + 1);
  const optionsMenu = (text: string, children: InboxQueueOption[]) =>
    `${text}\n\n${menuOf(children.map((c, i) => ({ key: optionKey(c, i), label: c.title })))}\n*[ 0 ]* - Voltar\n*[ # ]* - Menu inicial`;

  const sendQueueMenu = async (t: TicketRecord, contact: Contact, dir: Directory, wa: InboxWhatsapp, queues: InboxQueue[]) => {
    const menu = `${wa.greetingMessage || "{{greeting}}, {{name}}!"}\n\n${menuOf(queues.map((q, i) => ({ key: String(i + 1), label: q.name })))}`;
    const bot: Partial<BotState> = { stage: "queues", optionParentId: null, sends: t.bot.sends + 1, lastSentAt: clock().toISOString(), greetedAt: t.bot.greetedAt ?? clock().toISOString() };
    // the ticket without a queue (the first menu, an invalid answer): one write; back from a queue (#): the menu, then the move
    if (t.queueId === null) return sayWithBot(t, contact, dir, menu, undefined, bot);
    const sent = await say(t, contact, dir, menu);
    return setBot(sent, bot, { queueId: null }, { contact, dir });
  };

  /** The ticket reached a queue: out-of-hours of the queue, or its greeting and option tree. */
  const enterQueue = async (t: TicketRecord, contact: Contact, dir: Directory, q: InboxQueue) => {
    const now = clock();
    if (dir.setting("scheduleType") === "queue" && !isWithinHours(q.schedules as HoursEntry[], now, dir.company?.timezone)) {
      const sent = !t.bot.outOfHoursAt && q.outOfHoursMessage ? await say(t, contact, dir, q.outOfHoursMessage) : t;
      return setBot(sent, { stage: "done", outOfHoursAt: t.bot.outOfHoursAt ?? now.toISOString() }, { queueId: q.id }, { contact, dir });
    }
    const children = await queueOptions.listChildren(t.companyId, q.id, null);
    if (children.length) {
      const sent = await say(t, contact, dir, optionsMenu(q.greetingMessage || q.name, children), queueMedia(q));
      return setBot(sent, { stage: "options", optionParentId: null, lastSentAt: now.toISOString() }, { queueId: q.id }, { contact, dir });
    }
    const sent = q.greetingMessage || q.mediaPath ? await say(t, contact, dir, q.greetingMessage, queueMedia(q)) : t;
    return setBot(sent, { stage: "done" }, { queueId: q.id }, { contact, dir });
  };

  /** maxUseBotQueues caps the menus re-sent for answers the bot did not understand (valid navigation is free). */
  const underCap = (t: TicketRecord, wa: InboxWhatsapp) => !wa.maxUseBotQueues || t.bot.sends < wa.maxUseBotQueues;

  const handleOption = async (t: TicketRecord, contact: Contact, dir: Directory, wa: InboxWhatsapp, queue: InboxQueue, body: string) => {
    const queues = queuesOf(wa, dir);
    if (body === "#") {
      if (queues.length > 1 && underCap(t, wa)) return sendQueueMenu(t, contact, dir, wa, queues);
      return enterQueue(t, contact, dir, queue);
    }
    const parentId = t.bot.optionParentId;
    if (body === "0") {
      if (parentId === null) {
        if (queues.length > 1 && underCap(t, wa)) return sendQueueMenu(t, contact, dir, wa, queues);
        return enterQueue(t, contact, dir, queue);
      }
      const node = await queueOptions.findById(t.companyId, parentId);
      const up = node?.parentId ?? null;
      const siblings = await queueOptions.listChildren(t.companyId, queue.id, up);
      const upNode = up !== null ? await queueOptions.findById(t.companyId, up) : null;
      return sayWithBot(t, contact, dir, optionsMenu(upNode?.message || queue.greetingMessage || queue.name, siblings), undefined, { optionParentId: up, lastSentAt: clock().toISOString() });
    }
    const children = await queueOptions.listChildren(t.companyId, queue.id, parentId);
    const chosen = children.find((c, i) => optionKey(c, i) === body);
    if (!chosen) {
      if (!underCap(t, wa)) return setBot(t, { stage: "done" });
      const node = parentId !== null ? await queueOptions.findById(t.companyId, parentId) : null;
      return sayWithBot(t, contact, dir, optionsMenu(node?.message || queue.greetingMessage || queue.name, children), undefined, { sends: t.bot.sends + 1, lastSentAt: clock().toISOString() });
    }
    const grandChildren = await queueOptions.listChildren(t.companyId, queue.id, chosen.id);
    if (grandChildren.length) {
      return sayWithBot(t, contact, dir, optionsMenu(chosen.message || chosen.title, grandChildren), queueMedia(chosen), { optionParentId: chosen.id, lastSentAt: clock().toISOString() });
    }
    // a leaf: its message, then the ticket waits in the queue for an attendant
    return sayWithBot(t, contact, dir, chosen.message, queueMedia(chosen), { stage: "done", optionParentId: chosen.id });
  };

  const automation = {
    /** A customer's message opened a new attention cycle: its protocol number, when the company wants it sent. */
    /** Answers the ticket as stored after it (`ticket` when nothing was sent). */
    async onOpened(ticket: TicketRecord, contact: Contact, dir: Directory): Promise<TicketRecord> {
      if (ticket.isGroup || !ticket.cycle.protocol || dir.setting("sendProtocolOnOpen") !== "enabled") return ticket;
      return say(ticket, contact, dir, PROTOCOL_NOTICE);
    },
    /** Answers true when it handed this very message to the bots (a flow starts on it). */
    async onInbound(ticket: TicketRecord, contact: Contact, message: Message, dir: Directory): Promise<boolean | void> {
      if (message.fromMe || ticket.isGroup || ticket.userId !== null || ticket.status !== "pending") return;
      if (!dir.company || isCompanyExpired(dir.company.dueDate, clock())) return;
      const wa = ticket.whatsappId !== null ? dir.whatsapps.get(ticket.whatsappId) : undefined;
      if (!wa) return;
      const t = ticket;
      if (t.bot.stage === "done") return;
      // a connection with one queue puts the conversation in it: that queue's flow may start it (issue 30)
      const only = t.queueId === null && wa.queueIds.length === 1 ? dir.queues.get(wa.queueIds[0]!) : undefined;
      if (t.bot.stage === "none" && deps.flowStart && (await deps.flowStart(only ? { ...t, queueId: only.id } : t, wa, message.body))) {
        await setBot(t, { stage: "done" }, only ? { queueId: only.id } : {}, { contact, dir });
        return true;
      }
      const now = clock();
      if (t.bot.lastSentAt && wa.timeUseBotQueues > 0 && now.getTime() - new Date(t.bot.lastSentAt).getTime() > wa.timeUseBotQueues * 60_000) {
        await setBot(t, { stage: "done" }, {}, { contact, dir });
        return;
      }
      const companySchedules: HoursEntry[] = dir.company.schedules ?? DEFAULT_SCHEDULES;
      if (dir.setting("scheduleType") === "company" && !isWithinHours(companySchedules, now, dir.company.timezone)) {
        if (!t.bot.outOfHoursAt) await sayWithBot(t, contact, dir, wa.outOfHoursMessage || "Estamos fora do horário de atendimento.", undefined, { outOfHoursAt: now.toISOString() });
        return;
      }
      const queues = queuesOf(wa, dir);
      const body = message.body.trim();
      if (t.queueId === null) {
        if (queues.length === 0) {
          const bot = { stage: "done" as const, greetedAt: t.bot.greetedAt ?? now.toISOString() };
          await (!t.bot.greetedAt && wa.greetingMessage ? sayWithBot(t, contact, dir, wa.greetingMessage, undefined, bot) : setBot(t, bot));
          return;
        }
        if (queues.length === 1) {
          const greet = !t.bot.greetedAt && wa.greetingMessage && dir.setting("sendGreetingMessageOneQueues") === "enabled";
          const greeted = greet ? await sayWithBot(t, contact, dir, wa.greetingMessage, undefined, { greetedAt: now.toISOString() }) : await setBot(t, { greetedAt: now.toISOString() });
          await enterQueue(greeted, contact, dir, queues[0]!);
          return;
        }
        if (t.bot.stage === "none") {
          await sendQueueMenu(t, contact, dir, wa, queues);
          return;
        }
        const choice = /^\d+$/.test(body) ? Number(body) : NaN;
        const q = queues[choice - 1];
        // the chosen queue's flow takes the conversation from here (issue 30): no queue greeting, the flow's start
        if (q?.flowId && deps.flowStart && (await deps.flowStart({ ...t, queueId: q.id }, wa, body))) {
          await setBot(t, { stage: "done" }, { queueId: q.id }, { contact, dir });
          return true;
        }
        if (q) {
          await enterQueue(t, contact, dir, q);
          return;
        }
        if (!underCap(t, wa)) {
          await setBot(t, { stage: "done" }, {}, { contact, dir });
          return;
        }
        await sendQueueMenu(t, contact, dir, wa, queues);
        return;
      }
      const queue = dir.queues.get(t.queueId);
      if (!queue) return;
      if (t.bot.stage === "options") await handleOption(t, contact, dir, wa, queue, body);
    },

    /** A closed ticket's customer answered 1..3 within the window: record it for that attendant, then the completion message. */
    async recordRating(ticket: TicketRecord, contact: Contact, rating: number, dir: Directory, extraMessage: Parameters<TicketChanges["apply"]>[2]["extra"]) {
      const now = clock();
      const out = await changes.mutate(
        ticket.companyId,
        ticket.id,
        (cur) => ({ patch: { cycle: { ...cur.cycle, rating, ratedAt: now.toISOString() } }, action: "rate", extra: extraMessage, touch: false }),
        { byUserId: null, now },
      );
      const wa = ticket.whatsappId !== null ? dir.whatsapps.get(ticket.whatsappId) : undefined;
      if (out && wa?.complationMessage) await say(out.after, contact, dir, wa.complationMessage);
      return out?.after ?? ticket;
    },

    notices: {
      async onChanged(action: ChangeAction, before: TicketRecord, after: TicketRecord, by: AuthContext | null, dir: Directory) {
        if (after.isGroup) return;
        // which customer messages the change sends: the shared transition table's effects, gated by the settings
        const wanted = isTicketUpdateAction(action) ? customerNotices(action, { isGroup: after.isGroup, hasOwner: after.userId !== null, setting: dir.setting }) : [];
        if (!wanted.length) return;
        const contact = await deps.contacts.findById(after.companyId, after.contactId);
        if (!contact) return;
        const wa = after.whatsappId !== null ? dir.whatsapps.get(after.whatsappId) : undefined;
        try {
          if (wanted.includes("greeting")) {
            const name = after.userId !== null ? dir.users.get(after.userId)?.name : by?.user.name;
            await say(after, contact, dir, `{{greeting}} *{{name}}*, meu nome é *${name ?? ""}* e agora vou prosseguir com seu atendimento!`, undefined, false);
          }
          if (wanted.includes("transferNotice")) {
            const queue = after.queueId !== null ? dir.queues.get(after.queueId) : undefined;
            const user = after.userId !== null ? dir.users.get(after.userId) : undefined;
            const parts = ["*Mensagem automática*:"];
            if (queue) parts.push(`Você foi transferido para o departamento *${queue.name}*.`);
            if (user) parts.push(`Você será atendido por *${user.name}*.`);
            if (queue || user) await sayAutomatic(after, contact, dir, "transfer", parts.join("\n"));
          }
          if (before.status !== "closed") {
            if (wanted.includes("ratingRequest")) {
              const sent = await sayAutomatic(after, contact, dir, "rating", wa?.ratingMessage ? `${wa.ratingMessage}\n\n${RATING_REQUEST}` : RATING_REQUEST);
              // a skipped request (window closed, no template) awaits no rating
              if (sent !== "skipped") {
                await lifecycle.awaitRating(after, clock());
                // the CSAT response rate counts the requests sent (reports, issue 13)
                const sentAt = clock().toISOString();
                await changes.mutate(after.companyId, after.id, (cur) => ({ patch: { cycle: { ...cur.cycle, ratingRequestedAt: sentAt } }, touch: false }), { byUserId: null, now: clock() });
              }
            } else if (wanted.includes("completionMessage") && wa?.complationMessage) {
              await say(after, contact, dir, wa.complationMessage, undefined, false);
            }
          }
        } catch (err) {
          logger.warn("automation: notice failed", { companyId: after.companyId, ticketId: after.id, action, err: String(err) });
        }
      },
    } satisfies TicketNotices,
  };
  return automation;
};
export type AutomationService = ReturnType<typeof createAutomationService>;
