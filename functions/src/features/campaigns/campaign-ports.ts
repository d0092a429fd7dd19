import type { CampaignSettings } from "@atende/shared/domain/campaign-settings/campaign-settings";

/** One recipient of a contact list, as campaigns need it. Only `isWhatsappValid` ones are sent to. */
export type CampaignRecipient = { id: number; name: string; number: string; email: string; isWhatsappValid: boolean };

/**
 * What campaigns need from contact lists (wired to the contact-lists feature in the container). `pageItems` reads a
 * bounded page from a cursor, so a campaign of any size is walked one recipient per job step.
 */
export type CampaignRecipients = {
  findList(companyId: number, contactListId: number): Promise<{ id: number; name: string } | null>;
  pageItems(companyId: number, contactListId: number, cursor?: string, limit?: number): Promise<{ items: CampaignRecipient[]; next?: string }>;
};

/** What campaigns need from campaign settings: pacing and custom variables (defaults when none are saved). */
export type CampaignPacing = { get(companyId: number): Promise<CampaignSettings> };

/** Seconds to wait after the `sent`-th message: a longer pause after every `longerIntervalAfter` messages. */
export const pacingDelaySeconds = (s: Pick<CampaignSettings, "messageInterval" | "longerIntervalAfter" | "greaterInterval">, sent: number) =>
  Math.min(900, s.longerIntervalAfter > 0 && sent > 0 && sent % s.longerIntervalAfter === 0 ? s.greaterInterval : s.messageInterval);
