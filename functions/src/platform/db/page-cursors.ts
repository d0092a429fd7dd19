import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
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
 * Page tokens (docs/adr/0040): the next page's cursor handed to the client, so a later page needs no cursor read.
 * A token is `<cursor, base64url>.<HMAC>` over the company, the viewer, the query's hash and the page number it
 * opens: a token of another company, user, query or page does not open (the request falls back to the remembered
 * cursor, or walks), and nobody can make one without the key. `secret`: the API's token secret (every instance
 * derives the same key, its own label); absent, a random key (tokens open only on the instance that made them).
 */
export const createPageTokens = (secret?: string) => {
  const key = secret ? Buffer.from(hkdfSync("sha256", secret, "", "atende page tokens", 32)) : randomBytes(32);
  type Where = { companyId: number; viewerId: number; queryHash: string; page: number };
  const mac = (w: Where, cursor: string) =>
    createHmac("sha256", key).update(`${w.companyId}|${w.viewerId}|${w.queryHash}|${w.page}|${cursor}`).digest().subarray(0, 16);
  return {
    make(w: Where, cursor: string): string {
      return `${Buffer.from(cursor).toString("base64url")}.${mac(w, cursor).toString("base64url")}`;
    },
    /** The cursor a token carries, or null when it was not made for this company, viewer, query and page. */
    open(w: Where, token: string | undefined): string | null {
      if (!token || token.length > 512) return null;
      const [body, sig] = token.split(".");
      if (!body || !sig) return null;
      const cursor = Buffer.from(body, "base64url").toString();
      const given = Buffer.from(sig, "base64url");
      const want = mac(w, cursor);
      return given.length === want.length && timingSafeEqual(given, want) ? cursor : null;
    },
  };
};
export type PageTokens = ReturnType<typeof createPageTokens>;

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
 *
 * `firstPages` (docs/adr/0046): a source whose `fetch(undefined, pages)` returns its first `pages` pages in one read
 * (exactly the items walking would give: no item filter cutting a page short) serves pages 1..firstPages without a
 * cursor — page n is the tail of one read of n pages — so those pages neither read nor write a remembered cursor;
 * only page `firstPages` remembers the next one (for a pageNumber-only client going further). Page 1, the request
 * every tab and refresh makes, then writes nothing.
 */
export const pageByNumberWith = async <T, V>(opts: {
  cursors: PageCursors;
  companyId: number;
  viewerId: number;
  queryHash: string;
  page: number;
  now: Date;
  /** `pages` (only with `firstPages`, only from the start): that many pages at once, their items in order */
  fetch: (cursor: string | undefined, pages?: number) => Promise<{ items: T[]; next?: string }>;
  present: (items: T[]) => Promise<V[]>;
  /** page tokens: `token` (the client's, for this page) opens without reading the remembered cursor; the answer carries the next page's */
  tokens?: PageTokens;
  token?: string;
} & (
  | { firstPages?: undefined; pageSize?: undefined }
  | {
      /** how many first pages one read from the start may serve (1: none, every page by cursor) */
      firstPages: number;
      /** items per page: page n of a read of n pages starts at (n - 1) × pageSize */
      pageSize: number;
    }
)): Promise<{ items: V[]; hasMore: boolean; nextPageToken?: string }> => {
  const { cursors, companyId, viewerId, queryHash, page, now, fetch, present, tokens } = opts;
  const firstPages = Math.max(1, opts.firstPages ?? 1);
  const where = (n: number) => ({ companyId, viewerId, queryHash, page: n });
  let cursor: string | undefined;
  let at = 1;
  const given = page > 1 && tokens ? tokens.open(where(page), opts.token) : null;
  if (given !== null) {
    cursor = given;
    at = page;
  } else if (page > firstPages) {
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
      // from the start, the first pages in one read (up to the page asked, or firstPages on the way to a deeper one)
      const pages = cursor === undefined && firstPages > 1 ? Math.min(page, firstPages) : 1;
      const read = await fetch(cursor, ...(pages > 1 ? [pages] : []));
      const skip = (pages - 1) * (opts.pageSize ?? 0); // pages > 1 only with firstPages, which comes with pageSize
      const result = pages > 1 ? { items: read.items.slice(skip), next: read.next } : read;
      at += pages - 1;
      if (at === page) {
        // a client paging with tokens needs no remembered cursor (page 1 cannot tell, so it remembers), nor does a
        // page before firstPages (the next one is served from the start as well)
        if (result.next && given === null && page >= firstPages) remember(page + 1, result.next);
        const nextPageToken = result.next && tokens ? tokens.make(where(page + 1), result.next) : undefined;
        return { items: await present(result.items), hasMore: Boolean(result.next), ...(nextPageToken ? { nextPageToken } : {}) };
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
