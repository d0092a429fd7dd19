import { useUnreadChats } from "../../features/chats/hooks/use-unread-chats";
import { useConnectionsBadge } from "../../features/connections/hooks/use-connections-badge";

/**
 * Hook points for side-menu indicators, filled in by the features that know the answer:
 * - connections: red badge when any connection is qrcode, PAIRING, DISCONNECTED, TIMEOUT or OPENING
 *   (evaluated after a 2000 ms debounce) — the connections feature replaces the body with its own hook;
 * - chats: a dot when the user has unread internal messages — the internal-chat feature replaces it.
 */
export const useConnectionsAlert = (): boolean => useConnectionsBadge();

export const useUnreadInternalChats = (): boolean => useUnreadChats().length > 0;
