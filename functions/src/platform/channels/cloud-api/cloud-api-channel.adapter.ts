import type { Channel, ChannelCapabilities, ChannelCommand } from "../channel.port";
import { CLOUD_API_REPLY_WINDOW_HOURS } from "@atende/shared/domain/cloud-api/reply-window";

/** What a Cloud API number can do: no editing, no deleting for everyone, no typing presence, no call rejection. */
export const CLOUD_API_CAPABILITIES: ChannelCapabilities = {
  edit: false,
  delete: false,
  react: true,
  markRead: true,
  presence: false,
  rejectCall: false,
  replyWindowHours: CLOUD_API_REPLY_WINDOW_HOURS,
};

/**
 * The official WhatsApp Cloud API (webhooks in, HTTPS out, no session host). `dispatch` only hands the command to
 * the Cloud API work queue (the jobs queue in AWS); the sender (cloud-api-sender.ts) makes the Graph calls, paced
 * and retried, and reports the outcome as a `command.result` inbound event like the session host does.
 */
export const createCloudApiChannel = (deps: { enqueue(command: ChannelCommand): Promise<void> }): Channel => ({
  kind: "cloud-api",
  capabilities: CLOUD_API_CAPABILITIES,
  dispatch: (command) => deps.enqueue(command),
});
