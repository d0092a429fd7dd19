import type { LgpdJobView, OptOutView } from "@atende/shared/contracts/http/lgpd";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { Logger } from "../../platform/logger";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { MediaStore } from "../../platform/storage/media-store.port";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { AuditRecorder } from "../audit/audit.port";
import { createConsentReads, type ConsentReads } from "./consent-reads";
import { createErasedNumbersRepository } from "./erased-numbers.repository";
import { createLgpdJobsRepository } from "./lgpd-jobs.repository";
import { lgpdRoutes } from "./lgpd.routes";
import { createLgpdService, LGPD_ERASE_JOB, LGPD_EXPORT_JOB, type LgpdJobPayload, type LgpdService } from "./lgpd.service";
import { createLgpdSettingsRepository } from "./lgpd-settings.repository";
import { createMediaRetentionJob, MEDIA_RETENTION_JOB } from "./media-retention.job";
import { createMediaRetentionRepository } from "./media-retention.repository";
import { createMediaBackfillRepository } from "./media-backfill.repository";
import { createNumberHasher, erasureHashKey } from "./number-hash";
import { createOptOutsRepository } from "./opt-outs.repository";
import { createOptOutsService, type OptOutInbound, type OptOutInbox, type OptOutsService } from "./opt-outs.service";
import { createPersonalDataRepository } from "./personal-data.repository";

type Publish = (companyId: number, event: "lgpd" | "optOut" | "contact", data: unknown) => Promise<unknown>;

/**
 * The consent reads other features get at construction (built before them; docs/adr/0024: existence checks are reads).
 * The LGPD module below is built after the inbox and campaigns and receives the same object.
 */
export const createLgpdConsent = (db: Db, config: { ERASURE_HASH_SECRET?: string; JWT_SECRET: string }): ConsentReads =>
  createConsentReads({ optOuts: createOptOutsRepository(db), erased: createErasedNumbersRepository(db), hashNumber: createNumberHasher(erasureHashKey(config)) });

/**
 * LGPD (issue 14 items 3-5; docs/adr/0030): the customer's export and erasure, opt-outs, media retention.
 */
/** What the opt-out check needs of an inbound message. */
const optOutInboundOf = (ev: Extract<InboundEvent, { type: "message" }>): OptOutInbound => {
  const m = ev.message;
  return { companyId: ev.companyId, whatsappId: ev.whatsappId, number: m.sender.number ?? "", body: m.body ?? "", fromMe: m.fromMe, isGroup: m.isGroup };
};

export const createLgpdModule = (deps: {
  db: Db;
  config: { ERASURE_HASH_SECRET?: string; JWT_SECRET: string; LGPD_SYNC_MAX_MESSAGES: number };
  media: MediaStore;
  jobQueue: JobQueue;
  audit: AuditRecorder;
  /** realtime to the company's admins */
  publishToAdmins: Publish;
  inbox: OptOutInbox;
  /** told what an erasure removed (the search index, docs/adr/0035) */
  afterErase?: Array<(companyId: number, ids: { messageIds: string[]; ticketIds: number[] }) => Promise<void>>;
  companySince: (companyId: number) => Promise<string | null>;
  guards: Guards;
  logger: Logger;
  clock: () => Date;
}): FeatureModule<{ lgpd: LgpdService; optOuts: OptOutsService }> & { contactRoutes: FeatureModule<null> } => {
  const { db, media, jobQueue, audit, logger, clock } = deps;
  const hashNumber = createNumberHasher(erasureHashKey(deps.config));
  const settings = createLgpdSettingsRepository(db);
  const optOuts = createOptOutsService({
    optOuts: createOptOutsRepository(db),
    settings,
    inbox: deps.inbox,
    cursors: createPageCursors(db),
    audit,
    publish: (companyId, data: { action: "create" | "delete"; optOut: OptOutView }) => deps.publishToAdmins(companyId, "optOut", data),
    clock,
  });
  const lgpd = createLgpdService({
    personalData: createPersonalDataRepository(db),
    jobs: createLgpdJobsRepository(db),
    erased: createErasedNumbersRepository(db),
    hashNumber,
    media,
    jobQueue,
    audit,
    publishJob: (companyId, job: LgpdJobView) => deps.publishToAdmins(companyId, "lgpd", { action: "update", job }),
    publishContactGone: (companyId, contactId) => deps.publishToAdmins(companyId, "contact", { action: "delete", contactId }),
    logger,
    clock,
    syncMaxMessages: deps.config.LGPD_SYNC_MAX_MESSAGES,
    afterErase: deps.afterErase,
  });
  const retention = createMediaRetentionJob({
    settings,
    retention: createMediaRetentionRepository(db),
    backfill: createMediaBackfillRepository(db),
    media,
    jobQueue,
    companySince: deps.companySince,
    sweepExpiredExports: (now) => lgpd.sweepExpiredExports(now),
    logger,
    clock,
  });
  const routes = lgpdRoutes({ lgpd, optOuts, auth: deps.guards.auth });
  return {
    service: { lgpd, optOuts },
    /** /contacts/:id/export, /contacts/:id/opt-out and DELETE ?erase=true: mounted before the inbox's /contacts */
    contactRoutes: { service: null, routes: [{ path: "/contacts", app: routes.contacts }] },
    routes: [
      { path: "/opt-outs", app: routes.optOuts },
      { path: "/lgpd", app: routes.lgpd },
    ],
    inbound: {
      // after the inbox stored the message (module order): a reply that opts the customer out
      message: async (ev) => {
        try {
          await optOuts.onInbound(optOutInboundOf(ev));
        } catch (err) {
          logger.error("opt-out check failed", { companyId: ev.companyId, err: String(err) });
        }
      },
    },
    // the keywords that reply will be checked against, read with the inbox's first reads (docs/adr/0058)
    inboundEarly: { message: (ev) => optOuts.readEarly(optOutInboundOf(ev)) },
    jobs: {
      named: {
        // enqueued only by this module, so the payloads have these shapes
        [LGPD_EXPORT_JOB]: (companyId, payload) => lgpd.runExportJob(companyId, payload as LgpdJobPayload),
        [LGPD_ERASE_JOB]: (companyId, payload) => lgpd.runEraseJob(companyId, payload as LgpdJobPayload),
        [MEDIA_RETENTION_JOB]: async (companyId) => void (await retention.sweepCompany(companyId)),
      },
    },
    tick: [{ name: "lgpd-daily", run: async (now) => void (await retention.tick(now)) }],
  };
};
