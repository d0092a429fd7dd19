/** A member of an internal chat, with their own unread count (spec 3: users (userId, unreads, user)). */
export type ChatMemberResponse = { userId: number; unreads: number; user: { id: number; name: string } };

/** GET /chats record, POST /chats and PUT /chats/{id} answer. */
export type ChatResponse = {
  id: number;
  uuid: string;
  title: string;
  ownerId: number;
  users: ChatMemberResponse[];
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
};

/** GET /chats (searchParam, pageNumber): the caller's chats, newest activity first. */
export type ChatListResponse = { records: ChatResponse[]; hasMore: boolean };

export type ChatMessageResponse = {
  id: string;
  chatId: number;
  senderId: number;
  sender: { id: number; name: string };
  message: string;
  createdAt: string;
};

/** GET /chats/{id}/messages (pageNumber): page 1 holds the newest messages; each page's records are oldest first. */
export type ChatMessagesResponse = { records: ChatMessageResponse[]; hasMore: boolean };

/**
 * Realtime `chat` event, sent only to the chat's members (channel `company-{id}-chat`):
 * create/update carry the chat; new-message the message and the chat with fresh unread counts.
 */
export type ChatEventData =
  | { action: "create" | "update"; chat: ChatResponse }
  | { action: "delete"; id: number }
  | { action: "new-message"; newMessage: ChatMessageResponse; chat: ChatResponse };
