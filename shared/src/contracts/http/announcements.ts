import type { AnnouncementPriority } from "../../domain/announcements/announcement";

/** An announcement (platform-wide, written by super users). `mediaUrl`: GET it with the access token. */
export type AnnouncementResponse = {
  id: number;
  title: string;
  text: string;
  priority: AnnouncementPriority;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  createdAt: string;
  updatedAt: string;
};

/** GET /announcements (searchParam, pageNumber): newest first; non-super users get only active ones. */
export type AnnouncementListResponse = { records: AnnouncementResponse[]; hasMore: boolean };

/** Realtime `announcement` (every company). An announcement made inactive arrives as a delete. */
export type AnnouncementEventData = { action: "create" | "update"; record: AnnouncementResponse } | { action: "delete"; id: number };
