import type { ScheduleEntry } from "../../domain/queues/queues";
import type { SlaPolicy } from "../../domain/service-levels/sla";

/** GET /queue, GET /queue/{id} item. */
export type QueueResponse = {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  integrationId: number | null;
  /** issue 30: the flow a new conversation in this queue starts */
  flowId?: number | null;
  promptId: number | null;
  schedules: ScheduleEntry[];
  mediaPath: string | null;
  mediaName: string | null;
  companyId: number;
  /** issue 13: SLA targets in business minutes (null or absent: no SLA) */
  sla?: SlaPolicy | null;
};

/** GET /queue-options item: a chatbot node. `children` holds the direct children's ids count only when listed. */
export type QueueOptionResponse = {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  option: string;
  mediaPath: string | null;
  mediaName: string | null;
};
