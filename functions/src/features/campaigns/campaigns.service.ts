import { PAGE_SIZE } from "@atende/shared/constants/business";
import { instantOf } from "@atende/shared/domain/format/time-zone";
import type { CampaignEventData, CampaignListResponse, CampaignView } from "@atende/shared/contracts/http/campaigns";
import {
  campaignProgress,
  canEditCampaignMessages,
  filledVariants,
  isCampaignEditable,
  MESSAGE_FIELDS,
  pickCampaign,
  type Campaign,
  type CampaignInput,
} from "@atende/shared/domain/campaigns/campaign";
import { randomBytes } from "node:crypto";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { AppError } from "../../platform/errors";
import { checkAttachment } from "../../platform/http/upload-check";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import type { JobQueue } from "../../platform/queues/jobs.port";
import { mediaKeyFor, type MediaStore } from "../../platform/storage/media-store.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { RealtimeService } from "../realtime/realtime.service";
import type { WhatsappLookup } from "../whatsapps/whatsapps.ports";
import type { CampaignRecipients } from "./campaign-ports";
import type { CampaignFields, CampaignRecord, CampaignsRepository } from "./campaigns.repository";
import type { AuditRecorder } from "../audit/audit.port";
import { auditChanges, auditEntry } from "../audit/audit-diff";

/** The `feature` job that sends one recipient of a running campaign and schedules the next. */
export const CAMPAIGN_STEP_JOB = "campaigns.step";
export type CampaignStepPayload =
  | { campaignId: number; seq: number }
  /** the background count of the list's valid recipients (the report's denominator before the walk reaches them) */
  | { campaignId: number; count: true; cursor?: string; counted: number }
  /** a deleted campaign's shipping records, removed a page at a time */
  | { campaignId: number; purge: true };

const MAX_MEDIA_BYTES = 64 * 1024 * 1024;

