import type { CampaignStatus } from "../../domain/campaigns/campaign";

/** What a campaign's report counts (kept as counters on the campaign, so no request walks its recipients). */
export type CampaignCounts = {
  /** recipients with a valid WhatsApp number (those reached so far while the list is being walked) */
  valid: number;
  delivered: number;
  failed: number;
  confirmationRequested: number;
  confirmed: number;
  /** delivered / valid x 100 */
  progress: number;
};

/** One campaign: the entity fields of spec 3 section 3 plus light relations (names, not every contact). */
export type CampaignView = {
  id: number;
  companyId: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  status: CampaignStatus;
  confirmation: boolean;
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagListId: number | "Nenhuma";
  fileListId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  contactList: { id: number; name: string } | null;
  whatsapp: { id: number; name: string } | null;
  counts: CampaignCounts;
  createdAt: string;
  updatedAt: string;
};

/** GET /campaigns/ */
export type CampaignListResponse = { records: CampaignView[]; hasMore: boolean };

/** `company-{id}-campaign` event data. */
export type CampaignEventData = { action: "create" | "update"; record: CampaignView } | { action: "delete"; id: number };
