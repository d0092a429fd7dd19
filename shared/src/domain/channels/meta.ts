import * as z from "zod";

/** Meta's Graph API base URL for Messenger and Instagram; the stand-in is given as `graphApiUrl`. */
export const DEFAULT_META_GRAPH_API_URL = "https://graph.facebook.com/v23.0";

const graphId = z.string().trim().regex(/^\d{5,25}$/, "Invalid");
const base = {
  pageAccessToken: z.string().trim().max(1000).default(""),
  appSecret: z.string().trim().max(200).default(""),
  graphApiUrl: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().url().max(300).default(DEFAULT_META_GRAPH_API_URL)),
};

/** Facebook Messenger (`provider: "messenger"`): the Page and its token; `pageAccessToken`/`appSecret` are secrets. */
export const messengerFieldsSchema = z.object({ provider: z.literal("messenger"), pageId: graphId, ...base });
/** Instagram Direct (`provider: "instagram"`): the Instagram account id and its Page token. */
export const instagramFieldsSchema = z.object({ provider: z.literal("instagram"), instagramAccountId: graphId, ...base });
export type MessengerFields = z.infer<typeof messengerFieldsSchema>;
export type InstagramFields = z.infer<typeof instagramFieldsSchema>;
