import { QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { TicketStatus } from "@atende/shared/domain/tickets/ticket";
import type { Db } from "../../../platform/db/client";
import { transact, TxConditionFailed, type TxItem } from "../../../platform/db/transact";
import { batchGetAll } from "../../../platform/db/batch-get";
import type { ContactCard } from "./ticket-record";
import { contactTicketKey, COPIED, key, tagCopyKey } from "./ticket-keys";

/**
 * A contact's change reaching its tickets' cards (docs/adr/0057): tickets read per BatchGetItem, updates per
 * transaction (DynamoDB's limit), and single updates in flight at once when a transaction had to be redone ticket by ticket.
 */
const FOLLOW_READ = 100;
const FOLLOW_TX_ITEMS = 100;
const FOLLOW_CONCURRENCY = 16;

/** A contact's change reaching its tickets' cards (docs/adr/0057). Part of the tickets repository. */
export const createContactCardFollow = (db: Db) => {
  const T = db.tableName;
  return {
    /**
     * A contact's change reaches the cards of all its tickets at once (docs/adr/0057): every ticket of the contact
     * (its `CT#` pointers, newest first) gets the new `contactCard` and one more `version` — a ticket write read
     * before this one then loses its version condition and re-reads, so it never puts the old copy back — and the
     * ticket's tag copies (docs/adr/0040) get the card and the ticket's new version unless a newer write of the
     * ticket already rewrote them. `null`: the contact was deleted (its cards show no contact); `undefined`: the card
     * is too large to copy (CONTACT_CARD_MAX_BYTES), the copies are removed and the cards read the contact. In bulk:
     * one BatchGetItem per 100 tickets and one transaction per 100 updates (a contact with 10 tickets: 3 calls); a
     * transaction that loses a condition is redone ticket by ticket. Answers how many tickets and copies it wrote.
     */
    async followContact(companyId: number, contactId: number, card: ContactCard | null | undefined): Promise<{ tickets: number; copies: number }> {
      const set = card !== undefined;
      const ids: number[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": contactTicketKey(companyId, contactId, 0).pk },
            ProjectionExpression: "ticketId",
            ScanIndexForward: false,
            ExclusiveStartKey: start,
          }),
        );
        ids.push(...(out.Items ?? []).map((i) => Number(i.ticketId)));
        start = out.LastEvaluatedKey;
      } while (start);
      const written = { tickets: 0, copies: 0 };
      const ignoringCondition = async (send: () => Promise<unknown>) => {
        try {
          await send();
          return true;
        } catch (e) {
          if ((e as Error).name === "ConditionalCheckFailedException") return false;
          throw e;
        }
      };
      const one = async (ticketId: number) => {
        let after: Record<string, unknown> | undefined;
        const updated = await ignoringCondition(async () => {
          const out = await db.doc.send(
            new UpdateCommand({
              TableName: T,
              Key: key(companyId, ticketId),
              UpdateExpression: set ? "SET #cc = :cc ADD #v :one" : "REMOVE #cc ADD #v :one",
              // an item of this contact only (never creates one: the ticket may be gone)
              ConditionExpression: "attribute_exists(pk) AND #cid = :cid",
              ExpressionAttributeNames: { "#cc": "contactCard", "#v": "version", "#cid": "contactId" },
              ExpressionAttributeValues: { ...(set ? { ":cc": card } : {}), ":one": 1, ":cid": contactId },
              ReturnValues: "ALL_NEW",
            }),
          );
          after = out.Attributes;
        });
        if (!updated || !after) return;
        written.tickets++;
        const status = after.status as TicketStatus;
        if (!COPIED.has(status)) return;
        const version = Number(after.version);
        await Promise.all(
          [...new Set((after.tagIds as number[] | undefined) ?? [])].map(async (tagId) => {
            const done = await ignoringCondition(() =>
              db.doc.send(
                new UpdateCommand({
                  TableName: T,
                  Key: tagCopyKey(companyId, ticketId, tagId),
                  UpdateExpression: set ? "SET #cc = :cc, #v = :v" : "SET #v = :v REMOVE #cc",
                  ConditionExpression: "attribute_exists(pk) AND #v <= :v",
                  ExpressionAttributeNames: { "#cc": "contactCard", "#v": "version" },
                  ExpressionAttributeValues: { ...(set ? { ":cc": card } : {}), ":v": version },
                }),
              ),
            );
            if (done) written.copies++;
          }),
        );
      };
      // in bulk: the tickets' status, tags and version (one BatchGetItem per 100), then transactions of up to 100
      // updates, each ticket's conditioned on the version just read (so its copies are the ones that version wrote);
      // a transaction that loses a condition (a ticket written meanwhile, a copy missing) redoes its tickets one by one
      const names = { "#cc": "contactCard", "#v": "version", "#cid": "contactId" };
      const setCard = (v: number) => ({
        UpdateExpression: set ? "SET #cc = :cc, #v = :nv" : "SET #v = :nv REMOVE #cc",
        ExpressionAttributeValues: { ...(set ? { ":cc": card } : {}), ":nv": v + 1 },
      });
      type Found = { id: number; version: number; copies: number[] };
      const run = async (group: Found[]) => {
        const items: TxItem[] = group.flatMap((f): TxItem[] => {
          const ticket = setCard(f.version);
          return [
            {
              Update: {
                TableName: T,
                Key: key(companyId, f.id),
                ...ticket,
                ConditionExpression: "#v = :v AND #cid = :cid",
                ExpressionAttributeNames: names,
                ExpressionAttributeValues: { ...ticket.ExpressionAttributeValues, ":v": f.version, ":cid": contactId },
              },
            },
            ...f.copies.map((tagId): TxItem => {
              const copy = setCard(f.version);
              return { Update: { TableName: T, Key: tagCopyKey(companyId, f.id, tagId), ...copy, ConditionExpression: "attribute_exists(pk)", ExpressionAttributeNames: { "#cc": "contactCard", "#v": "version" } } };
            }),
          ];
        });
        try {
          await transact(db, items);
          written.tickets += group.length;
          written.copies += items.length - group.length;
        } catch (e) {
          if (!(e instanceof TxConditionFailed)) throw e;
          for (let i = 0; i < group.length; i += FOLLOW_CONCURRENCY) await Promise.all(group.slice(i, i + FOLLOW_CONCURRENCY).map((f) => one(f.id)));
        }
      };
      for (let i = 0; i < ids.length; i += FOLLOW_READ) {
        const found = (await batchGetAll(db, ids.slice(i, i + FOLLOW_READ).map((id) => key(companyId, id)), { consistent: true, attributes: ["id", "status", "tagIds", "version", "contactId"] }))
          .filter((it) => Number(it.contactId) === contactId)
          .map((it): Found => ({ id: Number(it.id), version: Number(it.version), copies: COPIED.has(it.status as TicketStatus) ? [...new Set((it.tagIds as number[] | undefined) ?? [])] : [] }));
        const groups: Found[][] = [];
        let ops = 0;
        for (const f of found) {
          if (!groups.length || ops + 1 + f.copies.length > FOLLOW_TX_ITEMS) {
            groups.push([]);
            ops = 0;
          }
          groups.at(-1)!.push(f);
          ops += 1 + f.copies.length;
        }
        await Promise.all(groups.map(run));
      }
      return written;
    },
  };
};