export const createCampaignsService = (deps: {
  /** the audit trail (docs/adr/0029) */
  audit: AuditRecorder;
  campaigns: CampaignsRepository;
  recipients: CampaignRecipients;
  whatsapps: WhatsappLookup;
  realtime: RealtimeService;
  media: MediaStore;
  jobs: JobQueue;
  cursors: PageCursors;
  clock: () => Date;
  /** the company's time zone: a wall-clock `scheduledAt` (the spec's `YYYY-MM-DD HH:mm:ss`) is read in it */
  timeZoneOf: (companyId: number) => Promise<string>;
  /**
   * The connection's template rules (the Cloud API feature): a Cloud API connection's campaign needs an approved
   * template with every variable valued, a QR connection's campaign takes none (ADR 0031). Absent: QR rules only.
   */
  templates?: { assertCampaignTemplate(companyId: number, whatsappId: number, template: CampaignInput["template"]): Promise<void> };
}) => {
  const { campaigns, recipients, whatsapps, realtime, media, jobs, cursors, clock, timeZoneOf } = deps;

  const toView = async (c: CampaignRecord, names: Map<string, string | null> = new Map()): Promise<CampaignView> => {
    const lookup = async (k: string, load: () => Promise<string | null>) => {
      if (!names.has(k)) names.set(k, await load());
      return names.get(k) ?? null;
    };
    const listName = c.contactListId ? await lookup(`l${c.contactListId}`, async () => (await recipients.findList(c.companyId, c.contactListId!))?.name ?? null) : null;
    const wName = c.whatsappId ? await lookup(`w${c.whatsappId}`, async () => (await whatsapps.findById(c.companyId, c.whatsappId!))?.name ?? null) : null;
    const { createdAt, updatedAt, ...fields } = pickCampaign(c);
    return {
      ...fields,
      contactList: c.contactListId && listName !== null ? { id: c.contactListId, name: listName } : null,
      whatsapp: c.whatsappId && wName !== null ? { id: c.whatsappId, name: wName } : null,
      counts: {
        valid: Math.max(c.validCount, c.expectedValid ?? 0),
        delivered: c.deliveredCount,
        failed: c.failedCount,
        optedOut: c.optedOutCount,
        confirmationRequested: c.confirmationRequestedCount,
        confirmed: c.confirmedCount,
        progress: campaignProgress(c.deliveredCount, Math.max(c.validCount, c.expectedValid ?? 0)),
      },
      createdAt,
      updatedAt,
    };
  };

  const publish = (companyId: number, data: CampaignEventData) => realtime.publish<CampaignEventData>(companyId, "campaign", data, { kind: "admins" });
  const publishUpdate = async (c: CampaignRecord) => publish(c.companyId, { action: "update", record: await toView(c) });

  const find = async (auth: AuthContext, id: number) => {
    const c = await campaigns.findById(auth.companyId, id);
    if (!c) throw new AppError("ERR_NOT_FOUND");
    return c;
  };

  /** The list and connection must be the caller's company's (another company's ids are not found). */
  const assertTargets = async (companyId: number, input: Pick<CampaignInput, "contactListId" | "whatsappId" | "template" | "confirmation">) => {
    if (input.contactListId && !(await recipients.findList(companyId, input.contactListId))) throw new AppError("ERR_NOT_FOUND", { field: "contactListId" });
    if (input.whatsappId && !(await whatsapps.findById(companyId, input.whatsappId))) throw new AppError("ERR_NO_WAPP_FOUND");
    await assertTemplate(companyId, input);
  };

  /** Cloud API campaigns send approved templates only (and ask no confirmation: it would be free text). */
  const assertTemplate = async (companyId: number, input: Pick<CampaignInput, "whatsappId" | "template" | "confirmation">) => {
    if (input.whatsappId) await deps.templates?.assertCampaignTemplate(companyId, input.whatsappId, input.template ?? null);
    else if (input.template) throw new AppError("ERR_VALIDATION", { field: "whatsappId" });
    if (input.template && input.confirmation) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { field: "confirmation" });
  };

  /** A scheduled campaign must be able to run: a future time, a list, a connection and a message. */
  const assertSchedulable = (input: CampaignInput) => {
    if (!input.scheduledAt) return;
    if (new Date(input.scheduledAt).getTime() <= clock().getTime()) throw new AppError("ERR_VALIDATION", { field: "scheduledAt", reason: "CAMPAIGN_IN_PAST" });
    if (!input.contactListId) throw new AppError("ERR_VALIDATION", { field: "contactListId" });
    if (!input.whatsappId) throw new AppError("ERR_VALIDATION", { field: "whatsappId" });
    if (!input.template && filledVariants(input).length === 0) throw new AppError("ERR_VALIDATION", { field: "message1" });
  };

  /** The spec's wall-clock `scheduledAt` as an instant in the company's time zone (an ISO instant stays as it is). */
  const withInstant = async (companyId: number, input: CampaignInput): Promise<CampaignInput> =>
    input.scheduledAt ? { ...input, scheduledAt: instantOf(input.scheduledAt, await timeZoneOf(companyId)) } : input;

  const fieldsOf = (input: CampaignInput): Omit<CampaignFields, "mediaPath" | "mediaName"> => ({
    ...input,
    scheduledAt: input.scheduledAt ? new Date(input.scheduledAt).toISOString() : null,
    status: input.scheduledAt ? "PROGRAMADA" : "INATIVA",
  });

  const saveOrConflict = async (before: CampaignRecord, next: Campaign) => {
    if (!(await campaigns.saveFields(before, next))) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
    const saved = { ...before, ...next };
    await publishUpdate(saved);
    return saved;
  };

  return {
    toView,
    publishUpdate,

    /** GET /campaigns/: newest first, 20 a page. */
    async list(auth: AuthContext, q: { pageNumber: number }): Promise<CampaignListResponse> {
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["campaigns"]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => campaigns.page(auth.companyId, PAGE_SIZE, cursor),
      });
      const names = new Map<string, string | null>();
      const records: CampaignView[] = [];
      for (const c of items) records.push(await toView(c, names));
      return { records, hasMore };
    },

    async get(auth: AuthContext, id: number): Promise<CampaignView> {
      return toView(await find(auth, id));
    },

    async create(auth: AuthContext, raw: CampaignInput): Promise<CampaignView> {
      const input = await withInstant(auth.companyId, raw);
      assertSchedulable(input);
      await assertTargets(auth.companyId, input);
      const c = await campaigns.create(auth.companyId, { ...fieldsOf(input), mediaPath: null, mediaName: null }, clock());
      const view = await toView(c);
      await publish(auth.companyId, { action: "create", record: view });
      await deps.audit.record(auditEntry(auth, "create", { kind: "campaign", id: c.id }, auditChanges(null, pickCampaign(c))));
      return view;
    },

    /**
     * PUT /campaigns/{id}. Spec 3 section 4: every field while INATIVA or PROGRAMADA more than an hour ahead; a
     * CANCELADA campaign takes only message changes (any other field changed is refused); otherwise read-only.
     */
    async update(auth: AuthContext, id: number, raw: CampaignInput): Promise<CampaignView> {
      const input = await withInstant(auth.companyId, raw);
      const before = await find(auth, id);
      const now = clock();
      if (isCampaignEditable(before, now)) {
        assertSchedulable(input);
        await assertTargets(auth.companyId, input);
        const next: Campaign = { ...pickCampaign(before), ...fieldsOf(input), updatedAt: now.toISOString() };
        const saved = await saveOrConflict(before, next);
        await deps.audit.record(auditEntry(auth, "update", { kind: "campaign", id }, auditChanges(pickCampaign(before), next)));
        return toView(saved);
      }
      if (!canEditCampaignMessages(before, now)) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
      const messages = { ...Object.fromEntries(MESSAGE_FIELDS.map((f) => [f, input[f]])), template: input.template ?? null };
      await assertTemplate(auth.companyId, { whatsappId: before.whatsappId, template: messages.template, confirmation: before.confirmation });
      const others = fieldsOf(input);
      const changed =
        others.name !== before.name ||
        others.confirmation !== before.confirmation ||
        others.whatsappId !== before.whatsappId ||
        others.contactListId !== before.contactListId ||
        (input.scheduledAt !== null && others.scheduledAt !== before.scheduledAt);
      if (changed) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
      const next: Campaign = { ...pickCampaign(before), ...messages, updatedAt: now.toISOString() };
      const saved = await saveOrConflict(before, next);
      await deps.audit.record(auditEntry(auth, "update", { kind: "campaign", id }, auditChanges(pickCampaign(before), next)));
      return toView(saved);
    },

    /** DELETE /campaigns/{id}: any status; a running campaign's next job finds nothing and stops. */
    async remove(auth: AuthContext, id: number): Promise<void> {
      const c = await find(auth, id);
      await campaigns.remove(auth.companyId, c.id);
      await jobs.enqueue({ type: "feature", companyId: auth.companyId, name: CAMPAIGN_STEP_JOB, payload: { campaignId: c.id, purge: true } satisfies CampaignStepPayload });
      await publish(auth.companyId, { action: "delete", id: c.id });
      await deps.audit.record(auditEntry(auth, "delete", { kind: "campaign", id: c.id }, auditChanges(pickCampaign(c), null)));
    },

    /** POST /campaigns/{id}/cancel: EM_ANDAMENTO -> CANCELADA; the pending job sees it and sends nothing more. */
    async cancel(auth: AuthContext, id: number): Promise<CampaignView> {
      const c = await find(auth, id);
      if (c.status !== "EM_ANDAMENTO") throw new AppError("ERR_CAMPAIGN_INVALID_STATUS");
      const done = await campaigns.transition(auth.companyId, id, "EM_ANDAMENTO", "CANCELADA", clock());
      if (!done) throw new AppError("ERR_CAMPAIGN_INVALID_STATUS");
      await publishUpdate(done);
      await deps.audit.record(auditEntry(auth, "update", { kind: "campaign", id }, { status: { from: "EM_ANDAMENTO", to: "CANCELADA" } }));
      return toView(done);
    },

    /**
     * POST /campaigns/{id}/restart: CANCELADA -> EM_ANDAMENTO, continuing from where it stopped. A new chain number
     * makes any job of the earlier run void; recipients already sent to have their shipping record and are skipped.
     */
    async restart(auth: AuthContext, id: number): Promise<CampaignView> {
      const c = await find(auth, id);
      if (c.status !== "CANCELADA") throw new AppError("ERR_CAMPAIGN_INVALID_STATUS");
      const running = await campaigns.transition(auth.companyId, id, "CANCELADA", "EM_ANDAMENTO", clock(), { bumpSeq: true });
      if (!running) throw new AppError("ERR_CAMPAIGN_INVALID_STATUS");
      if (!running.walkDone) {
        await jobs.enqueue({ type: "feature", companyId: auth.companyId, name: CAMPAIGN_STEP_JOB, payload: { campaignId: id, seq: running.stepSeq } satisfies CampaignStepPayload });
      }
      await publishUpdate(running);
      await deps.audit.record(auditEntry(auth, "update", { kind: "campaign", id }, { status: { from: "CANCELADA", to: "EM_ANDAMENTO" } }));
      return toView(running);
    },

    /** POST /campaigns/{id}/media-upload: the attachment sent with every message (replaces any earlier one). */
    async attachMedia(auth: AuthContext, id: number, file: UploadedFile): Promise<CampaignView> {
      const before = await find(auth, id);
      if (!canEditCampaignMessages(before, clock())) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
      if (file.bytes.length > MAX_MEDIA_BYTES) throw new AppError("ERR_VALIDATION", { field: "file" });
      const checked = checkAttachment(file);
      const name = file.name.replace(/\s+/g, "_");
      const mediaPath = mediaKeyFor(auth.companyId, `campaign-${id}-${randomBytes(6).toString("hex")}`, name);
      await media.put(mediaPath, checked.bytes, checked.type);
      return toView(await saveOrConflict(before, { ...pickCampaign(before), mediaPath, mediaName: name, updatedAt: clock().toISOString() }));
    },

    /** DELETE /campaigns/{id}/media-upload: clears the attachment. */
    async removeMedia(auth: AuthContext, id: number): Promise<CampaignView> {
      const before = await find(auth, id);
      if (!canEditCampaignMessages(before, clock())) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
      return toView(await saveOrConflict(before, { ...pickCampaign(before), mediaPath: null, mediaName: null, updatedAt: clock().toISOString() }));
    },
  };
};
export type CampaignsService = ReturnType<typeof createCampaignsService>;

