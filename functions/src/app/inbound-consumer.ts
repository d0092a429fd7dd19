import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { inboundEventSchema, type InboundEvent } from "@atende/shared/contracts/queue-messages";
import { recordQueueAge } from "../platform/metrics";
import { runWithCorrelation } from "../platform/logger";
import { addEarlyRead, runUnitOfWork, startEarlyReads } from "../platform/unit-of-work";
import type { Container } from "./container";
import type { FeatureModule, InboundHandlers } from "../platform/modules/feature-module";

type Handler<T extends InboundEvent["type"]> = (event: Extract<InboundEvent, { type: T }>) => Promise<void>;

/**
 * Events from the session host (inbound.fifo). Each module registers the event types it owns: messages/acks/
 * presence/calls -> the inbox; connection state and number checks -> whatsapps; a number check asked for a
 * contact list -> contact lists too. When several modules handle one type, they run one after the other, in
 * module order.
 */
export const inboundHandlersOf = (container: Container): InboundHandlers => {
  const cached = byContainer.get(container);
  if (cached) return cached;
  const lists = new Map<string, ((event: never) => Promise<void>)[]>();
  const add = (type: string, fn: (event: never) => Promise<void>) => lists.set(type, [...(lists.get(type) ?? []), fn]);
  const modules: Pick<FeatureModule<unknown>, "inbound">[] = Object.values(container.modules).flat();
  for (const m of modules) for (const [type, fn] of Object.entries(m.inbound ?? {})) add(type, fn as (event: never) => Promise<void>);
  const handlers = Object.fromEntries(
    [...lists.entries()].map(([type, fns]) => [type, fns.length === 1 ? fns[0] : async (event: never) => { for (const fn of fns) await fn(event); }]),
  ) as InboundHandlers;
  byContainer.set(container, handlers);
  return handlers;
};
const byContainer = new WeakMap<Container, InboundHandlers>();

/** Every module's early reads (docs/adr/0058) of each event type, in module order. */
const earlyReadsOf = (container: Container): Map<string, ((event: never) => void)[]> => {
  const cached = earlyByContainer.get(container);
  if (cached) return cached;
  const lists = new Map<string, ((event: never) => void)[]>();
  const modules = Object.values(container.modules).flat() as Pick<FeatureModule<unknown>, "inboundEarly">[];
  for (const m of modules) for (const [type, fn] of Object.entries(m.inboundEarly ?? {})) lists.set(type, [...(lists.get(type) ?? []), fn as (event: never) => void]);
  earlyByContainer.set(container, lists);
  return lists;
};
const earlyByContainer = new WeakMap<Container, Map<string, ((event: never) => void)[]>>();

type Parsed = { record: SQSEvent["Records"][number]; event: InboundEvent | null };

/**
 * A receipt and nothing else: a delivery or read receipt without an edit or a delete, or the session host's
 * accepted send (ack 1). Each only moves the message's ack forward and clears a send error. Null otherwise.
 */
const receiptOf = (e: InboundEvent | null): { key: string; ack: number } | null => {
  if (e?.type === "message.update" && e.ack !== undefined && e.body === undefined && !e.isDeleted) return { key: `${e.companyId}:${e.whatsappId}:${e.messageId}`, ack: e.ack };
  if (e?.type === "command.result" && e.ok) return { key: `${e.companyId}:${e.whatsappId}:${e.messageId ?? e.commandId}`, ack: 1 };
  return null;
};

/**
 * Receipts of one message in one chat's batch become one (docs/adr/0045): acks only move forward (the stored ack
 * is conditioned on being lower) and every receipt clears a send error, so of a message's receipts in the batch
 * (the accepted send's command result counts as ack 1) only the highest runs, at its own place;
 * a lower one before it is superseded (as if it had arrived together with it), a lower one after it would change
 * nothing. The record kept is the one carrying the highest ack, so a redelivery after a failure still says it.
 * Nothing else in the chat moves: every other event keeps its place, and none reads a message's ack. Returns the
 * events to run, in order (null: superseded, counts as handled).
 */
