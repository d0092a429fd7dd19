import * as z from "zod";

/** Spec 3: chat titles and internal messages. Limits are ours (the spec gives none). */
export const CHAT_TITLE_MAX = 100;
export const CHAT_MESSAGE_MAX = 4000;
/** Spec 3 section 9: older messages load when scrolled within this distance of the top. */
export const CHAT_LOAD_MORE_TOP_PX = 600;
/** Page size of GET /chats/{id}/messages. */
export const CHAT_MESSAGES_PAGE = 20;

/** A member as the browser sends it: the user's id, or the user object picked in the dialog. */
const memberRef = z.union([z.coerce.number().int().positive(), z.object({ id: z.coerce.number().int().positive() }).transform((u) => u.id)]);

/**
 * POST /chats and PUT /chats/{id}: `{ title, users }`. Messages are i18n keys of the chats namespace
 * (the spec's alerts "Por favor, preencha o título da conversa." / "... pelo menos um usuário.").
 */
export const chatInputSchema = z.object({
  title: z.string().trim().min(1, "chats.validation.titleRequired").max(CHAT_TITLE_MAX),
  users: z.array(memberRef).min(1, "chats.validation.usersRequired").max(500),
});
export type ChatInput = z.infer<typeof chatInputSchema>;

/** True when the text would be sent (the composer ignores empty or whitespace-only text). */
export const isSendableChatMessage = (text: string) => text.trim().length > 0;

/** POST /chats/{id}/messages: `{ message }`, never empty or whitespace-only. */
export const chatMessageInputSchema = z.object({
  message: z.string().max(CHAT_MESSAGE_MAX).refine(isSendableChatMessage, "chats.validation.messageRequired"),
});
