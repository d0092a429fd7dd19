import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { inboundEventSchema, type InboundEvent } from "@atende/shared/contracts/queue-messages";
import { METRIC } from "@atende/shared/contracts/metric-names";
import type { Container } from "./container";
import type { InboundHandlers as FeatureInboundHandlers } from "../platform/queues/inbound-handlers";
import { whatsappsInboundHandlers } from "../features/whatsapps/whatsapps.inbound";

type Handler<T extends InboundEvent["type"]> = (container: Container, event: Extract<InboundEvent, { type: T }>) => Promise<void>;
export type InboundHandlers = FeatureInboundHandlers<Container>;

/**
 * Events from the session host (inbound.fifo). Each feature registers the event types it owns:
 * messages/acks/presence/calls -> the inbox; connection state and number checks -> whatsapps.
 */
export const INBOUND_HANDLERS: InboundHandlers = {
  // the inbox module's (features/inbox/inbox.module.ts); campaigns follow on messages and command results
  message: async (c, e) => {
    await c.modules.inbox.inbound.message(e);
    await c.services.campaignDispatch.onInboundMessage(e); // an answer to a campaign's confirmation request
  },
  "message.update": (c, e) => c.modules.inbox.inbound["message.update"](e),
  presence: (c, e) => c.modules.inbox.inbound.presence(e),
  call: (c, e) => c.modules.inbox.inbound.call(e),
  "command.result": async (c, e) => {
    await c.modules.inbox.inbound["command.result"](e);
    await c.services.campaignDispatch.onCommandResult(e); // a campaign message that failed after all
  },
  ...whatsappsInboundHandlers,
  "contacts.listed": (c, e) => c.modules.inbox.inbound["contacts.listed"](e),
  "contact.picture": (c, e) => c.modules.inbox.inbound["contact.picture"](e),
  "contact.identity": (c, e) => c.modules.inbox.inbound["contact.identity"](e),
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
  await Promise.all(
    [...groups.entries()].map(async ([group, records]) => {
      for (const record of records) {
        if (failedGroups.has(group)) {
          failures.push({ itemIdentifier: record.messageId });
          continue;
        }
        const sentAt = Number(record.attributes?.SentTimestamp);
        if (sentAt > 0) container.metrics.timing(METRIC.queueAge, Math.max(0, container.clock().getTime() - sentAt), { queue: "inbound" });
        let parsed: InboundEvent;
        try {
          parsed = inboundEventSchema.parse(JSON.parse(record.body));
        } catch (err) {
          container.logger.error("inbound: malformed event dropped", { messageId: record.messageId, err: String(err) });
          continue;
        }
        const handler = INBOUND_HANDLERS[parsed.type] as Handler<typeof parsed.type> | undefined;
        if (!handler) {
          container.logger.warn("inbound: no handler", { type: parsed.type });
          continue;
        }
        try {
          await handler(container, parsed as never);
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
