import * as z from "zod";
import { pageNumberParam, searchParamParam } from "./paging";

/** One number on a company's opt-out list. */
export type OptOutView = {
  number: string;
  /** the contact the number belongs to, when one exists */
  contactId: number | null;
  /** when the person asked */
  optedOutAt: string;
  /** the message that asked ("SAIR"); "manual" entries have "" */
  message: string;
  /** what put it there: a reply to a campaign, a message in any ticket, an admin */
  source: "campaign" | "ticket" | "manual";
  /** the campaign replied to, when source is "campaign" */
  campaignId: number | null;
};

/** GET /opt-outs: the shared paging query plus a number prefix search. */
export const optOutListQuerySchema = z.object({ searchParam: searchParamParam, pageNumber: pageNumberParam });
export type OptOutListResponse = { optOuts: OptOutView[]; count: number; hasMore: boolean };

/** GET /contacts/{id}/opt-out: the drawer's state. */
export type ContactOptOutState = { optedOut: boolean; optOut: OptOutView | null };

/** A background LGPD job (export or erasure of one contact), as the API and the realtime event show it. */
export type LgpdJobView = {
  id: string;
  kind: "export" | "erase";
  contactId: number;
  status: "running" | "done" | "failed";
  /** 0..100 */
  progress: number;
  /** export only, when done: the path to download the ZIP from (valid until expiresAt) */
  downloadUrl: string | null;
  expiresAt: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
};

/** 202 answer of an export or erasure that runs in the background (large histories). */
export type LgpdJobAccepted = { job: LgpdJobView };

/** 200 answer of an erasure done at once (small histories). */
export type EraseResult = { erased: true; contactId: number; removed: Record<string, number> };

/** Realtime: `company-{id}-lgpd`, event `lgpd`, sent to the company's admins. */
export type LgpdJobEvent = { action: "update"; job: LgpdJobView };
