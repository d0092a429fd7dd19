import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "@atende/shared/domain/messages/message";
import { corpus } from "@atende/shared/domain/search/pt-corpus.fixtures";
import { createContactsRepository } from "@atende/functions/features/inbox/contacts/contacts.repository";
import { createMessagesRepository } from "@atende/functions/features/inbox/messages/messages.repository";
import { NEW_BOT, createTicketsRepository, newTicketFields, type TicketRecord } from "@atende/functions/features/inbox/tickets/tickets.repository";
import { createSearchIndexRepository, SEARCH_INDEX_VERSION } from "@atende/functions/features/search/search-index.repository";
import type { SearchDoc } from "@atende/functions/features/search/search-index.port";
import { createTenant } from "@atende/functions/testing/factories";
import type { TestApp } from "@atende/functions/testing/test-app";
import type { TxItem } from "@atende/functions/platform/db/transact";
import { startPlatform } from "../infra/local/src/platform";
import { percentile } from "./stats";

/**
 * Full-text search benchmark (issue 15 items 1-2, docs/adr/0035, docs/adr/0041): a company with BENCH_SEARCH_MESSAGES
 * messages (default 1,000,000) of realistic Portuguese conversations (pt-corpus.fixtures.ts), 8 per ticket, stored as
 * the write path stores them (the tickets', messages' and search index's own item builders), then GET /search p50/p99
 * sequentially and at 8 concurrent, the DynamoDB round trips in sequence per request (auth included) and the time
 * spent in each round, counted on the client.
 *
 * Seeding: whole 25-item BatchWriteItem calls, BENCH_SEARCH_SEED_PARALLEL (default 4) in flight, for at most
 * BENCH_SEARCH_SEED_BUDGET_S seconds (default 1,800). With BENCH_SEARCH_DATA_DIR the local platform (DynamoDB Local
 * included) keeps its data in that folder: a later run finds the company seeded so far and goes on seeding where the
 * previous one stopped, so 1,000,000 messages can be reached in several runs (the figures say how many are stored).
 */
const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const PER_TICKET = 8;
const CONTACTS = Number(process.env.BENCH_SEARCH_CONTACTS ?? 2_000);
const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS ?? 200);
const SEED_BUDGET_S = Number(process.env.BENCH_SEARCH_SEED_BUDGET_S ?? 1_800);
const SEED_PARALLEL = Number(process.env.BENCH_SEARCH_SEED_PARALLEL ?? 4);
const DATA_DIR = process.env.BENCH_SEARCH_DATA_DIR || undefined;
const CONCURRENCY = 8;
/** Tickets whose items are built and written per round; the progress is saved after each round. */
const TICKETS_PER_ROUND = 250;