export const coalesceAcks = (events: (InboundEvent | null)[]): (InboundEvent | null)[] => {
  const receipts = events.map(receiptOf);
  const best = new Map<string, { index: number; ack: number }>();
  receipts.forEach((r, index) => {
    if (!r) return;
    const seen = best.get(r.key);
    if (!seen || r.ack >= seen.ack) best.set(r.key, { index, ack: r.ack });
  });
  return events.map((e, index) => {
    const r = receipts[index];
    return r && best.get(r.key)?.index !== index ? null : e;
  });
};

/**
 * Consumes one SQS batch. Records of one message group are handled in order; a failed record and every later
 * record of its group are reported as failures so SQS redelivers them in order (FIFO semantics).
 * Malformed records are logged and dropped (they would fail forever).
 */
export const consumeInbound = async (container: Container, event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: { itemIdentifier: string }[] = [];
  const failedGroups = new Set<string>();
  // groups (one chat of one connection) are independent: handled concurrently, each in order
  const groups = new Map<string, SQSEvent["Records"]>();
  for (const record of event.Records) {
    const group = record.attributes?.MessageGroupId ?? "";
    groups.set(group, [...(groups.get(group) ?? []), record]);
  }
  const parse = (record: SQSEvent["Records"][number]): InboundEvent | null => {
    try {
      return inboundEventSchema.parse(JSON.parse(record.body));
    } catch (err) {
      container.logger.error("inbound: malformed event dropped", { messageId: record.messageId, err: String(err) });
      return null;
    }
  };
  await Promise.all(
    [...groups.entries()].map(async ([group, records]) => {
      // a chat's events of this batch, with its receipts of one message made one (acks only move forward)
      const parsedAll = coalesceAcks(records.map(parse));
      const items: Parsed[] = records.map((record, i) => ({ record, event: parsedAll[i] ?? null }));
      for (const { record, event } of items) {
        if (failedGroups.has(group)) {
          failures.push({ itemIdentifier: record.messageId });
          continue;
        }
        const sentAt = Number(record.attributes?.SentTimestamp);
        if (sentAt > 0) recordQueueAge(container.metrics, "inbound", container.clock().getTime() - sentAt);
        // malformed (logged above) or a receipt superseded by a later one of the same message in this batch
        if (!event) continue;
        const parsed = event;
        const handler = inboundHandlersOf(container)[parsed.type] as Handler<typeof parsed.type> | undefined;
        if (!handler) {
          container.logger.warn("inbound: no handler", { type: parsed.type });
          continue;
        }
        try {
          // Cloud API events: our ids for Meta's wamids, media into our storage, the window (docs/adr/0028); QR events pass untouched
          const connectionId = (parsed as { whatsappId?: number }).whatsappId;
          // one event = one unit of work: its repeated reads shared, the search index written after its frames (ADR 0039)
          await runWithCorrelation({ requestId: record.messageId, companyId: parsed.companyId, connectionId }, () =>
            runUnitOfWork(async () => {
              const ready = await container.meta.inboundStep.prepare(await container.cloudApi.inboundStep.prepare(parsed));
              // the reads later handlers will make, started with the first round trip (docs/adr/0058): the inbox's
              // message handler starts them beside its first reads; otherwise they start here, beside the handler's
              for (const early of earlyReadsOf(container).get(ready.type) ?? []) addEarlyRead(() => early(ready as never));
              const handled = handler(ready as never);
              startEarlyReads();
              await handled;
            }),
          );
        } catch (err) {
          container.logger.error("inbound: handler failed", { type: parsed.type, companyId: parsed.companyId, err: String(err) });
          failedGroups.add(group);
          failures.push({ itemIdentifier: record.messageId });
        }
      }
    }),
  );
  return { batchItemFailures: failures };
};
