import type { InboundHandlers } from "../../../platform/queues/inbound-handlers";
import type { CampaignDispatchService } from "../../campaigns/campaign-dispatch.service";
import type { InboundService } from "./inbound.service";

/** The inbound event types the inbox owns (registered in app/inbound-consumer.ts). */
export const INBOX_INBOUND_HANDLERS: InboundHandlers<{
  services: { inbound: InboundService; campaignDispatch: Pick<CampaignDispatchService, "onInboundMessage" | "onCommandResult"> };
}> = {
  message: async (c, e) => {
    await c.services.inbound.message(e);
    await c.services.campaignDispatch.onInboundMessage(e); // an answer to a campaign's confirmation request
  },
  "message.update": (c, e) => c.services.inbound.messageUpdate(e),
  presence: (c, e) => c.services.inbound.presence(e),
  call: (c, e) => c.services.inbound.call(e),
  "command.result": async (c, e) => {
    await c.services.inbound.commandResult(e);
    await c.services.campaignDispatch.onCommandResult(e); // a campaign message that failed after all
  },
};
