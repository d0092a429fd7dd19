import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import type { Message } from "@atende/shared/domain/messages/message";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import { createContactsRepository } from "@atende/functions/features/inbox/contacts/contacts.repository";
import { createMessagesRepository } from "@atende/functions/features/inbox/messages/messages.repository";
import { NEW_BOT, newTicketFields, contactCardFields, createTicketsRepository, type TicketRecord } from "@atende/functions/features/inbox/tickets/tickets.repository";
import { createTenant } from "@atende/functions/testing/factories";
import { createSearchIndexRepository } from "@atende/functions/features/search/search-index.repository";
import { ticketDocId } from "@atende/functions/features/search/search-index.port";
import type { TestApp } from "@atende/functions/testing/test-app";
import type { TxItem } from "@atende/functions/platform/db/transact";
import { startPlatform, type Platform } from "../infra/local/src/platform";
import { pollQueue, sqsClient } from "../infra/local/src/sqs";
import { consumeInbound } from "@atende/functions/app/inbound-consumer";
import { percentile } from "./stats";
import { cpuMeter, dynamoCounter, jvmPid, procCpuMs, profiled } from "./inbox-meters";
import { inboundBench } from "./inbox-inbound";

/**
 * Inbox benchmark (issue 3 "Numbers"):
 * 1. inbound: 50 simulated customers write through the simulator; we time simulator send -> `appMessage` frame
 *    on a connected admin browser socket. A burst (all at once) gives the sustained rate; a paced phase (each
 *    customer every 6 s, like a person) gives the latency at that load;
 * 2. GET /tickets p50/p99 for a company holding BENCH_TICKETS tickets (default 100,000) and BENCH_MESSAGES
 *    messages (default 1,000,000), written straight to the table with batch writes.
 */
const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 2_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
/** the small company of the flatness check (issue 15 item 2: its figures within 1.5× of the large one's) */
const SMALL_TICKETS = Number(process.env.BENCH_SMALL_TICKETS ?? 1_000);
/** the concurrent phase of each list case: CONCURRENCY clients sending CONCURRENT_REQUESTS requests in all */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const CONCURRENT_REQUESTS = Number(process.env.BENCH_CONCURRENT_REQUESTS ?? 400);
/** BENCH_SKIP_LIST=1 runs only the inbound part (the list part seeds 100,000 tickets for ~7 minutes) */
const SKIP_LIST = process.env.BENCH_SKIP_LIST === "1";
/** BENCH_SKIP_INBOUND=1 runs only the list part */
const SKIP_INBOUND = process.env.BENCH_SKIP_INBOUND === "1";
/**
 * Extra consumers of inbound.fifo besides the local runner's own (AWS runs one Lambda per message group batch
 * concurrently; the local runner polls with INBOUND_POLLERS loops, default 4). 0 measures the local runner exactly
 * as `npm start` runs.
 */
const EXTRA_POLLERS = Number(process.env.BENCH_EXTRA_POLLERS ?? 0);
/** stop writing messages after this many seconds of seeding (keeps `npm run bench` near 10 minutes) */
/** Tickets (the newest) whose search-index identity document the seed writes (name, number: the list's search, ADR 0055). */
const SEARCH_INDEXED_TICKETS = Number(process.env.BENCH_SEARCH_INDEXED_TICKETS ?? 2_000);
const SEED_BUDGET_S = Number(process.env.BENCH_SEED_BUDGET_S ?? 420);
/** BENCH_CASES=pending,attendant open: only the list cases whose name contains one of these (short runs) */
/** BENCH_SEED_CONTACT_CARDS=0: seeded tickets without their contact's card (items written before ADR 0057) */
const SEED_CONTACT_CARDS = process.env.BENCH_SEED_CONTACT_CARDS !== "0";
/** BENCH_CASES=pending,attendant open: only the list cases whose name contains one of these (short runs) */
const CASES = (process.env.BENCH_CASES ?? "").split(",").map((c) => c.trim()).filter(Boolean);
/**
 * How the list cases' clients send their requests: `http` (default) node:http with a keep-alive agent, `fetch` the
 * global fetch (undici, as before session 7). The clients run in the API's own process and event loop, so their CPU
 * is taken from the API's: node:http took ~0.4–0.8 ms less CPU per request than fetch (docs/adr/0046, bench/README.md).
 */
