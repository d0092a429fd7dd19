import type { ContactOptOutState, OptOutListResponse, OptOutView } from "@atende/shared/contracts/http/lgpd";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { toCsv } from "@atende/shared/domain/format/csv-table";
import { canonicalBrazilianNumber } from "@atende/shared/domain/format/phone";
import { isOptOutReply, mayBeOptOutReply, optOutApplies } from "@atende/shared/domain/lgpd/opt-out-rules";
import type { LgpdSettings, LgpdSettingsUpdate } from "@atende/shared/domain/lgpd/lgpd-settings";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import type { AuditRecorder } from "../audit/audit.port";
import { auditActorOf, auditChanges, systemActor } from "../audit/audit-diff";
import type { LgpdSettingsRepository } from "./lgpd-settings.repository";
import type { OptOutRecord, OptOutsRepository } from "./opt-outs.repository";

export const OPT_OUT_PAGE_SIZE = 20;
/**
 * The inbound check reuses a company's keywords for at most this long in one instance (one read per second per
 * company instead of one per message at load; issue 15: never older than a second). This instance's own
 * settings update drops them at once.
 */
export const OPT_OUT_SETTINGS_REUSE_MS = 1000;
/** CSV export of the list: at most this many rows (newest first). */
export const OPT_OUT_EXPORT_MAX_ROWS = 50_000;

/** What the opt-out service needs from the inbox (a slice of its facade, InboxService). */
export type OptOutInbox = {
  /** a contact of the caller's company, or ERR_NO_CONTACT_FOUND */
  getContact(auth: AuthContext, contactId: number): Promise<{ id: number; number: string; isGroup: boolean }>;
  /** the contact of a number (the inbox stored the customer's message already, so it exists) */
  upsertFromWhatsapp(companyId: number, whatsappId: number, party: { jid: string; number?: string }): Promise<{ id: number }>;
  /** a message from the company (no user) into the contact's ticket, through the connection */
  sendToContact(input: { companyId: number; contactId: number; whatsappId: number | null; body: string; userId: number | null }): Promise<unknown>;
};

/** An inbound message (the inbox stored it already: the LGPD module's handler runs after the inbox's). */
export type OptOutInbound = { companyId: number; whatsappId: number; number: string; body: string; fromMe: boolean; isGroup: boolean };

const view = (o: OptOutRecord): OptOutView => ({
  number: o.number,
  contactId: o.contactId,
  optedOutAt: o.optedOutAt,
  message: o.message,
  source: o.source,
  campaignId: o.campaignId,
});