/** A stable uuid for a seeded ticket (a round written again after a crash writes the same items). */
const uuidOf = (i: number) => {
  const h = createHash("sha1").update(`search-bench-${i}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** What a later run needs to go on with the seeded company (BENCH_SEARCH_DATA_DIR/search-bench.json). */
type SeedState = {
  layoutVersion: number;
  companyId: number;
  adminEmail: string;
  userEmail: string;
  password: string;
  adminId: number;
  userId: number;
  whatsappId: number;
  queueIds: number[];
  contacts: { id: number; name: string; number: string }[];
  t0: number;
  tickets: number;
  messages: number;
  items: number;
  seedSeconds: number;
};

export default async function searchBench() {
  const platform = await startPlatform({ logLevel: "error", tick: false, env: { BCRYPT_ROUNDS: "4" }, ...(DATA_DIR ? { dataDir: DATA_DIR } : {}) });
  try {
    const container = platform.container;
    const { db } = container;
    const clock = { now: new Date(), advance() {}, set() {} };
    const call = async (method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) => {
      const res = await fetch(`${platform.url}/api${path}`, { method, headers: { "content-type": "application/json", ...opts.headers }, body: JSON.stringify(opts.body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
    };
    const login = async (email: string, password: string) => {
      const res = await call("POST", "/auth/login", { body: { email, password } });
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
      return res.body.token as string;
    };
    const contactsRepo = createContactsRepository(db);
    const ticketsRepo = createTicketsRepository(db);
    const messagesRepo = createMessagesRepository(db);
    const index = createSearchIndexRepository(db);

    const stateFile = DATA_DIR ? join(DATA_DIR, "search-bench.json") : null;
    let state: SeedState;
    let adminToken: string;
    let userToken: string;
    if (stateFile && existsSync(stateFile)) {
      state = JSON.parse(readFileSync(stateFile, "utf8")) as SeedState;
      if (state.layoutVersion !== SEARCH_INDEX_VERSION) {
        throw new Error(`${DATA_DIR} holds index layout ${state.layoutVersion}, this code writes ${SEARCH_INDEX_VERSION}: remove the folder to seed again`);
      }
      adminToken = await login(state.adminEmail, state.password);
      userToken = await login(state.userEmail, state.password);
    } else {
      const tenant = await createTenant({ container, clock, call } as unknown as TestApp, { queues: [{ name: "Vendas", color: "#111111" }, { name: "Suporte", color: "#222222" }] });
      adminToken = tenant.adminToken;
      userToken = tenant.userToken;
      const contacts: SeedState["contacts"] = [];
      for (let i = 0; i < CONTACTS; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(50, CONTACTS - i) }, (_, j) => {
            const n = i + j;
            const number = `55219${String(10000000 + n)}`;
            const at = new Date().toISOString();
            return contactsRepo.createWithIdentities(
              { companyId: tenant.company.id, name: `Contato ${String(n).padStart(5, "0")}`, number, email: "", profilePicUrl: "", isGroup: false, lid: null, whatsappId: tenant.whatsapp.id, extraInfo: [], createdAt: at, updatedAt: at },
              [{ kind: "N", value: number }],
            );
          }),
        );
        contacts.push(...batch.map((b) => ({ id: b.contact.id, name: b.contact.name, number: b.contact.number })));
      }
      state = {
        layoutVersion: SEARCH_INDEX_VERSION,
        companyId: tenant.company.id,
        adminEmail: tenant.admin.email,
        userEmail: tenant.user.email,
        password: tenant.password,
        adminId: tenant.admin.id,
        userId: tenant.user.id,
        whatsappId: tenant.whatsapp.id,
        queueIds: tenant.queues.map((q) => q.id),
        contacts,
        t0: Date.now() - MESSAGES * 60_000,
        tickets: 0,
        messages: 0,
        items: 0,
        seedSeconds: 0,
      };
      if (stateFile) writeFileSync(stateFile, JSON.stringify(state));
    }
    const cid = state.companyId;
    const putItem = (tx: TxItem) => tx.Put!.Item as Record<string, unknown>;

    /** One conversation as the write path stores it: the ticket's items, its messages, their index items. */
    const counts = { messageIndexItems: 0, ticketIndexItems: 0, inboxItems: 0 };
    const itemsOfTicket = (i: number): Record<string, unknown>[] => {
      const contact = state.contacts[i % state.contacts.length]!;
      const at = new Date(state.t0 + i * PER_TICKET * 60_000).toISOString();
      const t: TicketRecord = {
        id: 1_000_000 + i,
        uuid: uuidOf(i),
        companyId: cid,
        status: "closed",
        userId: i % 2 ? state.userId : state.adminId,
        queueId: state.queueIds[i % state.queueIds.length]!,
        whatsappId: state.whatsappId,
        contactId: contact.id,
        chatJid: "x@s.whatsapp.net",
        isGroup: false,
        ...newTicketFields(at),
        bot: { ...NEW_BOT, stage: "done" },
        cycle: { queuedAt: at, acceptedAt: at, finishedAt: at, ratedAt: null, rating: null },
        version: 1,
      };
      const bodies = corpus(PER_TICKET, 1000 + i, false);
      const messages: Message[] = bodies.map((b, k) => ({
        id: `S${i}X${k}`,
        companyId: cid,
        ticketId: t.id,
        contactId: contact.id,
        body: b.body,
        fromMe: k % 2 === 1,
        mediaType: "chat",
        mediaUrl: null,
        mediaKey: null,
        mediaMimetype: null,
        mediaName: null,
        quotedMsgId: null,
        isDeleted: false,
        isEdited: false,
        isForwarded: false,
        ack: 3,
        error: null,
        reactions: [],
        participant: null,
        queueId: t.queueId,
        userId: null,
        createdAt: new Date(state.t0 + (i * PER_TICKET + k) * 60_000).toISOString(),
        updatedAt: at,
      }));
      const ticketDoc: SearchDoc = { docId: `t:${t.id}`, companyId: cid, ticketId: t.id, contactId: contact.id, at, text: contact.name, numbers: [contact.number] };
      const inbox = [...ticketsRepo.createItems(t).map(putItem), ...messages.map((m) => putItem(messagesRepo.createItem(m)))];
      const ticketIndex = index.itemsOf(ticketDoc);
      const messageIndex = messages.flatMap((m) =>
        index.itemsOf({ docId: `m:${m.id}`, companyId: cid, ticketId: t.id, contactId: contact.id, at: m.createdAt, text: m.body, numbers: [] }),
      );
      counts.inboxItems += inbox.length;
      counts.ticketIndexItems += ticketIndex.length;
      counts.messageIndexItems += messageIndex.length;
      return [...inbox, ...ticketIndex, ...messageIndex];
    };
    const writeBatch = async (items: Record<string, unknown>[]) => {
      let pending = items.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length; attempt++) {
        const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending } }));
        pending = (out.UnprocessedItems?.[db.tableName] ?? []) as typeof pending;
        if (pending.length) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt)));
      }
    };

    const tickets = Math.ceil(MESSAGES / PER_TICKET);
    const seedStarted = Date.now();
    const itemsBefore = state.items;
    const messagesBefore = state.messages;
    while (state.tickets < tickets && Date.now() - seedStarted < SEED_BUDGET_S * 1000) {
      const roundStarted = Date.now();
      const last = Math.min(tickets, state.tickets + TICKETS_PER_ROUND);
      const items: Record<string, unknown>[] = [];
      for (let i = state.tickets; i < last; i++) items.push(...itemsOfTicket(i));
      let nextBatch = 0;
      await Promise.all(
        Array.from({ length: SEED_PARALLEL }, async () => {
          for (let b = nextBatch++; b * 25 < items.length; b = nextBatch++) await writeBatch(items.slice(b * 25, b * 25 + 25));
        }),
      );
      state.messages += (last - state.tickets) * PER_TICKET;
      state.tickets = last;
      state.items += items.length;
      state.seedSeconds += (Date.now() - roundStarted) / 1000;
      if (stateFile) writeFileSync(stateFile, JSON.stringify(state));
    }
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const itemsThisRun = state.items - itemsBefore;
    const messagesThisRun = state.messages - messagesBefore;
    const seed = {
      messagesThisRun,
      itemsThisRun,
      seconds: Math.round(seedSeconds),
      parallelBatchWrites: SEED_PARALLEL,
      itemsPerSecond: seedSeconds > 0 ? Math.round(itemsThisRun / seedSeconds) : null,
      messagesPerSecond: seedSeconds > 0 ? Math.round(messagesThisRun / seedSeconds) : null,
      itemsPerMessage: messagesThisRun ? Math.round((itemsThisRun / messagesThisRun) * 100) / 100 : null,
      indexItemsPerMessage: messagesThisRun ? Math.round(((counts.messageIndexItems + counts.ticketIndexItems) / messagesThisRun) * 100) / 100 : null,
      indexItemsPerMessageDoc: messagesThisRun ? Math.round((counts.messageIndexItems / messagesThisRun) * 100) / 100 : null,
      indexItemsPerTicketDoc: messagesThisRun ? Math.round((counts.ticketIndexItems / (messagesThisRun / PER_TICKET)) * 100) / 100 : null,
      hoursFor1MillionMessagesAtThisRate: messagesThisRun ? Math.round(((1_000_000 / messagesThisRun) * seedSeconds) / 360) / 10 : null,
      totalSeedSecondsSoFar: Math.round(state.seedSeconds),
    };

    // round trips in sequence: a call that starts while none is in flight begins a new round; each round's start and
    // end are kept (relative to the request's start) to tell where a sequential request's time goes
    let inFlight = 0;
    let rounds = 0;
    let calls = 0;
    let requestStart = 0;
    let marks: number[] = [];
    const send = db.doc.send.bind(db.doc);
    (db.doc as { send: unknown }).send = async (...args: Parameters<typeof send>) => {
      if (inFlight === 0) {
        rounds++;
        marks.push(performance.now() - requestStart);
      }
      inFlight++;
      calls++;
      try {
        return await send(...args);
      } finally {
        inFlight--;
        if (inFlight === 0) marks.push(performance.now() - requestStart);
      }
    };

    // a long seeding outlives the sessions opened before it (the access token expires): sign in again to measure
    adminToken = await login(state.adminEmail, state.password);
    userToken = await login(state.userEmail, state.password);

    const one = async (q: string, token: string) => {
      const s = performance.now();
      const res = await fetch(`${platform.url}/api/search?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { results: unknown[] };
      if (res.status !== 200) throw new Error(`search ${q}: ${res.status}`);
      return { ms: performance.now() - s, results: body.results.length };
    };
    const QUERIES = ["boleto", "boleto vencido", "segunda via", "bol", "entrega atrasada", "cobrança duplicada", "Contato 00012", "2191000", "pix cartão"];
    // warm-up (JIT, keep-alive connections, DynamoDB Local's page cache): not measured
    for (const q of QUERIES) await one(q, adminToken);
    const perQuery: Record<string, { p50: number | null; p99: number | null; results: number; roundTrips: number; calls: number }> = {};
    const sequential: number[] = [];
    /** where a sequential request's time goes: [before round 1, round 1, gap, round 2, gap, round 3, after] */
    const phases: number[][] = [];
    for (const q of QUERIES) {
      const times: number[] = [];
      let results = 0;
      let maxRounds = 0;
      let maxCalls = 0;
      for (let i = 0; i < Math.ceil(REQUESTS / QUERIES.length); i++) {
        rounds = 0;
        calls = 0;
        marks = [];
        requestStart = performance.now();
        const r = await one(q, adminToken);
        times.push(r.ms);
        results = r.results;
        maxRounds = Math.max(maxRounds, rounds);
        maxCalls = Math.max(maxCalls, calls);
        if (marks.length === 6) phases.push([marks[0]!, marks[1]! - marks[0]!, marks[2]! - marks[1]!, marks[3]! - marks[2]!, marks[4]! - marks[3]!, marks[5]! - marks[4]!, r.ms - marks[5]!]);
      }
      sequential.push(...times);
      perQuery[q] = { p50: percentile(times, 50), p99: percentile(times, 99), results, roundTrips: maxRounds, calls: maxCalls };
    }
    const PHASES = ["before the first round (HTTP, JWT)", "round 1: the session's user", "between (query parsing)", "round 2: the terms' partitions", "between (candidates)", "round 3: tickets, messages, contacts", "after (visibility, ranking, snippets, JSON, HTTP)"];
    const breakdown = Object.fromEntries(PHASES.map((name, i) => [name, percentile(phases.map((p) => p[i]!), 50)]));
    const attendant: number[] = [];
    for (let i = 0; i < 30; i++) attendant.push((await one("boleto vencido", userToken)).ms);

    const concurrent: number[] = [];
    let k = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (k < REQUESTS) concurrent.push((await one(QUERIES[k++ % QUERIES.length]!, adminToken)).ms);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      messagesTarget: MESSAGES,
      messagesStored: state.messages,
      tickets: state.tickets,
      contacts: state.contacts.length,
      itemsStored: state.items,
      indexLayoutVersion: SEARCH_INDEX_VERSION,
      seed,
      requests: REQUESTS,
      "GET /search sequential (admin) ms": { p50: percentile(sequential, 50), p99: percentile(sequential, 99) },
      "GET /search?q=boleto vencido (attendant, one queue) ms": { p50: percentile(attendant, 50), p99: percentile(attendant, 99) },
      "GET /search at 8 concurrent ms": { p50: percentile(concurrent, 50), p99: percentile(concurrent, 99), requestsPerSecond: Math.round((concurrent.length / seconds) * 10) / 10 },
      "max DynamoDB round trips in sequence per request (auth included)": Math.max(...Object.values(perQuery).map((p) => p.roundTrips)),
      "sequential request breakdown, p50 ms of each phase": { requestsWithThreeRounds: phases.length, ...breakdown },
      perQuery,
    };
  } finally {
    await platform.stop();
  }
}