const CLIENT = process.env.BENCH_CLIENT === "fetch" ? "fetch" : "http";
/**
 * BENCH_WARMUP=<n> (default 100): before anything is timed, every chosen tab of both companies is requested n times,
 * untimed, so DynamoDB Local's JIT (and V8) have compiled each tab's code paths as a platform that has been serving
 * lists would have. Without it a fresh JVM spent 17% of its CPU over the timed tabs in C2 (28% during the first
 * company's), the first tabs paying most; with it 3% (docs/adr/0056). BENCH_WARMUP=0 measures the cold process, as
 * the benches before session 9 did. A server that has run for a while never pays this per tab; AWS has no JVM at all.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);

type Seeded = { tenant: Awaited<ReturnType<typeof createTenant>>; tagId: number; tickets: number; contacts: number; messagesStored: number; ticketSeedSeconds: number; seedSeconds: number };

const listBench = async (platform: Platform) => {
  const container = platform.container;
  const { db } = container;
  const clock = { now: new Date(), advance() {}, set() {} };
  // createTenant only needs the container, a clock and a way to call the API
  const call = async (method: string, path: string, opts: { body?: unknown; headers?: Record<string, string>; token?: string } = {}) => {
    const res = await fetch(`${platform.url}/api${path}`, {
      method,
      headers: { "content-type": "application/json", ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      body: JSON.stringify(opts.body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
  };
  const contactsRepo = createContactsRepository(db);
  const ticketsRepo = createTicketsRepository(db);
  const messagesRepo = createMessagesRepository(db);
  const searchIndex = createSearchIndexRepository(db);

  const writeAll = async (items: Record<string, unknown>[]) => {
    const chunks: Record<string, unknown>[][] = [];
    for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < chunks.length) {
          const chunk = chunks[next++]!;
          let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
          while (pending.length) {
            const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending } }));
            pending = (out.UnprocessedItems?.[db.tableName] ?? []) as typeof pending;
          }
        }
      }),
    );
  };
  const putItems = (txs: TxItem[]) => txs.filter((tx) => tx.Put).map((tx) => tx.Put!.Item as Record<string, unknown>);

  /** A company with `tickets` tickets (the newest one of each contact pending/open, the rest closed), one tag on every 5th ticket, and up to `messages` messages. */
  const seed = async (tickets: number, contacts: number, messages: number, budgetS: number): Promise<Seeded> => {
    const tenant = await createTenant({ container, clock, call } as unknown as TestApp, { queues: [{ name: "Vendas", color: "#111111" }, { name: "Suporte", color: "#222222" }] });
    const cid = tenant.company.id;
    const tag = await call("POST", "/tags", { token: tenant.adminToken, body: { name: "VIP", color: "#ff0000" } });
    if (tag.status >= 300) throw new Error(`tag: ${tag.status} ${JSON.stringify(tag.body)}`);
    const tagId = Number(tag.body.id);
    const seedStarted = Date.now();
    const contactIds: number[] = [];
    const contactById = new Map<number, Contact>();
    for (let i = 0; i < contacts; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, contacts - i) }, (_, j) => {
          const n = i + j;
          const number = `55219${String(10000000 + cid * 100_000 + n).slice(-8)}`;
          const at = new Date().toISOString();
          return contactsRepo.createWithIdentities(
            { companyId: cid, name: `Contato ${String(n).padStart(5, "0")}`, number, email: "", profilePicUrl: "", isGroup: false, lid: null, whatsappId: tenant.whatsapp.id, extraInfo: [], createdAt: at, updatedAt: at },
            [{ kind: "N", value: number }],
          );
        }),
      );
      contactIds.push(...batch.map((b) => b.contact.id));
      for (const b of batch) contactById.set(b.contact.id, b.contact);
    }
    const t0 = Date.now() - tickets * 60_000;
    const perTicket = Math.max(1, Math.floor(messages / tickets));
    const queueIds = tenant.queues.map((q) => q.id);
    // tickets first (all of them), then messages until the seed budget is spent (DynamoDB Local writes ~1,000 items/s here)
    const messageItems: ((i: number) => Record<string, unknown>[])[] = [];
    for (let start = 0; start < tickets; start += 2000) {
      const items: Record<string, unknown>[] = [];
      for (let i = start; i < Math.min(tickets, start + 2000); i++) {
        const contactId = contactIds[i % contactIds.length]!;
        // the newest ticket of each contact is pending/open, every older one closed
        const status = i >= tickets - contactIds.length ? (i % 3 === 0 ? "open" : "pending") : "closed";
        const at = new Date(t0 + i * 60_000).toISOString();
        const t: TicketRecord = {
          id: 1_000_000 + i,
          uuid: randomUUID(),
          companyId: cid,
          status,
          userId: status === "pending" ? null : i % 2 ? tenant.user.id : tenant.admin.id,
          queueId: queueIds[i % queueIds.length]!,
          whatsappId: tenant.whatsapp.id,
          contactId,
          chatJid: `x@s.whatsapp.net`,
          isGroup: false,
          ...newTicketFields(at),
          lastMessage: `mensagem ${i}`,
          lastMessageLc: `mensagem ${i}`,
          unreadMessages: status === "closed" ? 0 : 1,
          tagIds: i % 5 === 0 ? [tagId] : [],
          bot: { ...NEW_BOT, stage: "done" },
          cycle: { queuedAt: at, acceptedAt: at, finishedAt: status === "closed" ? at : null, ratedAt: null, rating: null },
          version: 1,
          // the contact's card on the ticket, as every ticket written since ADR 0057 carries it
          // (BENCH_SEED_CONTACT_CARDS=0: items as written before, whose cards read their contacts)
          ...(SEED_CONTACT_CARDS ? contactCardFields(contactById.get(contactId)!) : {}),
        };
        items.push(...putItems(ticketsRepo.createItems(t)));
        // the search index's identity document of the newest tickets, as the write path stores it (docs/adr/0055: the
        // list's search finds names and numbers there); older tickets' only lengthen partitions a search reads at most
        // POSTINGS_PER_READ of, newest first
        if (i >= tickets - SEARCH_INDEXED_TICKETS) {
          const c = contactById.get(contactId)!;
          items.push(...searchIndex.itemsOf({ docId: ticketDocId(t.id), companyId: cid, ticketId: t.id, contactId, at: t.createdAt, text: c.name, numbers: [c.number] }));
        }
        if (status !== "closed") items.push(...putItems([ticketsRepo.lockOpenItem(t)]));
        messageItems.push(() =>
          Array.from({ length: perTicket }, (_, k) => {
            const m: Message = {
              id: `B${cid}X${i}X${k}`,
              companyId: cid,
              ticketId: t.id,
              contactId,
              body: `mensagem ${i} ${k}`,
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
              createdAt: new Date(t0 + i * 60_000 + k).toISOString(),
              updatedAt: at,
            };
            return putItems([messagesRepo.createItem(m)])[0]!;
          }),
        );
      }
      await writeAll(items);
    }
    // the list counters (ADR 0036) of tickets written around the repository's transactions
    await (ticketsRepo as { recountLists?: (companyId: number) => Promise<void> }).recountLists?.(cid);
    const ticketSeedSeconds = Math.round((Date.now() - seedStarted) / 1000);
    let messagesStored = 0;
    // newest tickets first: the conversations a user opens
    for (let i = messageItems.length - 1; i >= 0 && Date.now() - seedStarted < budgetS * 1000; i -= 500) {
      const items = messageItems.slice(Math.max(0, i - 499), i + 1).flatMap((make, j) => make(Math.max(0, i - 499) + j));
      await writeAll(items);
      messagesStored += items.length;
    }
    return { tenant, tagId, tickets, contacts: contactIds.length, messagesStored, ticketSeedSeconds, seedSeconds: Math.round((Date.now() - seedStarted) / 1000) };
  };

  const counter = dynamoCounter(platform);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let answerBytes = 0;
  const httpGet = (url: string, token: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        answerBytes = 0;
        res.on("data", (d: Buffer) => (answerBytes += d.length));
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
  const get = async (path: string, token: string) => {
    let status: number;
    if (CLIENT === "http") status = await httpGet(`${platform.url}/api${path}`, token);
    else {
      const res = await fetch(`${platform.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
      await res.text();
      status = res.status;
    }
    if (status !== 200) throw new Error(`${path}: ${status}`);
  };
  const cpu = cpuMeter(platform);
  const jvm = jvmPid(platform);
  /** sequential p50/p99, then the DynamoDB work of one request (not noisy), then 8 concurrent clients; CPU per request of each phase */
  const time = async (path: string, token: string, concurrent: boolean, name = path) => {
    const out: number[] = [];
    // the slowest sequential request: when it ran and the JVM's CPU during it (an outlier of DynamoDB Local's shows as
    // hundreds of ms of JVM CPU in one request whatever the machine's load; /proc counts in 10 ms ticks; docs/adr/0056)
    let slowest = { ms: 0, at: "", jvmCpuMs: null as number | null };
    const sequential = await cpu(REQUESTS, () =>
      profiled(`${name} sequential`, async () => {
        for (let i = 0; i < REQUESTS; i++) {
          const j0 = jvm ? procCpuMs(jvm) : null;
          const s = performance.now();
          await get(path, token);
          const ms = performance.now() - s;
          out.push(ms);
          if (ms > slowest.ms) {
            const j1 = jvm ? procCpuMs(jvm) : null;
            slowest = { ms: Math.round(ms * 10) / 10, at: new Date(Date.now() - ms).toISOString(), jvmCpuMs: j0 !== null && j1 !== null ? j1 - j0 : null };
          }
        }
      }),
    );
    // the answer's size in bytes (node:http clients) beside the DynamoDB work of one request
    const dynamo = await counter.measure(async () => (await get(path, token), CLIENT === "http" ? answerBytes : undefined));
    const figures: Record<string, unknown> = { p50: percentile(out, 50), p99: percentile(out, 99), max: percentile(out, 100), slowest, cpuMsPerRequest: sequential.cpuMsPerRequest, nodeGc: sequential.nodeGc, dynamo };
    if (concurrent) {
      const lat: number[] = [];
      let left = CONCURRENT_REQUESTS;
      const s = performance.now();
      const phase = await cpu(CONCURRENT_REQUESTS, () =>
        profiled(`${name} concurrent`, () =>
          Promise.all(
            Array.from({ length: CONCURRENCY }, async () => {
              while (left-- > 0) {
                const r = performance.now();
                await get(path, token);
                lat.push(performance.now() - r);
              }
            }),
          ),
        ),
      );
      figures.concurrent = {
        clients: CONCURRENCY,
        requests: lat.length,
        requestsPerSecond: Math.round((lat.length / ((performance.now() - s) / 1000)) * 10) / 10,
        p50: percentile(lat, 50),
        p99: percentile(lat, 99),
        cpuMsPerRequest: phase.cpuMsPerRequest,
        nodeGc: phase.nodeGc,
      };
    }
    return figures;
  };
  /** The page token (docs/adr/0040) a client holds when it asks for page `page`: the pages before it walked as the web app does. */
  const tokenTo = async (query: string, token: string, page: number) => {
    let pageToken: string | undefined;
    for (let n = 1; n < page; n++) {
      const res = await fetch(`${platform.url}/api/tickets?${query}&pageNumber=${n}${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ""}`, { headers: { authorization: `Bearer ${token}` } });
      pageToken = ((await res.json()) as { nextPageToken?: string }).nextPageToken;
    }
    return pageToken ?? "";
  };
  /** every tab of GET /tickets (admin and attendant, with and without filters); the attendant works in Vendas */
  const cases = async (s: Seeded, concurrent: boolean, warmup = 0) => {
    const { tenant, tagId } = s;
    const admin = tenant.adminToken;
    const user = tenant.userToken;
    const suporte = tenant.queues[1]!.id;
    const page5Token = encodeURIComponent(await tokenTo("status=closed&showAll=true", admin, 5));
    const list: [string, string, string][] = [
      ["admin pending (showAll)", "/tickets?status=pending&showAll=true&pageNumber=1", admin],
      ["admin open (showAll)", "/tickets?status=open&showAll=true&pageNumber=1", admin],
      ["admin closed (showAll) page 1", "/tickets?status=closed&showAll=true&pageNumber=1", admin],
      ["admin closed (showAll) page 5", "/tickets?status=closed&showAll=true&pageNumber=5", admin],
      ["admin closed (showAll) page 5 with its page token", `/tickets?status=closed&showAll=true&pageNumber=5&pageToken=${page5Token}`, admin],
      ["admin pending, queue filter", `/tickets?status=pending&showAll=true&queueIds=[${suporte}]&pageNumber=1`, admin],
      ["admin open, tag filter", `/tickets?status=open&showAll=true&tags=[${tagId}]&pageNumber=1`, admin],
      ["admin open, user filter", `/tickets?status=open&showAll=true&users=[${tenant.user.id}]&pageNumber=1`, admin],
      ["attendant pending", "/tickets?status=pending&pageNumber=1", user],
      ["attendant open", "/tickets?status=open&pageNumber=1", user],
      ["attendant closed", "/tickets?status=closed&pageNumber=1", user],
      ["attendant open, tag filter", `/tickets?status=open&tags=[${tagId}]&pageNumber=1`, user],
      ["attendant pending, tag filter", `/tickets?status=pending&tags=[${tagId}]&pageNumber=1`, user],
      ["admin closed, tag filter", `/tickets?status=closed&showAll=true&tags=[${tagId}]&pageNumber=1`, admin],
    ];
    const chosen = list.filter(([name]) => !CASES.length || CASES.some((c) => name.includes(c)));
    if (warmup) {
      for (const [, path, token] of chosen) for (let i = 0; i < warmup; i++) await get(path, token);
      return {};
    }
    return chosen.reduce<Promise<Record<string, unknown>>>(
      async (acc, [name, path, token]) => ({ ...(await acc), [`GET /tickets ${name}`]: await time(path, token, concurrent, `${s.tickets} ${name}`) }),
      Promise.resolve({}),
    );
  };

  // the small company first (1,000 tickets): the list figures must not grow with the history
  const small = await seed(SMALL_TICKETS, Math.round(SMALL_TICKETS / 5), SMALL_TICKETS * 10, 120);
  const large = await seed(TICKETS, CONTACTS, MESSAGES, SEED_BUDGET_S);
  const { tenant } = large;
  // the seed's garbage (the items of up to 1,000,000 messages and 100,000 tickets, built in this process) collected now,
  // not by a full collection in the middle of a timed phase: an API instance never holds a seed (`npm run bench` runs
  // node with --expose-gc; docs/adr/0050)
  (globalThis as { gc?: () => void }).gc?.();
  if (WARMUP > 0) for (const s of [small, large]) await cases(s, false, WARMUP);
  const smallFigures = await cases(small, false);
  const largeFigures = await cases(large, true);
  const ratio = Object.fromEntries(
    Object.keys(largeFigures).map((k) => {
      const l = largeFigures[k] as { p50: number; p99: number; dynamo: { itemsRead: number; roundTripsInSequence: number } };
      const sm = smallFigures[k] as { p50: number; p99: number; dynamo: { itemsRead: number; roundTripsInSequence: number } };
      const r = (a: number, b: number) => Math.round((a / b) * 100) / 100;
      return [k, { p50: r(sm.p50, l.p50), p99: r(sm.p99, l.p99), itemsRead: r(sm.dynamo.itemsRead, l.dynamo.itemsRead), roundTrips: `${sm.dynamo.roundTripsInSequence} / ${l.dynamo.roundTripsInSequence}` }];
    }),
  );
  return {
    client: CLIENT,
    seeded: Object.fromEntries(Object.entries({ small, large }).map(([k, v]) => [k, { tickets: v.tickets, contacts: v.contacts, messagesStored: v.messagesStored, ticketSeedSeconds: v.ticketSeedSeconds, seedSeconds: v.seedSeconds }])),
    messagesTarget: MESSAGES,
    requestsPerCase: REQUESTS,
    warmupRequestsPerCase: WARMUP,
    [`${TICKETS} tickets`]: {
      ...largeFigures,
      "GET /tickets?searchParam=Contato 0012 (admin) ms": {
        ...(await time("/tickets?searchParam=Contato%200012", tenant.adminToken, false)),
        // what it found (ADR 0055: names from the search index; the seed indexes the newest BENCH_SEARCH_INDEXED_TICKETS)
        answer: await fetch(`${platform.url}/api/tickets?searchParam=Contato%200012`, { headers: { authorization: `Bearer ${tenant.adminToken}` } })
          .then((r) => r.json() as Promise<{ count: number; tickets: unknown[] }>)
          .then((b) => ({ count: b.count, tickets: b.tickets.length })),
      },
      "GET /messages/{id} page 1 ms": await time(`/messages/${1_000_000 + TICKETS - 1}`, tenant.adminToken, false),
    },
    [`${SMALL_TICKETS} tickets`]: smallFigures,
    [`${SMALL_TICKETS} tickets ÷ ${TICKETS} tickets`]: ratio,
  };
};

export default async function inboxBench() {
  // the 100,000-ticket seed outlasts the 15-minute access tokens issued before it
  const platform = await startPlatform({ logLevel: "error", tick: false, env: { BCRYPT_ROUNDS: "4", ACCESS_TOKEN_TTL_SECONDS: "86400" } });
  const pollers = Array.from({ length: EXTRA_POLLERS }, () =>
    pollQueue(sqsClient(platform.sqs.endpoint), platform.sqs.queueUrls.inbound, (event) => consumeInbound(platform.container, event), () => undefined),
  );
  try {
    const inbound = SKIP_INBOUND ? "skipped (BENCH_SKIP_INBOUND=1)" : { ...(await inboundBench(platform)), inboundConsumers: Number(process.env.INBOUND_POLLERS ?? 4) + EXTRA_POLLERS };
    const list = SKIP_LIST ? "skipped (BENCH_SKIP_LIST=1)" : await listBench(platform);
    return { inbound, list };
  } finally {
    for (const p of pollers) await p.stop();
    await platform.stop();
  }
}
