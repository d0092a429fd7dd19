import type { Channel, ChannelCapabilities, ChannelCommand } from "../channel.port";

/**
 * Messenger and Instagram Direct (docs/adr/0090): text and files; no edits, no deleting for everyone, no typing
 * presence, no calls. The reply window is Meta's 24 hours (then 7 days with the HUMAN_AGENT tag: messaging-window.ts).
 */
export const META_CAPABILITIES: ChannelCapabilities = {
  edit: false,
  delete: false,
  react: false,
  markRead: false,
  presence: false,
  rejectCall: false,
  replyWindowHours: 24,
};

/** Hands each command to the Meta work queue; the sender (meta-sender.ts) calls the Send API and reports the outcome. */
export const createMetaChannel = (deps: { enqueue(command: ChannelCommand): Promise<void> }): Omit<Channel, "kind"> => ({
  capabilities: META_CAPABILITIES,
  dispatch: (command) => deps.enqueue(command),
});
