import type { Campaign } from "../../domain/campaigns/campaign";

/** What a campaign's report counts (kept as counters on the campaign, so no request walks its recipients). */
export type CampaignCounts = {
  /** recipients with a valid WhatsApp number (those reached so far while the list is being walked) */
  valid: number;
  delivered: number;
  failed: number;
  /** recipients skipped because their number is on the opt-out list (LGPD; also in `failed`) */
  optedOut?: number;
  confirmationRequested: number;
  confirmed: number;
  /** delivered / valid x 100 */
  progress: number;
};

/** One campaign: the entity fields of spec 3 section 3 plus light relations (names, not every contact). */
export type CampaignView = Campaign & {
  contactList: { id: number; name: string } | null;
  whatsapp: { id: number; name: string } | null;
  counts: CampaignCounts;
};

/** GET /campaigns/ */
export type CampaignListResponse = { records: CampaignView[]; hasMore: boolean };

/** `company-{id}-campaign` event data. */
export type CampaignEventData = { action: "create" | "update"; record: CampaignView } | { action: "delete"; id: number };
