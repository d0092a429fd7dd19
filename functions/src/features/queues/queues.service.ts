import { DEFAULT_SCHEDULES } from "@atende/shared/constants/business";
import type { QueueResponse } from "@atende/shared/contracts/http/queues";
import type { QueueInput } from "@atende/shared/domain/queues/queues";
import { isOverPlanLimit } from "@atende/shared/domain/plans/plan";
import { randomUUID } from "node:crypto";
import { AppError } from "../../platform/errors";
import { checkAttachment } from "../../platform/http/upload-check";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import { type MediaStore, mediaKeyFor } from "../../platform/storage/media-store.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { CompaniesService } from "../companies/companies.service";
import type { RealtimeService } from "../realtime/realtime.service";
import type { Queue, QueuesRepository } from "./queues.repository";
import type { AuditRecorder } from "../audit/audit.port";
import { auditChanges, auditEntry } from "../audit/audit-diff";

export const toQueueResponse = (q: Queue): QueueResponse => ({
  id: q.id,
  name: q.name,
  color: q.color,
  greetingMessage: q.greetingMessage ?? "",
  outOfHoursMessage: q.outOfHoursMessage ?? "",
  orderQueue: q.orderQueue ?? null,
  integrationId: q.integrationId ?? null,
  flowId: q.flowId ?? null,
  promptId: q.promptId ?? null,
  schedules: q.schedules ?? [],
  mediaPath: q.mediaPath ?? null,
  mediaName: q.mediaName ?? null,
  companyId: q.companyId,
  sla: q.sla ?? null,
});

const MAX_QUEUE_MEDIA_BYTES = 20 * 1024 * 1024;

export const byOrder = (a: Queue, b: Queue) => (a.orderQueue ?? Number.MAX_SAFE_INTEGER) - (b.orderQueue ?? Number.MAX_SAFE_INTEGER) || a.id - b.id;

