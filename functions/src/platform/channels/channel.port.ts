import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";

/**
 * How a connection reaches WhatsApp. "session-host": a held socket session (QR: Baileys or the simulator) driven
 * through the command queue. A webhook-based provider (the official Cloud API: webhooks in, HTTPS out, no session
 * host) is a second kind; where it plugs in: docs/adr/0020-channel-port.md. The other channels (Telegram, Messenger,
 * Instagram, the website chat) are one kind each, named as their provider (docs/adr/0088).
 */
export type ChannelKind = "session-host" | "cloud-api" | "telegram" | "messenger" | "instagram" | "webchat";

/** The commands the inbox sends to a conversation (send, edit, delete, react, mark read, typing, reject a call). */
export type ChannelCommand = Extract<OutboundCommand, { type: "send" | "edit" | "delete" | "react" | "read" | "presence" | "rejectCall" }>;

/** What a channel can do; the inbox asks before offering an action (a Cloud API number cannot edit, for one). */
export type ChannelCapabilities = {
  edit: boolean;
  delete: boolean;
  react: boolean;
  markRead: boolean;
  presence: boolean;
  rejectCall: boolean;
  /** hours after the customer's last message in which free text may be sent; null: no window (QR sessions) */
  replyWindowHours: number | null;
};

/** One connection's channel, as the inbox sees it. */
export type Channel = {
  kind: ChannelKind;
  capabilities: ChannelCapabilities;
  /** hands the command to the provider; the outcome arrives later as a `command.result` inbound event */
  dispatch(command: ChannelCommand): Promise<void>;
};

/** Chooses a connection's channel by its provider kind ("session-host" when absent). */
export type Channels = { forConnection(connection: { whatsappId: number; kind?: ChannelKind }): Channel };
