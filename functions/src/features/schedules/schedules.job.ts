import type { PlanFlag } from "@atende/shared/domain/plans/plan";
import type { Logger } from "../../platform/logger";
import type { MediaStore } from "../../platform/storage/media-store.port";
import type { InboxService } from "../inbox/inbox.service";
import { idempotentMessageId } from "../inbox/message-ids";
import type { Schedule } from "@atende/shared/domain/schedules/schedule";
import type { DueSchedule, SchedulesRepository } from "./schedules.repository";
import { toScheduleResponse, type SchedulesService } from "./schedules.service";

/** The message id of one attempt: the same schedule at the same version always maps to the same message. */
export const scheduleMessageId = (s: Pick<DueSchedule, "companyId" | "userId" | "id" | "version">) =>
  idempotentMessageId(s.companyId, s.userId, `schedule:${s.id}:${s.version}`);

/** A claim outlives any send; a tick that crashed mid-send leaves the schedule to a later tick after this. */
const CLAIM_LEASE_MS = 5 * 60_000;

/**
 * The minute tick's scheduled messages: every pending schedule whose time has come (read from the due index, never
 * a scan) is claimed by one tick only, sent to its contact through its connection (or the company's default) into
 * the contact's ticket, and marked ENVIADA, or ERRO with the reason. A Cloud API schedule with a template sends it.
 * The message id is derived from the schedule and its version, so a retry after a crash stores and sends nothing new.
 */
export const createSchedulesJob = (deps: {
  schedules: SchedulesRepository;
  service: Pick<SchedulesService, "publish">;
  messages: Pick<InboxService, "sendToContact">;
  companies: { assertPlanAllows(companyId: number, flag: PlanFlag): Promise<void> };
  media: Pick<MediaStore, "get">;
  logger: Logger;
}) => {
  const { schedules, service, messages, companies, media, logger } = deps;

  /** The schedule's attachment as a message file; a missing object fails the send (never sent without it). */
  const filesOf = async (s: DueSchedule) => {
    if (!s.mediaPath) return undefined;
    const obj = await media.get(s.mediaPath);
    if (!obj) throw Object.assign(new Error("schedule attachment missing"), { code: "ERR_SENDING_WAPP_MSG" });
    return [{ name: s.mediaName ?? "arquivo", type: obj.mimetype, bytes: obj.body }];
  };

  const send = async (s: DueSchedule) => {
    try {
      await companies.assertPlanAllows(s.companyId, "useSchedules");
      const out = await messages.sendToContact({
        companyId: s.companyId,
        contactId: s.contactId,
        whatsappId: s.whatsappId,
        body: s.body,
        userId: s.userId,
        id: scheduleMessageId(s),
        // Cloud API: the template, prepared again now (one paused or rejected since fails with its code); it is
        // allowed whatever the 24-hour window, while free text outside it fails with ERR_WINDOW_CLOSED
        ...(s.template ? { template: s.template } : { files: await filesOf(s) }),
      });
      if (out.message.error) return { status: "ERRO" as const, errorMessage: out.message.error, ticketId: out.ticket.id };
      return { status: "ENVIADA" as const, errorMessage: null, ticketId: out.ticket.id };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      logger.warn("scheduled message not sent", { companyId: s.companyId, scheduleId: s.id, err: String(err) });
      return { status: "ERRO" as const, errorMessage: typeof code === "string" && code.startsWith("ERR_") ? code : "ERR_SENDING_WAPP_MSG", ticketId: null };
    }
  };

  return {
    name: "schedules",
    async run(now: Date): Promise<Schedule[]> {
      const done: Schedule[] = [];
      for (const due of await schedules.listDue(now)) {
        try {
          const token = await schedules.claim(due, now, CLAIM_LEASE_MS);
          if (!token) continue;
          const outcome = await send(due);
          const saved = await schedules.finish(due, token, { ...outcome, sentAt: outcome.status === "ENVIADA" ? now.toISOString() : null }, now);
          if (!saved) continue;
          done.push(saved);
          await service.publish(saved, { action: "update", schedule: toScheduleResponse(saved) });
        } catch (err) {
          logger.error("scheduled message failed", { companyId: due.companyId, scheduleId: due.id, err: String(err) });
        }
      }
      return done;
    },
  };
};
export type SchedulesJob = ReturnType<typeof createSchedulesJob>;
