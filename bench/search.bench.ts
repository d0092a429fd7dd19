import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { randomUUID } from "node:crypto";
import type { Message } from "@atende/shared/domain/messages/message";
import { corpus } from "@atende/shared/domain/search/pt-corpus.fixtures";
import { createContactsRepository } from "@atende/functions/features/inbox/contacts/contacts.repository";
import { createMessagesRepository } from "@atende/functions/features/inbox/messages/messages.repository";
import { NEW_BOT, createTicketsRepository, type TicketRecord } from "@atende/functions/features/inbox/tickets/tickets.repository";
import { createSearchIndexRepository } from "@atende/functions/features/search/search-index.repository";
import { createTenant } from "@atende/functions/testing/factories";
import type { TestApp } from "@atende/functions/testing/test-app";
import type { TxItem } from "@atende/functions/platform/db/transact";
import { startPlatform } from "../infra/local/src/platform";

/**
 * Full-text search benchmark (issue 15 items 1-2, docs/adr/0035): a company with BENCH_SEARCH_MESSAGES messages
 * (default 1,000,000) of realistic Portuguese conversations (pt-corpus.fixtures.ts), ~8 per ticket, indexed with
 * the same repository the write path uses; then GET /search p50/p99 sequentially and at 8 concurrent, and the
 * DynamoDB round trips in sequence per request (auth included), counted on the client. Seeding stops after
 * BENCH_SEARCH_SEED_BUDGET_S seconds (DynamoDB Local writes ~1,000 items/s on a small machine; each message
 * writes ~15 index entries): the figures say how many were indexed.
 */
const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const PER_TICKET = 8;
const CONTACTS = Number(process.env.BENCH_SEARCH_CONTACTS ?? 2_000);
const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS ?? 200);
const SEED_BUDGET_S = Number(process.env.BENCH_SEARCH_SEED_BUDGET_S ?? 1_800);
const CONCURRENCY = 8;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10 : null;
};