export const createQueuesService = (deps: {
  /** the audit trail (docs/adr/0029) */
  audit: AuditRecorder;
  queues: QueuesRepository;
  companies: CompaniesService;
  realtime: RealtimeService;
  media: MediaStore;
  clock: () => Date;
  /** how the prompts and queue-integrations features tell a company's own ids (reads, passed at construction: ADR 0024) */
  references: Record<"promptId" | "integrationId" | "flowId", (companyId: number, id: number) => Promise<boolean>>;
  /** run before a queue goes (queue-options removes the tree, prompts lose the queue) */
  onDeleted?: readonly ((queue: Queue) => Promise<void>)[];
}) => {
  const { queues, companies, realtime, clock, references } = deps;
  const deleteHooks = deps.onDeleted ?? [];

  /** The caller's company, or another one for the operator (`companyId` query parameter). */
  const targetCompany = (auth: AuthContext, companyId?: number) => (companyId && auth.user.super ? companyId : auth.companyId);

  const assertPlanFor = async (companyId: number, input: Pick<QueueInput, "promptId" | "integrationId" | "flowId">) => {
    if (input.flowId) await companies.assertPlanAllows(companyId, "useIntegrations");
    if (input.flowId && !(await references.flowId(companyId, input.flowId))) throw new AppError("ERR_NO_FLOW_FOUND");
    if (input.promptId) await companies.assertPlanAllows(companyId, "useOpenAi");
    if (input.integrationId) await companies.assertPlanAllows(companyId, "useIntegrations");
    if (input.promptId && !(await references.promptId(companyId, input.promptId))) throw new AppError("ERR_NO_PROMPT_FOUND");
    if (input.integrationId && !(await references.integrationId(companyId, input.integrationId))) throw new AppError("ERR_NO_INTEGRATION_FOUND");
  };

  const find = async (companyId: number, id: number) => {
    const queue = await queues.findById(companyId, id);
    if (!queue) throw new AppError("ERR_NOT_FOUND");
    return queue;
  };

  return {
    async list(auth: AuthContext, companyId?: number): Promise<QueueResponse[]> {
      return (await queues.listByCompany(targetCompany(auth, companyId))).sort(byOrder).map(toQueueResponse);
    },
    /** For other features (chatbot, tickets): the company's queues by menu order. */
    async listByCompany(companyId: number): Promise<Queue[]> {
      return (await queues.listByCompany(companyId)).sort(byOrder);
    },
    async findById(companyId: number, id: number): Promise<Queue | null> {
      return queues.findById(companyId, id);
    },
    async get(auth: AuthContext, id: number): Promise<QueueResponse> {
      return toQueueResponse(await find(auth.companyId, id));
    },
    async create(auth: AuthContext, input: QueueInput): Promise<QueueResponse> {
      const { companyId } = auth;
      const existing = await queues.listByCompany(companyId);
      const plan = await companies.planOf(companyId);
      if (isOverPlanLimit(plan, "queues", existing.length)) throw new AppError("ERR_PLAN_LIMIT_QUEUES");
      if (existing.length >= 1 && !input.greetingMessage.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED");
      await assertPlanFor(companyId, input);
      const queue = await queues.create(
        companyId,
        {
          name: input.name,
          color: input.color,
          greetingMessage: input.greetingMessage,
          outOfHoursMessage: input.outOfHoursMessage,
          orderQueue: input.orderQueue ?? null,
          integrationId: input.integrationId ?? null,
          flowId: input.flowId ?? null,
          promptId: input.promptId ?? null,
          schedules: input.schedules ?? DEFAULT_SCHEDULES,
          mediaPath: null,
          mediaName: null,
          sla: input.sla ?? null,
        },
        clock(),
      );
      await realtime.publish(companyId, "queue", { action: "update", queue: toQueueResponse(queue) });
      await deps.audit.record(auditEntry(auth, "create", { kind: "queue", id: queue.id }, auditChanges(null, toQueueResponse(queue)), companyId));
      return toQueueResponse(queue);
    },
    async update(auth: AuthContext, id: number, input: Partial<QueueInput>): Promise<QueueResponse> {
      const { companyId } = auth;
      const before = await find(companyId, id);
      const count = (await queues.listByCompany(companyId)).length;
      const greeting = input.greetingMessage ?? before.greetingMessage;
      if (count > 1 && !greeting.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED");
      await assertPlanFor(companyId, { promptId: input.promptId, integrationId: input.integrationId, flowId: input.flowId });
      const next: Queue = {
        ...before,
        name: input.name ?? before.name,
        color: input.color ?? before.color,
        greetingMessage: greeting,
        outOfHoursMessage: input.outOfHoursMessage ?? before.outOfHoursMessage,
        orderQueue: input.orderQueue === undefined ? before.orderQueue : input.orderQueue,
        integrationId: input.integrationId === undefined ? before.integrationId : input.integrationId,
        flowId: input.flowId === undefined ? (before.flowId ?? null) : input.flowId,
        promptId: input.promptId === undefined ? before.promptId : input.promptId,
        schedules: input.schedules ?? before.schedules,
        sla: input.sla === undefined ? (before.sla ?? null) : input.sla,
        updatedAt: clock().toISOString(),
      };
      await queues.replace(before, next);
      await realtime.publish(companyId, "queue", { action: "update", queue: toQueueResponse(next) });
      await deps.audit.record(auditEntry(auth, "update", { kind: "queue", id }, auditChanges(toQueueResponse(before), toQueueResponse(next))));
      return toQueueResponse(next);
    },
    /** POST /queue/{id}/media-upload: the file sent with the queue's greeting. */
    async uploadMedia(auth: AuthContext, id: number, file: UploadedFile): Promise<QueueResponse> {
      const before = await find(auth.companyId, id);
      if (file.bytes.length > MAX_QUEUE_MEDIA_BYTES) throw new AppError("ERR_VALIDATION", { field: "file" });
      const checked = checkAttachment(file);
      const key = mediaKeyFor(auth.companyId, `queue-${id}-${randomUUID()}`, file.name);
      await deps.media.put(key, checked.bytes, checked.type);
      const next = { ...before, mediaPath: key, mediaName: file.name, updatedAt: clock().toISOString() };
      await queues.replace(before, next);
      await deps.audit.record(auditEntry(auth, "update", { kind: "queue", id }, auditChanges(toQueueResponse(before), toQueueResponse(next))));
      return toQueueResponse(next);
    },
    /** DELETE /queue/{id}/media-upload */
    async removeMedia(auth: AuthContext, id: number): Promise<QueueResponse> {
      const before = await find(auth.companyId, id);
      const next = { ...before, mediaPath: null, mediaName: null, updatedAt: clock().toISOString() };
      await queues.replace(before, next);
      await deps.audit.record(auditEntry(auth, "update", { kind: "queue", id }, auditChanges(toQueueResponse(before), toQueueResponse(next))));
      return toQueueResponse(next);
    },
    async remove(auth: AuthContext, id: number): Promise<void> {
      const queue = await find(auth.companyId, id);
      for (const hook of deleteHooks) await hook(queue);
      await queues.remove(queue);
      await realtime.publish(auth.companyId, "queue", { action: "delete", queueId: id });
      await deps.audit.record(auditEntry(auth, "delete", { kind: "queue", id }, auditChanges(toQueueResponse(queue), null)));
    },
  };
};
export type QueuesService = ReturnType<typeof createQueuesService>;
