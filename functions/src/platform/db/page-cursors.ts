import { createHash } from "node:crypto";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "./client";
import { companyPk } from "./keys";

/**
 * The spec pages lists by `pageNumber`; indexes page by cursor. After serving page n we remember the cursor of
 * page n+1 for this viewer and query (1 h TTL). A page whose cursor is unknown (expired, another instance) is
 * reached by walking the pages before it, each one bounded query.
 */
const TTL_SECONDS = 3600;
const key = (companyId: number, viewerId: number, queryHash: string, page: number) => ({
  pk: `${companyPk(companyId)}#PAGES#${viewerId}`,
  sk: `${queryHash}#${page}`,
});

export const hashQuery = (parts: unknown): string => createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 22);

export const createPageCursors = (db: Db) => ({
  async get(companyId: number, viewerId: number, queryHash: string, page: number): Promise<string | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId, viewerId, queryHash, page) }));
    return typeof out.Item?.cursor === "string" ? out.Item.cursor : null;
  },
  async put(companyId: number, viewerId: number, queryHash: string, page: number, cursor: string, now: Date): Promise<void> {
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...key(companyId, viewerId, queryHash, page), entity: "pageCursor", cursor, ttl: Math.floor(now.getTime() / 1000) + TTL_SECONDS },
      }),
    );
  },
});
export type PageCursors = ReturnType<typeof createPageCursors>;

/**
 * Serves page `page` of a cursor-paged source: `fetch(cursor)` returns one page and the next cursor.
 * Uses the remembered cursor when there is one, else walks from the nearest known page (remembering the cursor of
 * every page it walks past, so asking for the same deep page again reads one page).
 */
export const pageByNumber = async <T>(opts: {
  cursors: PageCursors;
  companyId: number;
  viewerId: number;
  queryHash: string;
  page: number;
  now: Date;
  fetch: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>;
}): Promise<{ items: T[]; hasMore: boolean }> => pageByNumberWith({ ...opts, present: async (items) => items });

/**
 * pageByNumber whose page is turned into what the caller answers (`present`, e.g. the ticket cards with their
 * lookups) while the next page's cursor is being remembered: the two run side by side, one round trip.
 */
export const pageByNumberWith = async <T, V>(opts: {
  cursors: PageCursors;
  companyId: number;
  viewerId: number;
  queryHash: string;
  page: number;
  now: Date;
  fetch: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>;
  present: (items: T[]) => Promise<V[]>;
}): Promise<{ items: V[]; hasMore: boolean }> => {
  const { cursors, companyId, viewerId, queryHash, page, now, fetch, present } = opts;
  let cursor: string | undefined;
  let at = 1;
  if (page > 1) {
    const known = await cursors.get(companyId, viewerId, queryHash, page);
    if (known) {
      cursor = known;
      at = page;
    }
  }
  const remembered: Promise<void>[] = [];
  const remember = (n: number, c: string) => {
    const saving = cursors.put(companyId, viewerId, queryHash, n, c, now);
    saving.catch(() => undefined); // awaited below; this only keeps a failure from counting as unhandled meanwhile
    remembered.push(saving);
  };
  try {
    for (;;) {
      const result = await fetch(cursor);
      if (at === page) {
        if (result.next) remember(page + 1, result.next);
        return { items: await present(result.items), hasMore: Boolean(result.next) };
      }
      if (!result.next) return { items: [], hasMore: false };
      cursor = result.next;
      at++;
      remember(at, cursor);
    }
  } finally {
    await Promise.all(remembered);
  }
};
