import type { InboundEvent } from "@atende/shared/contracts/queue-messages";

/**
 * Puts events on inbound.fifo from the functions side (the Cloud API webhook and sender), with the session host's
 * group and dedup ids: group `${companyId}:${whatsappId}:${chatJid}` (order per chat), dedup connection + event id.
 */
export type InboundQueue = { put(event: InboundEvent, chatJid?: string): Promise<void> };

export const inboundGroupId = (event: Pick<InboundEvent, "companyId" | "whatsappId">, chatJid?: string) =>
  (chatJid ? `${event.companyId}:${event.whatsappId}:${chatJid}` : `${event.companyId}:${event.whatsappId}`).slice(0, 128);
export const inboundDedupId = (event: Pick<InboundEvent, "companyId" | "whatsappId" | "eventId">) =>
  `${event.companyId}:${event.whatsappId}:${event.eventId}`.replace(/[^\w!"#$%&'()*+,\-./:;<=>?@[\\\]^`{|}~]/g, "_").slice(0, 128);

/** The chat an event belongs to (its message group), when it has one. */
export const chatOfEvent = (event: InboundEvent): string | undefined =>
  event.type === "message" ? event.message.chatJid : "chatJid" in event && typeof event.chatJid === "string" ? event.chatJid : undefined;
