import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { ReportRow } from "@atende/shared/contracts/http/reports";
import type { TicketCycle } from "@atende/shared/contracts/http/tickets";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { collectChunks, reportFileWriter } from "@atende/functions/features/reports/report-files";
import { createContactsRepository } from "@atende/functions/features/inbox/contacts/contacts.repository";
import { createTicketsRepository } from "@atende/functions/features/inbox/tickets/tickets.repository";
import type { TxItem } from "@atende/functions/platform/db/transact";
import { createTenant } from "@atende/functions/testing/factories";
import type { TestApp } from "@atende/functions/testing/test-app";
import { startPlatform } from "../infra/local/src/platform";

/**
 * Report exports (issue 13 "Numbers", docs/adr/0034-reports.md): 100,000 attention cycles to CSV and XLSX.
 * 1. writers alone: 100,000 rows built in batches of 1,000 and written (no table), seconds and peak memory;
 * 2. the whole export (`startExport` with the inline limit raised, the same code the `reports.export` job runs):
 *    the period's cycles read a week at a time from DynamoDB Local, contacts batch-read, the file written and stored.
 * Peak memory: process RSS and V8 heap sampled every 20 ms during each run, minus what they were just before it
 * (after a GC; `npm run bench` runs node with --expose-gc). The platform (table client, queues, web server) shares the process.
 * BENCH_REPORT_WRITERS_ONLY=1 runs part 1 alone (seconds; part 2 seeds 20,000 contacts and 100,000 cycles first).
 */
const CYCLES = Number(process.env.BENCH_REPORT_CYCLES ?? 100_000);
const CONTACTS = Number(process.env.BENCH_REPORT_CONTACTS ?? 20_000);
const MONTH = "2026-10";

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mb = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
const measure = async <T>(run: () => Promise<T>) => {
  gc();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 20);
  const started = performance.now();
  const value = await run();
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  clearInterval(timer);
  const end = process.memoryUsage();
  peakRss = Math.max(peakRss, end.rss);
  peakHeap = Math.max(peakHeap, end.heapUsed);
  return { value, seconds, peakRssMiB: mb(peakRss), peakRssAddedMiB: mb(peakRss - base.rss), peakHeapAddedMiB: mb(peakHeap - base.heapUsed) };
};

const sampleRow = (i: number): ReportRow => ({
  ticketId: 1_000_000 + i,
  protocol: `20261001${String(i).padStart(5, "0")}`,
  status: i % 10 ? "closed" : "pending",
  contact: { id: i % CONTACTS, name: `Contato ${i % CONTACTS} da Silva`, number: `55219${String(10000000 + (i % CONTACTS))}` },
  whatsapp: { id: 1, name: "Comercial" },
  queue: { id: 2, name: "Suporte" },
  queuePath: [
    { id: 1, name: "Vendas" },
    { id: 2, name: "Suporte" },
  ],
  user: { id: 3, name: "Atendente Teste" },
  users: [{ id: 3, name: "Atendente Teste" }],
  queuedAt: new Date(Date.UTC(2026, 9, 1) + i * 25_000).toISOString(),
  acceptedAt: new Date(Date.UTC(2026, 9, 1) + i * 25_000 + 120_000).toISOString(),
  firstResponseAt: new Date(Date.UTC(2026, 9, 1) + i * 25_000 + 150_000).toISOString(),
  finishedAt: i % 10 ? new Date(Date.UTC(2026, 9, 1) + i * 25_000 + 900_000).toISOString() : null,
  waitSeconds: 120,
  firstResponseSeconds: 150,
  handlingSeconds: i % 10 ? 780 : null,
  abandoned: false,
  rating: i % 4 ? (i % 3) + 1 : null,
  ratingRequested: true,
  sla: { firstResponse: "met", nextResponse: null, resolution: i % 7 ? "met" : "breached", overall: i % 7 ? "met" : "breached" },
  tags: i % 5 ? [] : [{ id: 9, name: "VIP", color: "#f00" }],
});

const writersOnly = async (format: "csv" | "xlsx") =>
  measure(async () => {
    const out = collectChunks();
    const w = reportFileWriter(format, out.sink, { locale: "pt", timeZone: "America/Sao_Paulo" });
    for (let i = 0; i < CYCLES; i += 1000) w.rows(Array.from({ length: Math.min(1000, CYCLES - i) }, (_, j) => sampleRow(i + j)));
    w.end();
    return out.size;
  });

