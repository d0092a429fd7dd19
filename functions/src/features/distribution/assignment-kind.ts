import type { AssignmentMode } from "../../platform/metrics";
import type { TicketSnapshot } from "../inbox/inbox-ports";

/**
 * Which person-made assignment a ticket change is, for the `Assignments` metric (docs/operations.md): an attendant
 * taking a ticket themselves ("accepted"), or a ticket handed from one attendant to another ("transferred").
 * Automatic distribution counts its own assignments (features/distribution); a change by the system is never one here.
 */
export const manualAssignment = (before: TicketSnapshot | null, after: TicketSnapshot, byUserId: number | null): AssignmentMode | null => {
  if (byUserId === null || after.status !== "open" || after.userId === null) return null;
  if (before?.userId && before.userId !== after.userId) return "transferred";
  if (before?.status !== "open" && after.userId === byUserId) return "accepted";
  return null;
};
