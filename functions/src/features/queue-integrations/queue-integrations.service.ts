import { PAGE_SIZE } from "@atende/shared/constants/business";
import type {
  DialogflowTestResponse,
  QueueIntegrationEventData,
  QueueIntegrationListResponse,
  QueueIntegrationResponse,
  QueueIntegrationSavedResponse,
  WebhookSecretResponse,
} from "@atende/shared/contracts/http/queue-integrations";
import {
  type DialogflowTestInput,
  type QueueIntegrationInput,
  dialogflowCredentialsProblem,
  maskServiceAccountKey,
  restoreServiceAccountKey,
} from "@atende/shared/domain/queue-integrations/queue-integration";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { AppError } from "../../platform/errors";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { QueuesService } from "../queues/queues.service";
import type { RealtimeService } from "../realtime/realtime.service";
import type { WhatsappsService } from "../whatsapps/whatsapps.service";
import type { DialogflowServiceAccount } from "../../platform/dialogflow/dialogflow-rest.adapter";
import type { DialogflowTester } from "./dialogflow-test-client";
import type { IntegrationSecrets } from "./integration-secrets";
import type { QueueIntegration } from "@atende/shared/domain/queue-integrations/queue-integration";
import type { QueueIntegrationsRepository } from "./queue-integrations.repository";
import type { AuditRecorder } from "../audit/audit.port";
import { auditChanges, auditEntry } from "../audit/audit-diff";

export const toQueueIntegrationResponse = (i: QueueIntegration): QueueIntegrationResponse => ({
  id: i.id,
  name: i.name,
  type: i.type,
  projectName: i.projectName,
  // the service account's private key is a secret: masked like a prompt's API key
  jsonContent: maskServiceAccountKey(i.jsonContent),
  language: i.language,
  urlN8N: i.urlN8N,
  typebotSlug: i.typebotSlug,
  typebotExpires: i.typebotExpires,
  typebotDelayMessage: i.typebotDelayMessage,
  typebotKeywordFinish: i.typebotKeywordFinish,
  typebotKeywordRestart: i.typebotKeywordRestart,
  typebotUnknownMessage: i.typebotUnknownMessage,
  typebotRestartMessage: i.typebotRestartMessage,
  // the signing secret itself is never answered here: only the save or rotation that made it shows it (once)
  hasWebhookSecret: !!i.webhookSecret,
  companyId: i.companyId,
  createdAt: i.createdAt,
  updatedAt: i.updatedAt,
});