export const createOptOutsService = (deps: {
  optOuts: OptOutsRepository;
  settings: LgpdSettingsRepository;
  inbox: OptOutInbox;
  cursors: PageCursors;
  audit: AuditRecorder;
  publish: (companyId: number, data: { action: "create" | "delete"; optOut: OptOutView }) => Promise<unknown>;
  clock: () => Date;
}) => {
  const { optOuts, settings, inbox, cursors, audit, publish, clock } = deps;
  const canonical = (n: string) => canonicalBrazilianNumber(n);
  const recent = new Map<number, { at: number; value: Promise<LgpdSettings> }>();
  const inboundSettings = (companyId: number): Promise<LgpdSettings> => {
    const hit = recent.get(companyId);
    const now = Date.now();
    if (hit && now - hit.at < OPT_OUT_SETTINGS_REUSE_MS) return hit.value;
    const value = settings.get(companyId);
    recent.set(companyId, { at: now, value });
    value.catch(() => recent.delete(companyId));
    if (recent.size > 1000) recent.delete(recent.keys().next().value!);
    return value;
  };

  /** A message `onInbound` reads the keywords for: a customer's own short reply from a number. */
  const mayOptOut = (m: OptOutInbound) => !m.fromMe && !m.isGroup && Boolean(m.number) && mayBeOptOutReply(m.body);

  const service = {
    async getSettings(auth: AuthContext): Promise<LgpdSettings> {
      return settings.get(auth.companyId);
    },
    async updateSettings(auth: AuthContext, input: LgpdSettingsUpdate, ip: string): Promise<LgpdSettings> {
      const before = await settings.get(auth.companyId);
      const next: LgpdSettings = { ...before, ...input };
      await settings.save(auth.companyId, next, clock());
      recent.delete(auth.companyId);
      await audit.record({ companyId: auth.companyId, actor: auditActorOf(auth.user), ip, action: "update", record: { kind: "setting", id: "lgpd" }, changes: auditChanges(before, next) });
      return next;
    },

    /**
     * The inbound message's early read (docs/adr/0058): the company's keywords, when `onInbound` will read them, started
     * with the inbox's first reads (a point read: it joins their BatchGetItem) and reused by `onInbound` (≤ 1 s).
     */
    readEarly(m: OptOutInbound): void {
      if (mayOptOut(m)) inboundSettings(m.companyId).catch(() => undefined);
    },

    /**
     * Called for every stored inbound message. A reply that is one of the company's words, after a campaign
     * message (or in any ticket when the company says so), puts the number on the list and sends the
     * confirmation. True when the number was added now.
     */
    async onInbound(m: OptOutInbound): Promise<boolean> {
      if (!mayOptOut(m)) return false;
      const s = await inboundSettings(m.companyId);
      if (!isOptOutReply(m.body, s.optOutKeywords)) return false;
      const number = canonical(m.number);
      const now = clock();
      const campaignId = await optOuts.campaignWindow(m.companyId, number, now);
      if (!optOutApplies({ afterCampaign: campaignId !== null, anyTicket: s.optOutInAnyTicket })) return false;
      const contactId = (await inbox.upsertFromWhatsapp(m.companyId, m.whatsappId, { jid: `${number}@s.whatsapp.net`, number })).id;
      const record: OptOutRecord = {
        companyId: m.companyId,
        number,
        contactId,
        optedOutAt: now.toISOString(),
        message: m.body.slice(0, 500),
        source: campaignId !== null ? "campaign" : "ticket",
        campaignId,
      };
      const added = await optOuts.add(record);
      if (!added) return false;
      await audit.record({ companyId: m.companyId, actor: systemActor("opt-out"), ip: "unknown", action: "create", record: { kind: "optOut", id: contactId }, changes: {} });
      await publish(m.companyId, { action: "create", optOut: view(record) });
      if (s.optOutConfirmation.trim()) await inbox.sendToContact({ companyId: m.companyId, contactId, whatsappId: m.whatsappId, body: s.optOutConfirmation, userId: null });
      return true;
    },

    /** GET /opt-outs: newest first (shared paging); `searchParam` digits search by number prefix. */
    async list(auth: AuthContext, q: { searchParam: string; pageNumber: number }): Promise<OptOutListResponse> {
      const digits = q.searchParam.replace(/\D+/g, "");
      const count = await optOuts.count(auth.companyId);
      if (digits) {
        const found = await optOuts.searchNumberPrefix(auth.companyId, digits, OPT_OUT_PAGE_SIZE * q.pageNumber + 1);
        const page = found.slice(OPT_OUT_PAGE_SIZE * (q.pageNumber - 1), OPT_OUT_PAGE_SIZE * q.pageNumber);
        return { optOuts: page.map(view), count, hasMore: found.length > OPT_OUT_PAGE_SIZE * q.pageNumber };
      }
      const page = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["optOuts"]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => optOuts.pageByTime(auth.companyId, OPT_OUT_PAGE_SIZE, cursor),
      });
      return { optOuts: page.items.map(view), count, hasMore: page.hasMore };
    },
    /** GET /opt-outs/export: the whole list as CSV (newest first). */
    async exportCsv(auth: AuthContext, ip: string): Promise<string> {
      const rows: OptOutRecord[] = [];
      let cursor: string | undefined;
      do {
        const page = await optOuts.pageByTime(auth.companyId, 500, cursor);
        rows.push(...page.items);
        cursor = page.next;
      } while (cursor && rows.length < OPT_OUT_EXPORT_MAX_ROWS);
      await audit.record({ companyId: auth.companyId, actor: auditActorOf(auth.user), ip, action: "export", record: { kind: "optOut", id: "list" }, changes: {} });
      return toCsv(
        ["number", "contactId", "optedOutAt", "source", "campaignId", "message"],
        rows.slice(0, OPT_OUT_EXPORT_MAX_ROWS).map((o) => [o.number, o.contactId, o.optedOutAt, o.source, o.campaignId, o.message]),
      );
    },
    /** GET /contacts/{id}/opt-out: the drawer's state. */
    async contactState(auth: AuthContext, contactId: number): Promise<ContactOptOutState> {
      const contact = await inbox.getContact(auth, contactId);
      const found = contact.number && !contact.isGroup ? await optOuts.find(auth.companyId, canonical(contact.number)) : null;
      return { optedOut: Boolean(found), optOut: found ? view(found) : null };
    },
    /** DELETE /contacts/{id}/opt-out: an admin clears it when the person asks to receive messages again. */
    async clearForContact(auth: AuthContext, contactId: number, ip: string): Promise<ContactOptOutState> {
      const contact = await inbox.getContact(auth, contactId);
      const removed = contact.number ? await optOuts.remove(auth.companyId, canonical(contact.number)) : null;
      if (removed) {
        await audit.record({
          companyId: auth.companyId,
          actor: auditActorOf(auth.user),
          ip,
          action: "delete",
          record: { kind: "optOut", id: contactId },
          changes: { optedOutAt: { from: removed.optedOutAt, to: null } },
        });
        await publish(auth.companyId, { action: "delete", optOut: view(removed) });
      }
      return { optedOut: false, optOut: null };
    },
  };
  return service;
};
export type OptOutsService = ReturnType<typeof createOptOutsService>;
