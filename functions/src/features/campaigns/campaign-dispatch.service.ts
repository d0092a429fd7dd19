import { fillCampaignPlaceholders, filledVariants, fillTemplatePlaceholders } from "@atende/shared/domain/campaigns/campaign";
import type { TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import type { PlanFlag } from "@atende/shared/domain/plans/plan";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { Logger } from "../../platform/logger";
import { memoized } from "../../platform/unit-of-work";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { MediaStore } from "../../platform/storage/media-store.port";
import type { InboxService } from "../inbox/inbox.service";
import { idempotentMessageId } from "../inbox/message-ids";
import { pacingDelaySeconds, type CampaignPacing, type CampaignRecipient, type CampaignRecipients } from "./campaign-ports";
import type { CampaignRecord, CampaignsRepository, Shipping } from "./campaigns.repository";
import { CAMPAIGN_STEP_JOB, type CampaignsService, type CampaignStepPayload } from "./campaigns.service";

/** Pages of 100 shipping records a purge job deletes before handing over to the next job. */
const PURGE_PAGES_PER_JOB = 5;

/** Recipients read per background count job. */
const COUNT_PAGE = 200;

/** How often a paused campaign (past due date, plan without campaigns) looks again: SQS's longest delay. */
const PAUSED_RETRY_SECONDS = 900;

/** A Brazilian mobile number with and without its ninth digit (lists hold either form), else the number itself. */
const numberVariants = (raw: string): string[] => {
  const n = raw.replace(/\D/g, "");
  const m = /^55(\d{2})(9?)(\d{8})$/.exec(n);
  if (!m) return [n];
  return m[2] ? [n, `55${m[1]}${m[3]}`] : [n, `55${m[1]}9${m[3]}`];
};

/**
 * Campaign dispatch (docs: SERVER-RULES "Campaigns"):
 * - the minute tick starts due PROGRAMADA campaigns (read from the due index) and enqueues their first step;
 * - each step job sends to one recipient of the contact list (one bounded read from the list's cursor), then claims
 *   its step number on the campaign (a duplicate job or one of an earlier run loses and stops) and enqueues the next
 *   step delayed by the pacing settings;
 * - each valid recipient gets one shipping record, created once, and messages with fixed ids, so a retry, a
 *   duplicate job or a restart never sends twice;
 * - "delivered" means the message was handed to the connection without an error (the ack is not awaited);
 * - the campaign is FINALIZADA when the list was walked and every valid recipient is delivered or failed.
 * - pacing is per connection: one slot item says when the connection may send its next campaign message, shared by
 *   every campaign on it (messageInterval between messages, greaterInterval after every longerIntervalAfter).
 */
export const createCampaignDispatch = (deps: {
  campaigns: CampaignsRepository;
  service: Pick<CampaignsService, "publishUpdate">;
  recipients: CampaignRecipients;
  pacing: CampaignPacing;
  contacts: Pick<InboxService, "upsertFromWhatsapp">;
  messages: Pick<InboxService, "sendToContact">;
  companies: { assertPlanAllows(companyId: number, flag: PlanFlag): Promise<void> };
  companyRecords: { findById(companyId: number): Promise<{ dueDate: string | null } | null> };
  media: MediaStore;
  jobs: JobQueue;
  clock: () => Date;
  logger: Logger;
  /** the variant draw (tests fix it) */
  random?: () => number;
  /** LGPD (docs/adr/0030): opted-out numbers are skipped; each number written to opens an opt-out reply window */
  consent?: { isOptedOut(companyId: number, number: string): Promise<boolean>; noteCampaignMessage(companyId: number, number: string, campaignId: number, now: Date): Promise<void> };
}) => {
  const { campaigns, service, recipients, pacing, contacts, messages, companies, companyRecords, media, jobs, clock, logger, random = Math.random } = deps;

  /** SERVER-RULES: campaigns run only on a plan with useCampaigns and while the company is not past its due date. */
  const mayRun = async (companyId: number, now: Date) => {
    const company = await companyRecords.findById(companyId);
    if (!company || (company.dueDate && new Date(company.dueDate).getTime() < now.getTime())) return false;
    try {
      await companies.assertPlanAllows(companyId, "useCampaigns");
      return true;
    } catch {
      return false;
    }
  };

  const enqueueStep = (companyId: number, payload: CampaignStepPayload, delaySeconds = 0) =>
    jobs.enqueue({ type: "feature", companyId, name: CAMPAIGN_STEP_JOB, payload }, delaySeconds);

  const attachment = async (c: CampaignRecord): Promise<UploadedFile[] | undefined> => {
    if (!c.mediaPath) return undefined;
    const obj = await media.get(c.mediaPath);
    return obj ? [{ name: c.mediaName ?? "file", type: obj.mimetype, bytes: obj.body }] : undefined;
  };

  /**
   * Sends one text (with the attachment), or the campaign's template, to the shipping's contact; the id is fixed per
   * recipient and kind. Marked bulk: on a Cloud API connection it is paced one per recipient every 6 s, and free
   * text is refused there (ERR_CAMPAIGN_TEMPLATE_REQUIRED), as is a template no longer approved.
   */
  const sendText = async (c: CampaignRecord, s: Shipping, kind: "confirmation" | "message", text: string, files?: UploadedFile[], template?: TemplateSend) => {
    const contact = await contacts.upsertFromWhatsapp(c.companyId, c.whatsappId!, { jid: `${s.number}@s.whatsapp.net`, number: s.number });
    const base = `campaign:${c.id}:${s.itemId}:${kind}`;
    const idOf = (i: number) => (files?.length ? idempotentMessageId(c.companyId, 0, `${base}#${i}`) : idempotentMessageId(c.companyId, 0, base));
    await campaigns.linkMessage(c.companyId, idOf(0), c.id, s.itemId, clock());
    const out = await messages.sendToContact({
      companyId: c.companyId,
      contactId: contact.id,
      whatsappId: c.whatsappId,
      body: text,
      userId: null,
      id: idOf(0),
      files,
      idOf,
      template,
      bulk: true,
    });
    const error = out.message.error ? String(out.message.error) : null;
    if (!error) await deps.consent?.noteCampaignMessage(c.companyId, s.number, c.id, clock());
    return { contactId: contact.id, error };
  };

  const fill = async (c: CampaignRecord, s: Shipping, text: string) =>
    fillCampaignPlaceholders(text, { name: s.name, number: s.number, email: s.email, variables: (await pacing.get(c.companyId)).variables });

  /** a template campaign (Cloud API) has one "variant": the template */
  const variantsOf = (c: CampaignRecord) => (c.template ? [{ n: 1 as const, message: "", confirmation: "" }] : filledVariants(c));
  const variantOf = (c: CampaignRecord, s: Shipping) => variantsOf(c).find((v) => v.n === s.variant) ?? variantsOf(c)[0];

  /** Sends the real message to a recipient whose shipping is in `from` ("sending", or "confirmed" after an answer). */
  const sendMessage = async (c: CampaignRecord, s: Shipping, from: "sending" | "confirmed") => {
    const v = variantOf(c, s);
    if (!v) return false;
    let result: { contactId: number | null; error: string | null };
    try {
      result = c.template
        ? await sendText(c, s, "message", "", undefined, fillTemplatePlaceholders(c.template, { name: s.name, number: s.number, email: s.email, variables: (await pacing.get(c.companyId)).variables }))
        : await sendText(c, s, "message", await fill(c, s, v.message), await attachment(c));
    } catch (err) {
      logger.warn("campaign message not sent", { companyId: c.companyId, campaignId: c.id, err: String(err) });
      result = { contactId: s.contactId, error: (err as { code?: string }).code ?? "ERR_SENDING_WAPP_MSG" };
    }
    const at = clock().toISOString();
    return result.error
      ? campaigns.moveShipping(s, from, "failed", { error: result.error, contactId: result.contactId }, { failedCount: 1, sentCount: from === "sending" ? 1 : 0 })
      : campaigns.moveShipping(s, from, "delivered", { deliveredAt: at, contactId: result.contactId }, { deliveredCount: 1, sentCount: from === "sending" ? 1 : 0 });
  };

  /** A recipient's shipping record, created once (null: the campaign has no message to draw from). */
  const shippingFor = async (c: CampaignRecord, item: CampaignRecipient): Promise<Shipping | null> => {
    const variants = variantsOf(c);
    if (!variants.length) return null;
    const fresh: Shipping = {
      campaignId: c.id,
      companyId: c.companyId,
      itemId: item.id,
      number: item.number.replace(/\D/g, ""),
      name: item.name,
      email: item.email,
      contactId: null,
      variant: variants[Math.floor(random() * variants.length)]!.n,
      state: "sending",
      confirmationRequestedAt: null,
      confirmedAt: null,
      deliveredAt: null,
      error: null,
      createdAt: clock().toISOString(),
    };
    return (await campaigns.createShipping(fresh)) ? fresh : await campaigns.findShipping(c.companyId, c.id, item.id);
  };

  /** An opted-out recipient: its shipping fails with ERR_NUMBER_OPTED_OUT and counts in the report as opted out. */
  const skipOptedOut = async (c: CampaignRecord, item: CampaignRecipient) => {
    const s = await shippingFor(c, item);
    if (s && s.state === "sending") await campaigns.moveShipping(s, "sending", "failed", { error: "ERR_NUMBER_OPTED_OUT" }, { failedCount: 1, optedOutCount: 1 });
  };

  /** One recipient: its shipping record (created once), then the confirmation request or the message. */
  const deliverTo = async (c: CampaignRecord, item: CampaignRecipient): Promise<boolean> => {
    const s = await shippingFor(c, item);
    // anything but "sending" was handled already (a restart, or a duplicate that got here first)
    if (!s || s.state !== "sending") return false;
    const v = variantOf(c, s)!;
    if (c.confirmation && !c.template && v.confirmation.trim()) {
      let result: { contactId: number | null; error: string | null };
      try {
        result = await sendText(c, s, "confirmation", await fill(c, s, v.confirmation));
      } catch (err) {
        result = { contactId: null, error: (err as { code?: string }).code ?? "ERR_SENDING_WAPP_MSG" };
      }
      if (result.error) return campaigns.moveShipping(s, "sending", "failed", { error: result.error }, { failedCount: 1, sentCount: 1 });
      return campaigns.moveShipping(
        s,
        "sending",
        "awaiting",
        { confirmationRequestedAt: clock().toISOString(), contactId: result.contactId },
        { confirmationRequestedCount: 1, sentCount: 1 },
        c.whatsappId!,
      );
    }
    return sendMessage(c, s, "sending");
  };

  /** Finishes the campaign when the list was walked and every valid recipient is delivered or failed. */
  const settle = async (companyId: number, id: number) => {
    const c = await campaigns.findById(companyId, id);
    if (!c) return;
    if (c.status === "EM_ANDAMENTO" && c.walkDone && c.deliveredCount + c.failedCount >= c.validCount) {
      const done = await campaigns.finish(c, clock());
      if (done) return service.publishUpdate(done);
    }
    await service.publishUpdate(c);
  };

  /** One page of the background count (bounded reads per job); the last page stores the total and tells the report. */
  const countValid = async (companyId: number, p: Extract<CampaignStepPayload, { count: true }>) => {
    const c = await campaigns.findById(companyId, p.campaignId);
    if (!c || !c.contactListId) return;
    const page = await recipients.pageItems(companyId, c.contactListId, p.cursor, COUNT_PAGE);
    const counted = p.counted + page.items.filter((i) => i.isWhatsappValid).length;
    if (page.next) return enqueueStep(companyId, { campaignId: c.id, count: true, cursor: page.next, counted });
    await campaigns.setExpectedValid(companyId, c.id, counted);
    await service.publishUpdate({ ...c, expectedValid: counted });
  };

  /** Answers each of these awaiting confirmation requests by sending the real message; returns how many were confirmed. */
  const confirmShippings = async (companyId: number, awaiting: Shipping[]): Promise<number> => {
    let confirmed = 0;
    for (const s of awaiting) {
      const c = await campaigns.findById(companyId, s.campaignId);
      if (!c || c.status !== "EM_ANDAMENTO") continue;
      if (!(await campaigns.moveShipping(s, "awaiting", "confirmed", { confirmedAt: clock().toISOString() }, { confirmedCount: 1 }))) continue;
      confirmed++;
      await sendMessage(c, { ...s, state: "confirmed" }, "confirmed");
      await settle(companyId, c.id);
    }
    return confirmed;
  };

  /** The number a contact's own message (not ours, not a group's) may answer confirmation requests from; null: none. */
  const answeringNumber = (ev: Extract<InboundEvent, { type: "message" }>): string | null => {
    const m = ev.message;
    return m.fromMe || m.isGroup || !m.sender.number ? null : m.sender.number;
  };

  /**
   * The confirmation requests awaiting from each form of the number on the connection (numberVariants' order), both
   * queries side by side (were one after the other); read once per unit of work (the early read and the hook share it).
   */
  const awaitingFrom = (companyId: number, whatsappId: number, number: string): Promise<Shipping[][]> =>
    memoized(`campaign-awaiting:${companyId}:${whatsappId}:${number}`, () => Promise.all(numberVariants(number).map((n) => campaigns.listAwaiting(companyId, whatsappId, n))));

  return {
    /** One recipient's shipping record (null when none). */
    shippingOf: (companyId: number, campaignId: number, itemId: number) => campaigns.findShipping(companyId, campaignId, itemId),

    /** The minute tick: starts every due PROGRAMADA campaign (each once, even with two ticks at a time). */
    async startDue(now: Date): Promise<number[]> {
      const started: number[] = [];
      for (const due of await campaigns.listDue(now)) {
        try {
          if (!(await mayRun(due.companyId, now))) continue; // stays PROGRAMADA: starts on the first tick after it pays
          const c = await campaigns.transition(due.companyId, due.id, "PROGRAMADA", "EM_ANDAMENTO", now, { scheduledAt: due.scheduledAt });
          if (!c) continue;
          await enqueueStep(c.companyId, { campaignId: c.id, seq: c.stepSeq });
          await enqueueStep(c.companyId, { campaignId: c.id, count: true, counted: 0 });
          await service.publishUpdate(c);
          started.push(c.id);
        } catch (err) {
          logger.warn("campaign not started", { companyId: due.companyId, campaignId: due.id, err: String(err) });
        }
      }
      return started;
    },

    /** One job step: one recipient, then the next step (paced), or the end of the list. */
    async step(companyId: number, payload: CampaignStepPayload): Promise<void> {
      if ("count" in payload) return countValid(companyId, payload);
      if ("purge" in payload) {
        for (let page = 0; page < PURGE_PAGES_PER_JOB; page++) {
          if (!(await campaigns.purgeShippingPage(companyId, payload.campaignId))) return;
        }
        return enqueueStep(companyId, payload);
      }
      const c = await campaigns.findById(companyId, payload.campaignId);
      if (!c || c.status !== "EM_ANDAMENTO" || c.stepSeq !== payload.seq || !c.contactListId || !c.whatsappId) return;
      if (!(await mayRun(companyId, clock()))) {
        // paused, not lost: the same step comes back later and goes on once the company may run campaigns again
        logger.warn("campaign paused: past due date or plan without campaigns", { companyId, campaignId: c.id });
        await enqueueStep(companyId, payload, PAUSED_RETRY_SECONDS);
        return;
      }
      const page = await recipients.pageItems(companyId, c.contactListId, c.cursor ?? undefined, 1);
      const item = page.items[0];
      let nextIn = 0;
      let sent = false;
      if (item && item.isWhatsappValid && deps.consent && (await deps.consent.isOptedOut(companyId, item.number))) {
        // no message and no pacing slot: the number asked to be left alone
        await skipOptedOut(c, item);
      } else if (item && item.isWhatsappValid) {
        // pacing per connection: every campaign on it shares one slot; a step that finds it closed comes back when it opens
        const settings = await pacing.get(companyId);
        const now = clock();
        const slot = await campaigns.takeSlot(companyId, c.whatsappId, now, (n) => pacingDelaySeconds(settings, n));
        if ("waitMs" in slot) {
          await enqueueStep(companyId, payload, Math.min(900, Math.ceil(slot.waitMs / 1000)));
          return;
        }
        sent = await deliverTo(c, item);
        nextIn = Math.max(0, Math.ceil((slot.at.getTime() - now.getTime()) / 1000));
      }
      const next = page.next ?? null;
      if (!(await campaigns.advance(companyId, c.id, payload.seq, next ?? c.cursor, !next, clock()))) return;
      if (next) {
        await enqueueStep(companyId, { campaignId: c.id, seq: payload.seq + 1 }, nextIn);
        if (sent) await service.publishUpdate((await campaigns.findById(companyId, c.id)) ?? c);
        return;
      }
      await settle(companyId, c.id);
    },

    /**
     * Hook of the inbound `message` event: a contact's own message (not ours, not a group) answers the confirmation
     * requests awaiting from its number on that connection. Never throws: the inbox's handling must not be retried for it.
     */
    async onInboundMessage(ev: Extract<InboundEvent, { type: "message" }>): Promise<void> {
      const number = answeringNumber(ev);
      if (number === null) return;
      try {
        // both forms of the number side by side (read early, with the inbox's first reads: docs/adr/0058), then
        // answered in the order they were before: the number as sent, then its other form
        for (const awaiting of await awaitingFrom(ev.companyId, ev.whatsappId, number)) await confirmShippings(ev.companyId, awaiting);
      } catch (err) {
        logger.error("campaign confirmation failed", { companyId: ev.companyId, err: String(err) });
      }
    },

    /** The inbound message's early read (docs/adr/0058): the confirmations it may answer, read with its first round trip. */
    readEarly(ev: Extract<InboundEvent, { type: "message" }>): void {
      const number = answeringNumber(ev);
      if (number !== null) awaitingFrom(ev.companyId, ev.whatsappId, number).catch(() => undefined);
    },

    /**
     * Hook of the inbound `command.result` event: a campaign message that the connection could not send after all
     * (e.g. the number left WhatsApp) moves its recipient from delivered (or awaiting) to failed. Never throws.
     */
    async onCommandResult(ev: Extract<InboundEvent, { type: "command.result" }>): Promise<void> {
      if (ev.ok) return;
      try {
        const link = await campaigns.findMessageLink(ev.companyId, ev.messageId ?? ev.commandId);
        if (!link) return;
        const s = await campaigns.findShipping(ev.companyId, link.campaignId, link.itemId);
        if (!s || (s.state !== "delivered" && s.state !== "awaiting")) return;
        const undo = s.state === "delivered" ? { deliveredCount: -1 } : { confirmationRequestedCount: -1 };
        if (await campaigns.moveShipping(s, s.state, "failed", { error: ev.error || "ERR_SENDING_WAPP_MSG" }, { ...undo, failedCount: 1 })) {
          await settle(ev.companyId, link.campaignId);
        }
      } catch (err) {
        logger.error("campaign send failure not recorded", { companyId: ev.companyId, err: String(err) });
      }
    },
  };
};
export type CampaignDispatch = ReturnType<typeof createCampaignDispatch>;
export type CampaignDispatchService = ReturnType<typeof createCampaignDispatch>;
