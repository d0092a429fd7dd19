import type { Db } from "../../platform/db/client";
import type { Logger } from "../../platform/logger";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { InboxService } from "../inbox/inbox.service";
import type { SearchIndex } from "./search-index.port";
import { createSearchIndexRepository, SEARCH_INDEX_VERSION } from "./search-index.repository";
import { createSearchIndexer } from "./search-indexer";
import { searchRoutes } from "./search.routes";
import { createHistorySearch, createSearchService, type SearchService } from "./search.service";

export const SEARCH_BACKFILL_JOB = "search.backfill";

/**
 * Full-text search, in two steps because it sits at both ends of the inbox (docs/adr/0035-full-text-search.md):
 * `createSearchIndexing` is built before the inbox (its listeners keep the index on the message write path; the
 * LGPD erasure forgets through it); `createSearchModule` after it (its routes read the inbox's `search` reads).
 */
export const createSearchIndexing = (deps: { db: Db; logger: Logger }) => {
  const repository = createSearchIndexRepository(deps.db);
  const index: SearchIndex = repository;
  return {
    index,
    indexer: createSearchIndexer({ index, logger: deps.logger }),
    historySearch: createHistorySearch({ index, logger: deps.logger }),
    version: { get: () => repository.indexedVersion(), set: () => repository.setIndexedVersion(SEARCH_INDEX_VERSION), current: SEARCH_INDEX_VERSION },
  };
};

export const createSearchModule = (deps: {
  indexing: ReturnType<typeof createSearchIndexing>;
  inbox: Pick<InboxService, "search">;
  /** every company's id (the platform backfill) */
  companyIds: () => Promise<number[]>;
  guards: Guards;
  logger: Logger;
}): FeatureModule<SearchService> & {
  backfill: (companyId: number) => Promise<{ contacts: number; messages: number }>;
  backfillPlatformOnce: (opts: { fresh: boolean }) => Promise<boolean>;
} => {
  const { indexing, inbox, logger } = deps;
  const service = createSearchService({ index: indexing.index, inbox, logger });
  /** Indexes a company's whole history (idempotent: unchanged documents write nothing). */
  const backfill = async (companyId: number) => {
    let contacts = 0;
    let messages = 0;
    for await (const part of inbox.search.history(companyId)) {
      await indexing.indexer.backfill(part.contact, part.tickets.map((t) => ({ ...t, companyId })), part.messages.map((m) => ({ ...m, companyId })));
      contacts++;
      messages += part.messages.length;
    }
    logger.info("search: backfill done", { companyId, contacts, messages });
    return { contacts, messages };
  };
  /**
   * Indexes every company's history once per index version (the local platform at start; on AWS, run after a deploy
   * that raised the version). A fresh platform (just seeded: its data went through the write path) only sets the mark.
   */
  const backfillPlatformOnce = async ({ fresh }: { fresh: boolean }) => {
    if ((await indexing.version.get()) >= indexing.version.current) return false;
    if (!fresh) for (const companyId of await deps.companyIds()) await backfill(companyId);
    await indexing.version.set();
    return !fresh;
  };
  return {
    service,
    backfill,
    backfillPlatformOnce,
    routes: [{ path: "/search", app: searchRoutes(service, deps.guards) }],
    jobs: { named: { [SEARCH_BACKFILL_JOB]: async (companyId) => void (await backfill(companyId)) } },
  };
};
