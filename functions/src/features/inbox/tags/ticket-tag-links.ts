import type { TxItem } from "../../../platform/db/transact";
import { AppError } from "../../../platform/errors";
import type { TagsRepository } from "./tags.repository";

/**
 * The tags' ticket links and counters, written in the ticket's own transaction when its tags change (the tickets
 * service asks for these items; built before both the tickets and the tags services, so neither waits for the other).
 */
export const createTicketTagLinks = (tags: Pick<TagsRepository, "linkItems">) => ({
  ticketTagItems(companyId: number, ticketId: number, before: readonly number[], after: readonly number[], live: ReadonlySet<number>): TxItem[] {
    const changed = after.filter((t) => !before.includes(t)).length + before.filter((t) => !after.includes(t)).length;
    // two items per changed tag; a transaction holds 100 with the ticket's own
    if (changed > 45) throw new AppError("ERR_VALIDATION", { field: "tags" });
    return tags.linkItems(companyId, ticketId, before, after, live);
  },
});
export type TicketTagLinks = ReturnType<typeof createTicketTagLinks>;
