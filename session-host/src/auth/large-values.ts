import { gunzipSync, gzipSync } from "node:zlib";

/**
 * DynamoDB refuses items over 400 KB. Baileys' `app-state-sync-version` values (the LT-hash state of an
 * app-state collection, with one entry per mutation the phone ever synced) grow past that on busy accounts.
 * A value too large for one item is gzipped; still too large, the gzipped text is split over several items:
 * the first under the value's own key (`z`, `parts`), the rest under `<key>#part#<n>`. Small values stay plain
 * JSON text (`v`), as before.
 */
export const ITEM_VALUE_LIMIT = 350_000;
export const partSk = (sk: string, n: number) => `${sk}#part#${n}`;

export type PackedItem = { sk: string; v?: string; z?: string; parts?: number };

export const packValue = (sk: string, text: string, limit = ITEM_VALUE_LIMIT): PackedItem[] => {
  if (Buffer.byteLength(text) <= limit) return [{ sk, v: text }];
  const z = gzipSync(Buffer.from(text)).toString("base64");
  if (z.length <= limit) return [{ sk, z, parts: 1 }];
  const chunks: string[] = [];
  for (let i = 0; i < z.length; i += limit) chunks.push(z.slice(i, i + limit));
  return chunks.map((chunk, n) => (n === 0 ? { sk, z: chunk, parts: chunks.length } : { sk: partSk(sk, n), z: chunk }));
};

/** the part keys a first item names (beyond itself) */
export const partKeysOf = (item: PackedItem): string[] => Array.from({ length: Math.max(0, (item.parts ?? 1) - 1) }, (_, i) => partSk(item.sk, i + 1));

/** the JSON text of a value from its first item and its other parts (in order) */
export const unpackValue = (item: PackedItem, rest: (string | undefined)[] = []): string => {
  if (item.v !== undefined) return item.v;
  if (rest.some((p) => p === undefined)) throw new Error(`auth value ${item.sk}: a part is missing`);
  return gunzipSync(Buffer.from([item.z ?? "", ...rest].join(""), "base64")).toString();
};
