import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { inboundEventSchema, type InboundEvent } from "@atende/shared/contracts/queue-messages";
import { recordQueueAge } from "../platform/metrics";
import { runWithCorrelation } from "../platform/logger";
import { runUnitOfWork } from "../platform/unit-of-work";
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
  await Promise.all(
    [...groups.entries()].map(async ([group, records]) => {
      for (const record of records) {
        if (failedGroups.has(group)) {
          failures.push({ itemIdentifier: record.messageId });
          continue;
        }
        const sentAt = Number(record.attributes?.SentTimestamp);
        if (sentAt > 0) recordQueueAge(container.metrics, "inbound", container.clock().getTime() - sentAt);
        let parsed: InboundEvent;
        try {
          parsed = inboundEventSchema.parse(JSON.parse(record.body));
        } catch (err) {
          container.logger.error("inbound: malformed event dropped", { messageId: record.messageId, err: String(err) });
          continue;
        }
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
              const ready = await container.cloudApi.inboundStep.prepare(parsed);
              await handler(ready as never);
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
