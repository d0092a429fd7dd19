import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { indexTerms, numberForms, prefixKeysOf, queryKeyOf, shardFor, shardsOf, type QueryTerm } from "@atende/shared/domain/search/text-search";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";
import type { SearchDoc, SearchIndex, SearchPosting } from "./search-index.port";

/**
 * The full-text index kept in the one table (docs/adr/0035-full-text-search.md). Items, all under `CO#<cid>`:
 * - posting  `CO#c#SW#<key>#<shard>` / `<at>#<docId>`: `{ d, tk, ct, at, w }`. A term's entry is written under its
 *   first 3 and 5 letters (numbers: 4/6/8 digits; docs/adr/0041), so a whole word or a prefix is one partition;
 *   `w` holds the document's terms, space-delimited: the filter on it picks the whole word or the prefix inside the
 *   partition, and answers a several-word query (every term) in that same read;
 * - document `CO#c#SDOC#<docId>` / `DOC`: the keys it wrote (an edit or a removal deletes exactly those).
 * Frequent words' partitions are spread over `FREQUENT_SHARDS` shards (text-search.ts), read in parallel.
 */
const postingPk = (companyId: number, key: string, shard: number) => `${companyPk(companyId)}#SW#${key}#${shard}`;
const docKey = (companyId: number, docId: string) => ({ pk: `${companyPk(companyId)}#SDOC#${docId}`, sk: "DOC" });

/** Postings read per partition and shard (newest first): the window a query sees of a very frequent word. */
export const POSTINGS_PER_READ = 400;
const MAX_TERMS_PER_DOC = 100;

export const termsOf = (doc: Pick<SearchDoc, "text" | "numbers">): string[] =>
  [...new Set([...indexTerms(doc.text, MAX_TERMS_PER_DOC), ...doc.numbers.flatMap(numberForms)])].slice(0, MAX_TERMS_PER_DOC);
const keysOf = (terms: string[]) => [...new Set(terms.flatMap(prefixKeysOf))];

type Filter = { expression: string; names: Record<string, string>; values: Record<string, string> };

/**
 * What a query term reads: `queryKeyOf`'s one partition, except a number of three digits (shorter than a number's
 * shortest key, four digits): the ten four-digit partitions it starts and its own (a three-digit word is written under
 * itself), in parallel: one round trip. The ticket list's search finds number prefixes from three digits on
 * (docs/adr/0055), as the contacts' number index did.
 */
const readOf = (q: QueryTerm): { keys: string[]; own: string; exact: boolean } => {
  if (q.prefix && /^\d{3}$/.test(q.word)) return { keys: [q.word, ...Array.from({ length: 10 }, (_, d) => `${q.word}${d}`)], own: q.word, exact: false };
  const { key, own, exact } = queryKeyOf(q);
  return { keys: [key], own, exact };
};

/** Every query term checked against a posting's `w` (" a b c "): the whole term, or (prefix) a term's start. */
const termsFilter = (terms: QueryTerm[]): Filter => {
  const values: Record<string, string> = {};
  const parts = terms.map((q, i) => {
    const { own, exact } = readOf(q);
    values[`:t${i}`] = exact ? ` ${own} ` : ` ${own}`;
    return `contains(#w, :t${i})`;
  });
  return { expression: parts.join(" AND "), names: { "#w": "w" }, values };
};

/** A bounded memory of the documents this instance wrote (an unchanged document writes nothing; a miss costs a read). */
const lru = (max: number) => {
  const m = new Map<string, string>();
  return {
    get: (k: string) => m.get(k),
    set(k: string, v: string) {
      m.delete(k);
      m.set(k, v);
      if (m.size > max) m.delete(m.keys().next().value as string);
    },
    delete: (k: string) => m.delete(k),
  };
};

/** The index's layout version; a platform whose marker is lower indexes its history again (backfill). */
export const SEARCH_INDEX_VERSION = 2;
const versionKey = { pk: "PLATFORM", sk: "SETTING#searchIndexVersion" };

