import { randomUUID } from "node:crypto";
import type { QueueOptionResponse } from "@atende/shared/contracts/http/queues";
import type { QueueOptionInput } from "@atende/shared/domain/queues/queues";
import { AppError } from "../../platform/errors";
import type { MediaStore } from "../../platform/storage/media-store.port";
import { mediaKeyFor } from "../../platform/storage/media-store.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { QueuesService } from "../queues/queues.service";
import type { QueueOption } from "@atende/shared/domain/queue-options/queue-option";
import type { QueueOptionsRepository } from "./queue-options.repository";

import { checkAttachment } from "../../platform/http/upload-check";
import type { UploadedFile } from "../../platform/http/uploaded-file";
export const MAX_MEDIA_BYTES = 20 * 1024 * 1024;

export const toQueueOptionResponse = (o: QueueOption): QueueOptionResponse => ({
  id: o.id,
  queueId: o.queueId,
  parentId: o.parentId ?? null,
  title: o.title,
  message: o.message ?? "",
  option: String(o.option ?? ""),
  mediaPath: o.mediaPath ?? null,
  mediaName: o.mediaName ?? null,
});

/**
 * A queue's chatbot tree (spec 2 "Queue option"). The inbox's chatbot reads it through `listChildren` and `findById`:
 * top level is parentId null; each node's children are numbered by `option`.
 */
export const createQueueOptionsService = (deps: {
  options: QueueOptionsRepository;
  queues: Pick<QueuesService, "findById">;
  media: MediaStore;
  clock: () => Date;
}) => {
  const { options, queues, media, clock } = deps;

  const assertQueue = async (companyId: number, queueId: number) => {
    if (!(await queues.findById(companyId, queueId))) throw new AppError("ERR_NOT_FOUND");
  };
  const findOrFail = async (companyId: number, id: number) => {
    const option = await options.findById(companyId, id);
    if (!option) throw new AppError("ERR_NOT_FOUND");
    return option;
  };
  /** The node and every node below it. */
  const subtree = async (root: QueueOption): Promise<QueueOption[]> => {
    const all = await options.listByQueue(root.companyId, root.queueId);
    const out = [root];
    for (let i = 0; i < out.length; i++) out.push(...all.filter((o) => o.parentId === out[i]!.id));
    return out;
  };

  return {
    /** GET /queue-options?queueId&parentId (-1 or absent = top level). */
    async list(auth: AuthContext, queueId: number, parentId?: number): Promise<QueueOptionResponse[]> {
      await assertQueue(auth.companyId, queueId);
      const parent = parentId === undefined || parentId === -1 ? null : parentId;
      return (await options.listChildren(auth.companyId, queueId, parent)).map(toQueueOptionResponse);
    },
    async create(auth: AuthContext, input: QueueOptionInput): Promise<QueueOptionResponse> {
      await assertQueue(auth.companyId, input.queueId);
      const parentId = input.parentId ?? null;
      if (parentId !== null) {
        const parent = await findOrFail(auth.companyId, parentId);
        if (parent.queueId !== input.queueId) throw new AppError("ERR_VALIDATION", { field: "parentId" });
      }
      const siblings = await options.listChildren(auth.companyId, input.queueId, parentId);
      const option = input.option === undefined || input.option === "" ? String(siblings.length + 1) : String(input.option);
      const created = await options.create(
        auth.companyId,
        { queueId: input.queueId, parentId, title: input.title, message: input.message, option, mediaPath: null, mediaName: null },
        clock(),
      );
      return toQueueOptionResponse(created);
    },
    async update(auth: AuthContext, id: number, patch: { title?: string; message?: string; option?: number | string }) {
      const before = await findOrFail(auth.companyId, id);
      const updated = await options.update(
        before,
        { title: patch.title, message: patch.message, option: patch.option === undefined ? undefined : String(patch.option) },
        clock(),
      );
      return toQueueOptionResponse(updated);
    },
    /** Deletes the node with everything below it. */
    async remove(auth: AuthContext, id: number): Promise<void> {
      await options.removeMany(await subtree(await findOrFail(auth.companyId, id)));
    },
    async uploadMedia(auth: AuthContext, id: number, file: UploadedFile): Promise<QueueOptionResponse> {
      const before = await findOrFail(auth.companyId, id);
      if (file.bytes.length > MAX_MEDIA_BYTES) throw new AppError("ERR_VALIDATION", { field: "file" });
      const checked = checkAttachment(file);
      const key = mediaKeyFor(auth.companyId, `queue-option-${id}-${randomUUID()}`, file.name);
      await media.put(key, checked.bytes, checked.type);
      return toQueueOptionResponse(await options.update(before, { mediaPath: key, mediaName: file.name }, clock()));
    },
    async removeMedia(auth: AuthContext, id: number): Promise<QueueOptionResponse> {
      const before = await findOrFail(auth.companyId, id);
      return toQueueOptionResponse(await options.update(before, { mediaPath: null, mediaName: null }, clock()));
    },
    /** Queue deletion removes its whole tree. */
    async removeByQueue(companyId: number, queueId: number): Promise<void> {
      await options.removeMany(await options.listByQueue(companyId, queueId));
    },

    // --- for the chatbot (inbox feature) ---
    /** Children of a node, by option number (parentId null = top level). */
    listChildren: (companyId: number, queueId: number, parentId: number | null) => options.listChildren(companyId, queueId, parentId),
    findById: (companyId: number, id: number) => options.findById(companyId, id),
  };
};
export type QueueOptionsService = ReturnType<typeof createQueueOptionsService>;
