import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";

/** Sends commands to the session host (outbound.fifo, grouped per connection, deduplicated by commandId). */
export type CommandQueue = { send(command: OutboundCommand): Promise<void> };
