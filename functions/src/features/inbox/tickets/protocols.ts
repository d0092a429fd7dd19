import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../../platform/db/client";
import { companyPk } from "../../../platform/db/keys";
import { localClock } from "../automation/templates";

/** Digits of the daily sequence (more are used past 999,999 cycles in one day; the number stays unique). */
export const PROTOCOL_SEQUENCE_DIGITS = 6;

/** `YYYYMMDD` (the company's local date) followed by the day's sequence, zero-padded. */
export const formatProtocol = (localDate: string, seq: number) => `${localDate}${String(seq).padStart(PROTOCOL_SEQUENCE_DIGITS, "0")}`;

/**
 * Protocol numbers of attention cycles (issue 13 item 5, docs/adr/0033-sla-clocks-and-protocols.md): one atomic
 * DynamoDB counter per company and local day (`CO#<cid>` / `COUNTER#protocol#<YYYYMMDD>`, ADD 1), so concurrent
 * cycles always get distinct, increasing numbers; the number is stored on the cycle and never recomputed.
 */
export const createProtocols = (deps: { db: Db; timeZoneOf: (companyId: number) => Promise<string | undefined> }) => ({
  async next(companyId: number, now: Date): Promise<string> {
    const day = localClock(now, await deps.timeZoneOf(companyId)).date;
    const out = await deps.db.doc.send(
      new UpdateCommand({
        TableName: deps.db.tableName,
        Key: { pk: companyPk(companyId), sk: `COUNTER#protocol#${day}` },
        UpdateExpression: "ADD #v :one",
        ExpressionAttributeNames: { "#v": "value" },
        ExpressionAttributeValues: { ":one": 1 },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    return formatProtocol(day, Number(out.Attributes?.value));
  },
});
export type Protocols = ReturnType<typeof createProtocols>;
