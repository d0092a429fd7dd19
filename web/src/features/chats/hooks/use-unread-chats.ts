import { useSession } from "../../../lib/session/session-context";
import { unreadsOf, useChatsList } from "../api/chats";

/**
 * The caller's chats with unread messages, from the first page of GET /chats (newest activity first: a chat
 * with a new message is always on it). Nothing is asked when the plan has no internal chat.
 */
export const useUnreadChats = () => {
  const session = useSession();
  const userId = session.status === "authenticated" ? session.user.id : 0;
  const enabled = Boolean(userId) && session.planSettled && session.planFlags.useInternalChat === true;
  const list = useChatsList("", enabled);
  const chats = enabled ? (list.data?.pages[0]?.records ?? []) : [];
  return chats.filter((c) => unreadsOf(c, userId) > 0).map((c) => ({ chat: c, unreads: unreadsOf(c, userId) }));
};
