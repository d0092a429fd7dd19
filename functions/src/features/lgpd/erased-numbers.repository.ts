import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetAll } from "../../platform/db/batch-get";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";

/**
 * Numbers of erased people, remembered only by their keyed hash (number-hash.ts):
 * `CO#<c>#ERASED` / `H#<hash>` -> { erasedAt, optedOut }. An import looks each row's number up here.
 */
const pk = (companyId: number) => `${companyPk(companyId)}#ERASED`;
const key = (companyId: number, hash: string) => ({ pk: pk(companyId), sk: `H#${hash}` });

export type ErasedNumber = { hash: string; erasedAt: string; /** the person had opted out: campaigns and the API keep skipping the number */ optedOut: boolean };

export const createErasedNumbersRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async put(companyId: number, e: ErasedNumber): Promise<void> {
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...key(companyId, e.hash), entity: "erasedNumber", companyId, ...e } }));
    },
    async find(companyId: number, hash: string): Promise<ErasedNumber | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, hash) }));
      return out.Item ? { hash, erasedAt: String(out.Item.erasedAt), optedOut: Boolean(out.Item.optedOut) } : null;
    },
    /** Which of these hashes belong to erased people (BatchGet, 100 at a time). */
    async findMany(companyId: number, hashes: string[]): Promise<Map<string, ErasedNumber>> {
      const unique = [...new Set(hashes)];
      const found = new Map<string, ErasedNumber>();
      for (const item of await batchGetAll(db, unique.map((h) => key(companyId, h)))) {
        const hash = String(item.hash);
        found.set(hash, { hash, erasedAt: String(item.erasedAt), optedOut: Boolean(item.optedOut) });
      }
      return found;
    },
  };
};
export type ErasedNumbersRepository = ReturnType<typeof createErasedNumbersRepository>;
