import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { indexTerms, numberForms, shardFor, shardsOf, type QueryTerm } from "@atende/shared/domain/search/text-search";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";
import type { SearchDoc, SearchIndex, SearchPosting } from "./search-index.port";

/**
 * The full-text index kept in the one table (docs/adr/0035-full-text-search.md). Items, all under `CO#<cid>`:
 * - posting  `CO#c#SW#<term>#<shard>` / `<at>#<docId>`: `{ d, tk, ct, at, w }` (`w` = the document's terms,
 *   space-delimited, so one term's partition answers a several-word query with a filter);
 * - document `CO#c#SDOC#<docId>` / `DOC`: the terms it wrote (an edit or removal deletes exactly those);
 * - dictionary `CO#c#SDICT#<first 2 letters>` / `<term>`: the terms in use, for prefixes ("bol" → bolet, bols).
 * Frequent words' postings are spread over `FREQUENT_SHARDS` partitions (text-search.ts) read in parallel.
 */
const postingPk = (companyId: number, term: string, shard: number) => `${companyPk(companyId)}#SW#${term}#${shard}`;
const docKey = (companyId: number, docId: string) => ({ pk: `${companyPk(companyId)}#SDOC#${docId}`, sk: "DOC" });
const dictPk = (companyId: number, term: string) => `${companyPk(companyId)}#SDICT#${term.slice(0, 2)}`;

/** Postings read per term partition and shard (newest first): the window a query sees of a very frequent word. */
export const POSTINGS_PER_READ = 400;
/** Indexed terms a prefix expands to, at most. */
export const PREFIX_EXPANSION = 12;
const MAX_TERMS_PER_DOC = 100;


export const termsOf = (doc: Pick<SearchDoc, "text" | "numbers">): string[] =>
  [...new Set([...indexTerms(doc.text, MAX_TERMS_PER_DOC), ...doc.numbers.flatMap(numberForms)])].slice(0, MAX_TERMS_PER_DOC);

type Filter = { expression: string; names: Record<string, string>; values: Record<string, string> };

/** The other query terms, checked against a posting's `w` (" a b c "): whole term, or (prefix) a term's start. */
const othersFilter = (terms: QueryTerm[], except: number): Filter | null => {
  const parts: string[] = [];
  const values: Record<string, string> = {};
  terms.forEach((q, i) => {
    if (i === except) return;
    if (q.prefix) {
      const base = commonPrefix(q.word, q.term);
      values[`:p${i}`] = ` ${base}`;
      parts.push(`contains(#w, :p${i})`);
    } else {
      values[`:t${i}`] = ` ${q.term} `;
      parts.push(`contains(#w, :t${i})`);
    }
  });
  return parts.length ? { expression: parts.join(" AND "), names: { "#w": "w" }, values } : null;
};

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, Math.max(i, 1));
};

/** A bounded memory of what this instance already wrote (dictionary terms, documents' terms): a miss only costs a write or a read. */
const lru = <V>(max: number) => {
  const m = new Map<string, V>();
  return {
    get: (k: string) => m.get(k),
    set(k: string, v: V) {
      m.delete(k);
      m.set(k, v);
      if (m.size > max) m.delete(m.keys().next().value as string);
    },
    delete: (k: string) => m.delete(k),
  };
};