export const createSearchIndexRepository = (
  db: Db,
): SearchIndex & {
  stats: { writes: number };
  /** a document's items as `put` writes them for a new document (the bench seeds with them) */
  itemsOf(doc: SearchDoc): Record<string, unknown>[];
  indexedVersion(): Promise<number>;
  setIndexedVersion(v: number): Promise<void>;
} => {
  const T = db.tableName;
  const knownDocs = lru(20_000);
  const stats = { writes: 0 };

  const batchWrite = async (requests: Record<string, unknown>[]) => {
    const chunks: Record<string, unknown>[][] = [];
    for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
    await Promise.all(
      chunks.map(async (chunk) => {
        let pending = chunk;
        for (let attempt = 0; pending.length; attempt++) {
          stats.writes += pending.length;
          const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [T]: pending } }));
          pending = (out.UnprocessedItems?.[T] ?? []) as Record<string, unknown>[];
          if (pending.length && attempt > 8) throw new Error("search index: unprocessed writes after retries");
          if (pending.length) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
        }
      }),
    );
  };

  type StoredDoc = { keys: string[]; at: string; ticketId: number };
  const readDoc = async (companyId: number, docId: string): Promise<StoredDoc | null> => {
    const out = await db.doc.send(new GetCommand({ TableName: T, Key: docKey(companyId, docId) }));
    return out.Item ? { keys: (out.Item.keys as string[]) ?? [], at: String(out.Item.at), ticketId: Number(out.Item.tk) } : null;
  };
  const postingKey = (companyId: number, key: string, at: string, docId: string) => ({ pk: postingPk(companyId, key, shardFor(key, docId)), sk: `${at}#${docId}` });

  /**
   * The items a document is stored as: a posting under each of its keys and the document item (the keys written).
   * The write path and the search bench's seed both build them here (one layout).
   */
  const itemsOf = (doc: SearchDoc): Record<string, unknown>[] => {
    const terms = termsOf(doc);
    const keys = keysOf(terms);
    if (!keys.length) return [];
    const w = ` ${terms.join(" ")} `;
    return [
      ...keys.map((k) => ({ ...postingKey(doc.companyId, k, doc.at, doc.docId), entity: "searchPosting", d: doc.docId, tk: doc.ticketId, ct: doc.contactId, at: doc.at, w })),
      { ...docKey(doc.companyId, doc.docId), entity: "searchDoc", keys, at: doc.at, tk: doc.ticketId, ct: doc.contactId },
    ];
  };

  const queryPartition = async (companyId: number, key: string, filter: Filter): Promise<SearchPosting[]> => {
    const shards = Array.from({ length: shardsOf(key) }, (_, i) => i);
    const parts = await Promise.all(
      shards.map(async (shard) => {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: "pk = :pk",
            FilterExpression: filter.expression,
            ExpressionAttributeNames: { ...filter.names, "#at": "at" },
            ExpressionAttributeValues: { ":pk": postingPk(companyId, key, shard), ...filter.values },
            ProjectionExpression: "d, tk, ct, #at",
            ScanIndexForward: false,
            Limit: POSTINGS_PER_READ,
          }),
        );
        return (out.Items ?? []).map((i) => ({ docId: String(i.d), ticketId: Number(i.tk), contactId: Number(i.ct), at: String(i.at) }));
      }),
    );
    return parts.flat();
  };

  return {
    stats,
    async indexedVersion() {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: versionKey }));
      return Number(out.Item?.version ?? 0);
    },
    async setIndexedVersion(version) {
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...versionKey, entity: "platformSetting", version } }));
    },
    itemsOf,
    async put(doc, opts) {
      const terms = termsOf(doc);
      const keys = keysOf(terms);
      const cacheKey = `${doc.companyId}:${doc.docId}`;
      const signature = `${doc.at}|${doc.ticketId}|${terms.join(" ")}`;
      if (!opts?.repair && knownDocs.get(cacheKey) === signature) return;
      const before = opts?.isNew ? null : await readDoc(doc.companyId, doc.docId);
      if (!keys.length && !before) return;
      // stored as it is (another instance wrote it, or a repair finds it whole): nothing to write
      if (before && before.at === doc.at && before.ticketId === doc.ticketId && before.keys.length === keys.length && keys.every((k) => before.keys.includes(k))) {
        knownDocs.set(cacheKey, signature);
        return;
      }
      const stale = before ? before.keys.filter((k) => !keys.includes(k) || before.at !== doc.at) : [];
      // the postings and the document item in one BatchWriteItem (one round trip for a message's ~9 items)
      await batchWrite([
        ...stale.map((k) => ({ DeleteRequest: { Key: postingKey(doc.companyId, k, before!.at, doc.docId) } })),
        ...(keys.length ? itemsOf(doc).map((Item) => ({ PutRequest: { Item } })) : [{ DeleteRequest: { Key: docKey(doc.companyId, doc.docId) } }]),
      ]);
      knownDocs.set(cacheKey, signature);
    },
    async remove(companyId, docIds) {
      await Promise.all(
        docIds.map(async (docId) => {
          knownDocs.delete(`${companyId}:${docId}`);
          const before = await readDoc(companyId, docId);
          if (!before) return;
          await batchWrite([...before.keys.map((k) => ({ DeleteRequest: { Key: postingKey(companyId, k, before.at, docId) } })), { DeleteRequest: { Key: docKey(companyId, docId) } }]);
        }),
      );
    },
    /** One round trip: every query term's partition in parallel, each filtered for every term (AND). */
    async query(companyId, terms, limit) {
      if (!terms.length) return [];
      const filter = termsFilter(terms);
      const keys = [...new Set(terms.flatMap((q) => readOf(q).keys))];
      const found = await Promise.all(keys.map((k) => queryPartition(companyId, k, filter)));
      const byDoc = new Map<string, SearchPosting>();
      for (const p of found.flat()) byDoc.set(p.docId, p);
      return [...byDoc.values()].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.docId < b.docId ? 1 : -1)).slice(0, limit);
    },
  };
};
