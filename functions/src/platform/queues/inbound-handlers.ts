import type { InboundEvent } from "@atende/shared/contracts/queue-messages";

/**
 * The inbound events (inbound.fifo) a feature handles. `D` is what its handlers need, written by the feature as a
 * structural slice (e.g. `{ services: { inbound: InboundService } }`); the composition root (app/) passes itself,
 * so a feature never imports app/ or the consumer (that import made a circle).
 */
export type InboundHandlers<D> = { [T in InboundEvent["type"]]?: (deps: D, event: Extract<InboundEvent, { type: T }>) => Promise<void> };
