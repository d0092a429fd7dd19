/** GET /quick-messages/{id}, /quick-messages/list item. `geral`: visible to the whole company, else only to `userId`. */
export type QuickMessageResponse = {
  id: number;
  shortcode: string;
  message: string;
  geral: boolean;
  status: boolean;
  isMedia: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  userId: number;
  companyId: number;
  createdAt: string;
  updatedAt: string;
};

/** GET /quick-messages (searchParam, pageNumber). */
export type QuickMessageListResponse = { records: QuickMessageResponse[]; count: number; hasMore: boolean };

/** Realtime `quickmessage` (company audience). */
export type QuickMessageEventData = { action: "create" | "update"; record: QuickMessageResponse } | { action: "delete"; id: number };
