import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../../platform/db/client";
import { nextId } from "../../../platform/db/counters";
import { companyPk, pad } from "../../../platform/db/keys";
import { mapItem } from "../../../platform/db/map-item";

/** `userId` null: a note the system wrote (a bot's handover). */
export type TicketNote = { id: number; companyId: number; note: string; ticketId: number; contactId: number; userId: number | null; createdAt: string; updatedAt: string };

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `TNOTE#${pad(id)}` });
const byTicketPk = (companyId: number, ticketId: number) => `${companyPk(companyId)}#TNOTES#${ticketId}`;
const toNote = mapItem<TicketNote>({
  id: true,
  companyId: true,
  note: true,
  ticketId: true,
  contactId: true,
  userId: true,
  createdAt: true,
  updatedAt: true,
});

export const createTicketNotesRepository = (db: Db) => ({
  async create(input: Omit<TicketNote, "id" | "createdAt" | "updatedAt">, now: Date): Promise<TicketNote> {
    const id = await nextId(db, input.companyId, "ticketNote");
    const note: TicketNote = { ...input, id, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    await db.doc.send(
      new PutCommand({ TableName: db.tableName, Item: { ...key(input.companyId, id), gsi1pk: byTicketPk(input.companyId, input.ticketId), gsi1sk: `${note.createdAt}#${pad(id)}`, entity: "ticketNote", ...note } }),
    );
    return note;
  },
  async findById(companyId: number, id: number): Promise<TicketNote | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId, id) }));
    return out.Item ? toNote(out.Item) : null;
  },
  async remove(companyId: number, id: number): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: key(companyId, id) }));
  },
  /** Notes of a ticket, newest first (a ticket holds few notes; capped). */
  async listByTicket(companyId: number, ticketId: number): Promise<TicketNote[]> {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: "gsi1",
        KeyConditionExpression: "gsi1pk = :pk",
        ExpressionAttributeValues: { ":pk": byTicketPk(companyId, ticketId) },
        ScanIndexForward: false,
        Limit: 200,
      }),
    );
    return (out.Items ?? []).map(toNote);
  },
});
export type TicketNotesRepository = ReturnType<typeof createTicketNotesRepository>;