export default async function searchBench() {
  const platform = await startPlatform({ logLevel: "error", tick: false, env: { BCRYPT_ROUNDS: "4" } });
  try {
    const container = platform.container;
    const { db } = container;
    const clock = { now: new Date(), advance() {}, set() {} };
    const call = async (method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) => {
      const res = await fetch(`${platform.url}/api${path}`, { method, headers: { "content-type": "application/json", ...opts.headers }, body: JSON.stringify(opts.body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
    };
    const tenant = await createTenant({ container, clock, call } as unknown as TestApp, { queues: [{ name: "Vendas", color: "#111111" }, { name: "Suporte", color: "#222222" }] });
    const cid = tenant.company.id;
    const contactsRepo = createContactsRepository(db);
    const ticketsRepo = createTicketsRepository(db);
    const messagesRepo = createMessagesRepository(db);
    const index = createSearchIndexRepository(db);

    const seedStarted = Date.now();
    const contacts: { id: number; name: string; number: string }[] = [];
    for (let i = 0; i < CONTACTS; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, CONTACTS - i) }, (_, j) => {
          const n = i + j;
          const number = `55219${String(10000000 + n)}`;
          const at = new Date().toISOString();
          return contactsRepo.createWithIdentities(
            { companyId: cid, name: `Contato ${String(n).padStart(5, "0")}`, number, email: "", profilePicUrl: "", isGroup: false, lid: null, whatsappId: tenant.whatsapp.id, extraInfo: [], createdAt: at, updatedAt: at },
            [{ kind: "N", value: number }],
          );
        }),
      );
      contacts.push(...batch.map((b) => b.contact));
    }
    const writeAll = async (items: Record<string, unknown>[]) => {
      for (let i = 0; i < items.length; i += 25) {
        let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
        while (pending.length) {
          const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending } }));
          pending = (out.UnprocessedItems?.[db.tableName] ?? []) as typeof pending;
        }
      }
    };
    const putItem = (tx: TxItem) => tx.Put!.Item as Record<string, unknown>;
    const queueIds = tenant.queues.map((q) => q.id);
    const t0 = Date.now() - MESSAGES * 60_000;
    let indexed = 0;
    let ticketsWritten = 0;
    // a conversation (ticket) at a time: its ticket, its messages, their index entries; 8 conversations at once
    const tickets = Math.ceil(MESSAGES / PER_TICKET);
    let next = 0;
    const writeTicket = async (i: number) => {
      const contact = contacts[i % contacts.length]!;
      const at = new Date(t0 + i * PER_TICKET * 60_000).toISOString();
      const t: TicketRecord = {
        id: 1_000_000 + i,
        uuid: randomUUID(),
        companyId: cid,
        status: "closed",
        userId: i % 2 ? tenant.user.id : tenant.admin.id,
        queueId: queueIds[i % queueIds.length]!,
        whatsappId: tenant.whatsapp.id,
        contactId: contact.id,
        chatJid: "x@s.whatsapp.net",
        isGroup: false,
        lastMessage: "",
        lastMessageLc: "",
        lastMessageAt: at,
        lastFromMe: false,
        lastInboundId: null,
        unreadMessages: 0,
        tagIds: [],
        presence: null,
        chatbot: false,
        useIntegration: false,
        promptId: null,
        integrationId: null,
        bot: { ...NEW_BOT, stage: "done" },
        cycle: { queuedAt: at, acceptedAt: at, finishedAt: at, ratedAt: null, rating: null },
        version: 1,
        createdAt: at,
        updatedAt: at,
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
        createdAt: new Date(t0 + (i * PER_TICKET + k) * 60_000).toISOString(),
        updatedAt: at,
      }));
      await writeAll([...ticketsRepo.createItems(t).map(putItem), ...messages.map((m) => putItem(messagesRepo.createItem(m)))]);
      await index.put({ docId: `t:${t.id}`, companyId: cid, ticketId: t.id, contactId: contact.id, at, text: contact.name, numbers: [contact.number] }, { isNew: true });
      for (const m of messages) await index.put({ docId: `m:${m.id}`, companyId: cid, ticketId: t.id, contactId: contact.id, at: m.createdAt, text: m.body, numbers: [] }, { isNew: true });
      indexed += messages.length;
      ticketsWritten++;
    };
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < tickets && Date.now() - seedStarted < SEED_BUDGET_S * 1000) await writeTicket(next++);
      }),
    );
    const seedSeconds = Math.round((Date.now() - seedStarted) / 1000);

    // round trips in sequence: a call that starts while none is in flight begins a new round
    let inFlight = 0;
    let rounds = 0;
    let calls = 0;
    const send = db.doc.send.bind(db.doc);
    (db.doc as { send: unknown }).send = async (...args: Parameters<typeof send>) => {
      if (inFlight === 0) rounds++;
      inFlight++;
      calls++;
      try {
        return await send(...args);
      } finally {
        inFlight--;
      }
    };

    const one = async (q: string, token: string) => {
      const s = performance.now();
      const res = await fetch(`${platform.url}/api/search?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { results: unknown[] };
      if (res.status !== 200) throw new Error(`search ${q}: ${res.status}`);
      return { ms: performance.now() - s, results: body.results.length };
    };
    const QUERIES = ["boleto", "boleto vencido", "segunda via", "bol", "entrega atrasada", "cobrança duplicada", "Contato 00012", "2191000", "pix cartão"];
    const perQuery: Record<string, { p50: number | null; p99: number | null; results: number; roundTrips: number; calls: number }> = {};
    const sequential: number[] = [];
    for (const q of QUERIES) {
      const times: number[] = [];
      let results = 0;
      let maxRounds = 0;
      let maxCalls = 0;
      for (let i = 0; i < Math.ceil(REQUESTS / QUERIES.length); i++) {
        rounds = 0;
        calls = 0;
        const r = await one(q, tenant.adminToken);
        times.push(r.ms);
        results = r.results;
        maxRounds = Math.max(maxRounds, rounds);
        maxCalls = Math.max(maxCalls, calls);
      }
      sequential.push(...times);
      perQuery[q] = { p50: pct(times, 50), p99: pct(times, 99), results, roundTrips: maxRounds, calls: maxCalls };
    }
    const attendant: number[] = [];
    for (let i = 0; i < 30; i++) attendant.push((await one("boleto vencido", tenant.userToken)).ms);

    const concurrent: number[] = [];
    let k = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (k < REQUESTS) concurrent.push((await one(QUERIES[k++ % QUERIES.length]!, tenant.adminToken)).ms);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      messagesTarget: MESSAGES,
      messagesIndexed: indexed,
      tickets: ticketsWritten,
      contacts: contacts.length,
      indexWrites: index.stats.writes,
      seedSeconds,
      requests: REQUESTS,
      "GET /search sequential (admin) ms": { p50: pct(sequential, 50), p99: pct(sequential, 99) },
      "GET /search?q=boleto vencido (attendant, one queue) ms": { p50: pct(attendant, 50), p99: pct(attendant, 99) },
      "GET /search at 8 concurrent ms": { p50: pct(concurrent, 50), p99: pct(concurrent, 99), requestsPerSecond: Math.round((concurrent.length / seconds) * 10) / 10 },
      "max DynamoDB round trips in sequence per request (auth included)": Math.max(...Object.values(perQuery).map((p) => p.roundTrips)),
      perQuery,
    };
  } finally {
    await platform.stop();
  }
}
