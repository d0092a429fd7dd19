import type { Channel, ChannelCapabilities, ChannelCommand } from "../channel.port";

/** What a Telegram bot can do here: edit its text messages; no read receipts, typing, reactions or calls. */
export const TELEGRAM_CAPABILITIES: ChannelCapabilities = {
  edit: true,
  delete: false,
  react: false,
  markRead: false,
  presence: false,
  rejectCall: false,
  replyWindowHours: null,
};

/**
 * Telegram behind the channel port (docs/adr/0088): `dispatch` queues the command for the sender (a job), which calls the
 * Bot API and reports the outcome as a `command.result` inbound event like the session host does. Commands the
 * bot cannot carry out (read, presence) are accepted and dropped.
 */
export const createTelegramChannel = (deps: { run(command: ChannelCommand): Promise<void> }): Channel => ({
  kind: "telegram",
  capabilities: TELEGRAM_CAPABILITIES,
  dispatch: (command) => (command.type === "send" || command.type === "edit" ? deps.run(command) : Promise.resolve()),
});