export default async function reportsBench(): Promise<Record<string, unknown>> {
  const csvAlone = await writersOnly("csv");
  const xlsxAlone = await writersOnly("xlsx");

  if (process.env.BENCH_REPORT_WRITERS_ONLY === "1") return { cycles: CYCLES, writersAlone: { csv: csvAlone, xlsx: xlsxAlone } };
  const platform = await startPlatform({ logLevel: "error", tick: false, env: { BCRYPT_ROUNDS: "4", REPORTS_INLINE_EXPORT_ROWS: String(CYCLES * 2) } });
  try {
    const container = platform.container;
    const { db } = container;
    const call = async (method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) => {
      const res = await fetch(`${platform.url}/api${path}`, { method, headers: { "content-type": "application/json", ...opts.headers }, body: JSON.stringify(opts.body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
    };
    const tenant = await createTenant({ container, clock: { now: new Date(), advance() {}, set() {} }, call } as unknown as TestApp, {});
    const cid = tenant.company.id;
    const contactsRepo = createContactsRepository(db);
    const ticketsRepo = createTicketsRepository(db);

    const writeAll = async (items: Record<string, unknown>[]) => {
      const chunks: Record<string, unknown>[][] = [];
      for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < chunks.length) {
            let pending = chunks[next++]!.map((Item) => ({ PutRequest: { Item } }));
            while (pending.length) {
              const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending } }));
              pending = (out.UnprocessedItems?.[db.tableName] ?? []) as typeof pending;
            }
          }
        }),
      );
    };

    const seedStarted = Date.now();
    const contactIds: number[] = [];
    for (let i = 0; i < CONTACTS; i += 100) {
      const made = await Promise.all(
        Array.from({ length: Math.min(100, CONTACTS - i) }, (_, j) => {
          const n = i + j;
          const number = `55219${String(10000000 + n)}`;
          const at = new Date().toISOString();
          return contactsRepo.createWithIdentities(
            { companyId: cid, name: `Contato ${n} da Silva`, number, email: "", profilePicUrl: "", isGroup: false, lid: null, whatsappId: tenant.whatsapp.id, extraInfo: [], createdAt: at, updatedAt: at },
            [{ kind: "N", value: number }],
          );
        }),
      );
      contactIds.push(...made.map((m) => m.contact.id));
    }
    const [q1, q2] = tenant.queues.map((q) => q.id);
    const start = Date.parse(`${MONTH}-01T03:00:00.000Z`);
    const step = Math.floor((30 * 86_400_000) / CYCLES);
    for (let from = 0; from < CYCLES; from += 5000) {
      const items: Record<string, unknown>[] = [];
      for (let i = from; i < Math.min(CYCLES, from + 5000); i++) {
        const queuedAt = start + i * step;
        const closed = i % 10 !== 0;
        const c: TicketCycle = {
          ticketId: 1_000_000 + i,
          companyId: cid,
          contactId: contactIds[i % contactIds.length]!,
          whatsappId: tenant.whatsapp.id,
          queueId: q2!,
          userId: tenant.user.id,
          queuedAt: new Date(queuedAt).toISOString(),
          acceptedAt: new Date(queuedAt + 120_000).toISOString(),
          firstResponseAt: new Date(queuedAt + 150_000).toISOString(),
          finishedAt: closed ? new Date(queuedAt + 900_000).toISOString() : null,
          ratedAt: closed && i % 4 ? new Date(queuedAt + 960_000).toISOString() : null,
          rating: closed && i % 4 ? (i % 3) + 1 : null,
          status: closed ? "closed" : "open",
          protocol: `202610${String(1 + Math.floor((i * step) / 86_400_000)).padStart(2, "0")}${String(i).padStart(6, "0")}`,
          queuePath: [q1!, q2!],
          userIds: [tenant.user.id],
          tagIds: [],
          ratingRequestedAt: closed ? new Date(queuedAt + 900_000).toISOString() : null,
        };
        items.push((ticketsRepo.cycleItem(c) as TxItem).Put!.Item as Record<string, unknown>);
      }
      await writeAll(items);
      console.log(`reports bench: ${Math.min(CYCLES, from + 5000)} cycles written`);
    }
    const seedSeconds = Math.round((Date.now() - seedStarted) / 1000);
    console.log(`reports bench: seeded ${CONTACTS} contacts and ${CYCLES} cycles in ${seedSeconds} s`);

    const auth = { companyId: cid, user: { id: tenant.admin.id, profile: "admin", super: false } } as unknown as AuthContext;
    const reports = container.services.reports;
    const exportOf = (format: "csv" | "xlsx") => measure(() => reports.startExport(auth, { format, dateFrom: `${MONTH}-01`, dateTo: `${MONTH}-31`, queueIds: [], whatsappIds: [], userIds: [], tags: [], searchParam: "" }));
    const csv = await exportOf("csv");
    console.log(`reports bench: CSV export ${csv.seconds} s`);
    const xlsx = await exportOf("xlsx");
    const page = await measure(() => reports.list(auth, { dateFrom: `${MONTH}-01`, dateTo: `${MONTH}-31`, queueIds: [], whatsappIds: [], userIds: [], tags: [], searchParam: "", pageNumber: 1, pageSize: 50 }));
    return {
      cycles: CYCLES,
      contacts: CONTACTS,
      writersAlone: {
        csv: { seconds: csvAlone.seconds, fileMiB: mb(csvAlone.value), peakHeapAddedMiB: csvAlone.peakHeapAddedMiB, peakRssAddedMiB: csvAlone.peakRssAddedMiB },
        xlsx: { seconds: xlsxAlone.seconds, fileMiB: mb(xlsxAlone.value), peakHeapAddedMiB: xlsxAlone.peakHeapAddedMiB, peakRssAddedMiB: xlsxAlone.peakRssAddedMiB },
      },
      seedSeconds,
      export: {
        csv: { seconds: csv.seconds, rows: csv.value.rows, status: csv.value.status, peakHeapAddedMiB: csv.peakHeapAddedMiB, peakRssAddedMiB: csv.peakRssAddedMiB, peakRssMiB: csv.peakRssMiB },
        xlsx: { seconds: xlsx.seconds, rows: xlsx.value.rows, status: xlsx.value.status, peakHeapAddedMiB: xlsx.peakHeapAddedMiB, peakRssAddedMiB: xlsx.peakRssAddedMiB, peakRssMiB: xlsx.peakRssMiB },
      },
      reportFirstPage: { seconds: page.seconds, totalTickets: page.value.totalTickets, peakHeapAddedMiB: page.peakHeapAddedMiB },
    };
  } finally {
    await platform.stop();
  }
}
