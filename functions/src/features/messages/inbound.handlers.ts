import type { InboundHandlers } from "../../jobs/inbound-consumer";

/** The inbound event types the inbox owns (registered in jobs/inbound-consumer.ts). */
export const INBOX_INBOUND_HANDLERS: InboundHandlers = {
  message: (c, e) => c.services.inbound.message(e),
  "message.update": (c, e) => c.services.inbound.messageUpdate(e),
  presence: (c, e) => c.services.inbound.presence(e),
  call: (c, e) => c.services.inbound.call(e),
  "command.result": (c, e) => c.services.inbound.commandResult(e),
};
