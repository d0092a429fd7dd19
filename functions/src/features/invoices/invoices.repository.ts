import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { InvoiceStatus } from "@atende/shared/domain/invoices/invoices";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";
import { transact, type TxItem } from "../../platform/db/transact";
import { setExpression } from "../../platform/db/update";

export type Invoice = {
  id: number;
  companyId: number;
  detail: string;
  value: number;
  dueDate: string;
  /** yyyy-MM-dd of the due date this invoice pays: one invoice per company and period */
  period: string;
  status: InvoiceStatus;
  /** the open Pix charge (txid) and its copy-paste code, once the admin pressed PAGAR */
  chargeId: string | null;
  chargeCode: string | null;
  chargeExpiresAt: string | null;
  paidAt: string | null;
  createdAt: string;
  updatedAt: string;
};

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `INVOICE#${pad(id)}` });
/** Uniqueness of the period: written in the same transaction as the invoice, only if absent. */
const periodKey = (companyId: number, period: string) => ({ pk: companyPk(companyId), sk: `INVOICE_PERIOD#${period}` });
const toInvoice = mapItem<Invoice>({
  id: true,
  companyId: true,
  detail: true,
  value: true,
  dueDate: true,
  period: true,
  status: true,
  chargeId: true,
  chargeCode: true,
  chargeExpiresAt: true,
  paidAt: true,
  createdAt: true,
  updatedAt: true,
});

export const createInvoicesRepository = (db: Db) => ({
  async findById(companyId: number, id: number): Promise<Invoice | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId, id) }));
    return out.Item ? toInvoice(out.Item) : null;
  },

  async periodExists(companyId: number, period: string): Promise<boolean> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: periodKey(companyId, period), ProjectionExpression: "pk" }));
    return Boolean(out.Item);
  },

  /**
   * Issues the period's invoice unless it exists (conditional on the period marker): true when this call created it.
   * Two ticks racing both reach here; exactly one transaction wins.
   */
  async createForPeriod(input: { companyId: number; detail: string; value: number; dueDate: string; period: string }, now: Date): Promise<Invoice | null> {
    const id = await nextId(db, input.companyId, "invoice");
    const invoice: Invoice = {
      ...input,
      id,
      status: "open",
      chargeId: null,
      chargeCode: null,
      chargeExpiresAt: null,
      paidAt: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    try {
      await transact(db, [
        { Put: { TableName: db.tableName, Item: { ...periodKey(input.companyId, input.period), entity: "invoicePeriod", invoiceId: id }, ConditionExpression: "attribute_not_exists(pk)" } },
        { Put: { TableName: db.tableName, Item: { ...key(input.companyId, id), entity: "invoice", ...invoice, searchText: input.detail.toLowerCase() }, ConditionExpression: "attribute_not_exists(pk)" } },
      ]);
      return invoice;
    } catch (e) {
      if ((e as Error).name === "TxConditionFailed") return null;
      throw e;
    }
  },

  /** One page of a company's invoices, newest first; `search` matches the detail or the id. */
  async listPage(companyId: number, search: string, limit: number, cursor?: string): Promise<{ items: Invoice[]; next?: string }> {
    const items: Invoice[] = [];
    let start = cursor ? (JSON.parse(Buffer.from(cursor, "base64url").toString()) as Record<string, unknown>) : undefined;
    do {
      // Limit counts evaluated items, so asking for what is missing never overshoots the page and the cursor stays exact.
      const out = await db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
          ...(search
            ? { FilterExpression: "contains(#search, :term) OR #id = :id", ExpressionAttributeNames: { "#search": "searchText", "#id": "id" } }
            : {}),
          ExpressionAttributeValues: {
            ":pk": companyPk(companyId),
            ":prefix": "INVOICE#",
            ...(search ? { ":term": search.toLowerCase(), ":id": /^\d+$/.test(search) ? Number(search) : -1 } : {}),
          },
          ScanIndexForward: false,
          Limit: limit - items.length,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      items.push(...(out.Items ?? []).map(toInvoice));
      start = out.LastEvaluatedKey;
    } while (start && items.length < limit);
    return { items, next: start ? Buffer.from(JSON.stringify(start)).toString("base64url") : undefined };
  },

  async attachCharge(companyId: number, id: number, charge: { chargeId: string; chargeCode: string; chargeExpiresAt: string }, now: Date): Promise<void> {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(companyId, id),
        ConditionExpression: "attribute_exists(pk)",
        ...setExpression({ ...charge, updatedAt: now.toISOString() }),
      }),
    );
  },

  /** Transaction item: the invoice becomes paid by this charge, only if it is not paid yet. */
  markPaidTx(companyId: number, id: number, chargeId: string, now: Date): TxItem {
    const set = setExpression({ status: "paid", paidAt: now.toISOString(), paidChargeId: chargeId, updatedAt: now.toISOString() });
    return {
      Update: {
        TableName: db.tableName,
        Key: key(companyId, id),
        ConditionExpression: "attribute_exists(pk) AND #st <> :paid",
        UpdateExpression: set.UpdateExpression,
        ExpressionAttributeNames: { ...set.ExpressionAttributeNames, "#st": "status" },
        ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ":paid": "paid" },
      },
    };
  },
});
export type InvoicesRepository = ReturnType<typeof createInvoicesRepository>;
