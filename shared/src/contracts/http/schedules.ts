import type { Schedule } from "../../domain/schedules/schedule";

/** GET /schedules/{id}, list item, and the realtime record. `whatsappId` null: the company's default connection. */
export type ScheduleResponse = Omit<Schedule, "userName" | "contactName" | "contactNumber"> & {
  contact: { id: number; name: string; number: string };
  user: { id: number; name: string } | null;
};

/** GET /schedules/ (searchParam, pageNumber; optional from/to ISO instants bound sendAt, e.g. a calendar month). */
export type ScheduleListResponse = { schedules: ScheduleResponse[]; hasMore: boolean };

/** Realtime `schedule` on channel company-{id}-schedule: admins and the schedule's author receive it. */
export type ScheduleEventData = { action: "create" | "update"; schedule: ScheduleResponse } | { action: "delete"; scheduleId: number };

/**
 * POST and DELETE /schedules/{id}/media-upload: the schedule after the change, plus the reference's `mensagem`
 * ('Arquivo Anexado' / 'Arquivo Excluído') that clients of the spec read.
 */
export type ScheduleMediaResponse = ScheduleResponse & { mensagem: string };