export const createSearchIndexRepository = (db: Db): SearchIndex & { stats: { writes: number } } => {
  const T = db.tableName;
  const knownTerms = lru<true>(50_000);
  const knownDocs = lru<string>(20_000);
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

  type StoredDoc = { terms: string[]; at: string };
  const readDoc = async (companyId: number, docId: string): Promise<StoredDoc | null> => {
    const out = await db.doc.send(new GetCommand({ TableName: T, Key: docKey(companyId, docId) }));
    return out.Item ? { terms: (out.Item.terms as string[]) ?? [], at: String(out.Item.at) } : null;
  };
  const postingKey = (companyId: number, term: string, at: string, docId: string) => ({
    pk: postingPk(companyId, term, shardFor(term, docId)),
    sk: `${at}#${docId}`,
  });

  const queryPartition = async (companyId: number, term: string, filter: Filter | null): Promise<SearchPosting[]> => {
    const shards = Array.from({ length: shardsOf(term) }, (_, i) => i);
    const parts = await Promise.all(
      shards.map(async (shard) => {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": postingPk(companyId, term, shard), ...filter?.values },
            ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
            ProjectionExpression: filter ? undefined : "d, tk, ct, #at",
            ...(filter ? {} : { ExpressionAttributeNames: { "#at": "at" } }),
            ScanIndexForward: false,
            Limit: POSTINGS_PER_READ,
          }),
        );
        return (out.Items ?? []).map((i) => ({ docId: String(i.d), ticketId: Number(i.tk), contactId: Number(i.ct), at: String(i.at) }));
      }),
    );
    return parts.flat();
  };

  /** Indexed terms starting with `prefix` (the dictionary), shortest first. */
  const expand = async (companyId: number, prefix: string): Promise<string[]> => {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: T,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
        ExpressionAttributeValues: { ":pk": dictPk(companyId, prefix), ":p": prefix },
        ProjectionExpression: "sk",
        Limit: 200,
      }),
    );
    return (out.Items ?? [])
      .map((i) => String(i.sk))
      .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
      .slice(0, PREFIX_EXPANSION);
  };

  return {
    stats,
    async put(doc, opts) {
      const terms = termsOf(doc);
      const cacheKey = `${doc.companyId}:${doc.docId}`;
      const signature = `${doc.at}|${doc.ticketId}|${terms.join(" ")}`;
      if (knownDocs.get(cacheKey) === signature) return;
      const before = opts?.isNew ? null : await readDoc(doc.companyId, doc.docId);
      const requests: Record<string, unknown>[] = [];
      const w = ` ${terms.join(" ")} `;
      const stale = before ? before.terms.filter((t) => !terms.includes(t) || before.at !== doc.at) : [];
      for (const t of stale) requests.push({ DeleteRequest: { Key: postingKey(doc.companyId, t, before!.at, doc.docId) } });
      for (const t of terms) {
        requests.push({
          PutRequest: {
            Item: { ...postingKey(doc.companyId, t, doc.at, doc.docId), entity: "searchPosting", d: doc.docId, tk: doc.ticketId, ct: doc.contactId, at: doc.at, w },
          },
        });
        const known = `${doc.companyId}:${t}`;
        if (!knownTerms.get(known)) {
          requests.push({ PutRequest: { Item: { pk: dictPk(doc.companyId, t), sk: t, entity: "searchTerm" } } });
          knownTerms.set(known, true);
        }
      }
      if (!terms.length && !before) return;
      await batchWrite(requests);
      await db.doc.send(
        new PutCommand({ TableName: T, Item: { ...docKey(doc.companyId, doc.docId), entity: "searchDoc", terms, at: doc.at, tk: doc.ticketId, ct: doc.contactId } }),
      );
      stats.writes++;
      knownDocs.set(cacheKey, signature);
    },
    async remove(companyId, docIds, opts) {
      const removed = new Set<string>();
      await Promise.all(
        docIds.map(async (docId) => {
          knownDocs.delete(`${companyId}:${docId}`);
          const before = await readDoc(companyId, docId);
          if (!before) return;
          before.terms.forEach((t) => removed.add(t));
          await batchWrite([
            ...before.terms.map((t) => ({ DeleteRequest: { Key: postingKey(companyId, t, before.at, docId) } })),
            { DeleteRequest: { Key: docKey(companyId, docId) } },
          ]);
        }),
      );
      if (!opts?.purgeTerms || !removed.size) return;
      // erasure: a term no document uses any more leaves the dictionary too (a number, a rare surname)
      const unused = await Promise.all(
        [...removed].map(async (term) => {
          const shards = Array.from({ length: shardsOf(term) }, (_, i) => i);
          const counts = await Promise.all(
            shards.map(async (shard) => {
              const out = await db.doc.send(
                new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": postingPk(companyId, term, shard) }, Limit: 1, ProjectionExpression: "pk" }),
              );
              return out.Items?.length ?? 0;
            }),
          );
          return counts.some((c) => c > 0) ? null : term;
        }),
      );
      const gone = unused.filter((t): t is string => t !== null);
      gone.forEach((t) => knownTerms.delete(`${companyId}:${t}`));
      if (gone.length) await batchWrite(gone.map((t) => ({ DeleteRequest: { Key: { pk: dictPk(companyId, t), sk: t } } })));
    },
    async query(companyId, terms, limit) {
      if (!terms.length) return [];
      // round trip 1: every term's own partition (other terms as a filter) and the dictionary for prefixes
      const [exact, expansions] = await Promise.all([
        Promise.all(terms.map((q, i) => queryPartition(companyId, q.term, othersFilter(terms, i)))),
        Promise.all(terms.map((q) => (q.prefix ? expand(companyId, commonPrefix(q.word, q.term)) : Promise.resolve([])))),
      ]);
      // round trip 2: the terms a prefix stands for
      const extra = await Promise.all(
        terms.flatMap((q, i) => expansions[i]!.filter((t) => t !== q.term).map((t) => queryPartition(companyId, t, othersFilter(terms, i)))),
      );
      const byDoc = new Map<string, SearchPosting>();
      for (const p of [...exact.flat(), ...extra.flat()]) byDoc.set(p.docId, p);
      return [...byDoc.values()].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.docId < b.docId ? 1 : -1)).slice(0, limit);
    },
  };
};
