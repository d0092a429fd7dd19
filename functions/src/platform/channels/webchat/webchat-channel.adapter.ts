import { randomUUID } from "node:crypto";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { Channel, ChannelCommand } from "../channel.port";

/**
 * The website chat's channel (docs/adr/0092): there is no outside provider; a message to a visitor is already
 * stored by the inbox, so sending is telling the visitor (a push to their open widget, when there is one; the
 * widget also reads `GET messages`) and reporting the command done, which marks the message sent like a
 * provider's accept. Edits, reactions, read marks and typing are not offered.
 */
export const createWebchatChannel = (deps: {
  report: (event: InboundEvent) => Promise<void>;
  /** the realtime push to the visitor's sockets, if any are open (a failure is the push's own: the widget also reads) */
  push?: (command: Extract<ChannelCommand, { type: "send" }>) => Promise<void>;
}): Channel => ({
  kind: "webchat",
  capabilities: { edit: false, delete: false, react: false, markRead: false, presence: false, rejectCall: false, replyWindowHours: null },
  async dispatch(command) {
    const base = { eventId: randomUUID(), companyId: command.companyId, whatsappId: command.whatsappId };
    if (command.type !== "send") {
      await deps.report({ ...base, type: "command.result", commandId: command.commandId, ok: false, error: "ERR_CHANNEL_UNSUPPORTED" });
      return;
    }
    await deps.push?.(command);
    await deps.report({ ...base, type: "command.result", commandId: command.commandId, messageId: command.messageId, ok: true });
  },
});