/** Queue integrations (spec 3): admin-only, plan flag useIntegrations (both checked by the routes). */
export const createQueueIntegrationsService = (deps: {
  /** the audit trail (docs/adr/0029) */
  audit: AuditRecorder;
  integrations: QueueIntegrationsRepository;
  queues: Pick<QueuesService, "listByCompany">;
  whatsapps: Pick<WhatsappsService, "list">;
  dialogflow: DialogflowTester;
  /** seals and opens the integrations' secrets (webhook signing secret, DialogFlow private key): ADR 0027 */
  secrets: IntegrationSecrets;
  realtime: RealtimeService;
  cursors: PageCursors;
  clock: () => Date;
  /** the outbound guard's save-time check of `urlN8N` (docs/adr/0062): ERR_URL_NOT_ALLOWED when refused */
  checkUrl?: (url: string) => Promise<void>;
}) => {
  const { integrations, queues, whatsapps, dialogflow, secrets, realtime, cursors, clock } = deps;

  const find = async (companyId: number, id: number) => {
    const i = await integrations.findById(companyId, id);
    if (!i) throw new AppError("ERR_NO_INTEGRATION_FOUND");
    return i;
  };
  /** jsonContent may hold a service-account key: only the company's admins hear of integrations. */
  const publish = (companyId: number, data: QueueIntegrationEventData) =>
    realtime.publish<QueueIntegrationEventData>(companyId, "queueIntegration", data, { kind: "admins" });

  return {
    /** GET /queueIntegration/: 20 a page by name; `searchParam` is a lower-cased name substring. */
    async list(auth: AuthContext, q: { searchParam: string; pageNumber: number }): Promise<QueueIntegrationListResponse> {
      const term = q.searchParam.trim().toLowerCase();
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["queue-integrations", term]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => integrations.page(auth.companyId, term, PAGE_SIZE, cursor),
      });
      return { queueIntegrations: items.map(toQueueIntegrationResponse), hasMore };
    },
    async get(auth: AuthContext, id: number): Promise<QueueIntegrationResponse> {
      return toQueueIntegrationResponse(await find(auth.companyId, id));
    },
    /** For other features (queues): whether the company has this integration. */
    async exists(companyId: number, id: number): Promise<boolean> {
      return (await integrations.findById(companyId, id)) !== null;
    },
    /** n8n/webhook: the answer carries the new signing secret (`webhookSecret`), the only time it is shown. */
    async create(auth: AuthContext, input: QueueIntegrationInput): Promise<QueueIntegrationSavedResponse> {
      await deps.checkUrl?.(input.urlN8N);
      const secret = await secrets.forSave(input.type, null);
      const jsonContent = await secrets.sealServiceAccountKey(input.jsonContent);
      const created = await integrations.create(auth.companyId, { ...input, jsonContent, webhookSecret: secret.stored }, clock());
      const out = toQueueIntegrationResponse(created);
      await publish(auth.companyId, { action: "create", queueIntegration: out });
      await deps.audit.record(auditEntry(auth, "create", { kind: "integration", id: created.id }, auditChanges(null, created, { secrets: ["jsonContent"] })));
      return secret.shown ? { ...out, webhookSecret: secret.shown } : out;
    },
    /**
     * PUT replaces the whole form (the dialog always sends every field of the chosen type). The signing secret stays
     * while the type is n8n/webhook; a switch to those types makes one (answered once), a switch away drops it.
     */
    async update(auth: AuthContext, id: number, input: QueueIntegrationInput): Promise<QueueIntegrationSavedResponse> {
      const before = await find(auth.companyId, id);
      await deps.checkUrl?.(input.urlN8N);
      const jsonContent = await secrets.sealServiceAccountKey(restoreServiceAccountKey(input.jsonContent, before.jsonContent));
      const secret = await secrets.forSave(input.type, before.webhookSecret);
      const next: QueueIntegration = { ...before, ...input, jsonContent, webhookSecret: secret.stored, updatedAt: clock().toISOString() };
      await integrations.replace(next);
      const out = toQueueIntegrationResponse(next);
      await publish(auth.companyId, { action: "update", queueIntegration: out });
      await deps.audit.record(auditEntry(auth, "update", { kind: "integration", id }, auditChanges(before, next, { secrets: ["jsonContent"] })));
      return secret.shown ? { ...out, webhookSecret: secret.shown } : out;
    },
    /** POST /queueIntegration/{id}/rotate-secret: a new signing secret (n8n/webhook), answered once; the old one stops. */
    async rotateSecret(auth: AuthContext, id: number): Promise<WebhookSecretResponse> {
      const before = await find(auth.companyId, id);
      const secret = await secrets.rotate(before.type);
      const next: QueueIntegration = { ...before, webhookSecret: secret.stored, updatedAt: clock().toISOString() };
      await integrations.replace(next);
      await publish(auth.companyId, { action: "update", queueIntegration: toQueueIntegrationResponse(next) });
      return { webhookSecret: secret.shown };
    },
    /** Refused while a queue or a connection still uses it (ERR_INTEGRATION_IN_USE with their names). */
    async remove(auth: AuthContext, id: number): Promise<void> {
      const i = await find(auth.companyId, id);
      const [companyQueues, connections] = await Promise.all([queues.listByCompany(auth.companyId), whatsapps.list(auth)]);
      const usedBy = {
        queues: companyQueues.filter((q) => q.integrationId === id).map((q) => q.name),
        connections: connections.filter((w) => w.integrationId === id).map((w) => w.name),
      };
      if (usedBy.queues.length || usedBy.connections.length) throw new AppError("ERR_INTEGRATION_IN_USE", usedBy);
      await integrations.remove(auth.companyId, i.id);
      await publish(auth.companyId, { action: "delete", integrationId: i.id });
      await deps.audit.record(auditEntry(auth, "delete", { kind: "integration", id: i.id }, auditChanges(i, null, { secrets: ["jsonContent"] })));
    },
    /**
     * POST /queueIntegration/testSession: checks the service-account JSON (shape, PEM key, project) here, then
     * sends the test phrase to a new DialogFlow session (detectIntent) and answers what the agent said.
     */
    async testSession(auth: AuthContext, input: DialogflowTestInput): Promise<DialogflowTestResponse> {
      const sent = input.id ? restoreServiceAccountKey(input.jsonContent, (await find(auth.companyId, input.id)).jsonContent) : input.jsonContent;
      const jsonContent = await secrets.openServiceAccountKey(sent);
      const problem = dialogflowCredentialsProblem(jsonContent, input.projectName);
      if (problem) throw new AppError("ERR_DIALOGFLOW_INVALID_CREDENTIALS", { reason: problem });
      const credentials = JSON.parse(jsonContent) as DialogflowServiceAccount;
      const answer = await dialogflow.testSession({ credentials, projectName: input.projectName, language: input.language });
      return { message: "DialogFlow session ok", ...answer };
    },
  };
};
export type QueueIntegrationsService = ReturnType<typeof createQueueIntegrationsService>;
