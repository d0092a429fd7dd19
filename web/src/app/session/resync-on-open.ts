import type { QueryClient } from "@tanstack/react-query";
import type { RealtimeOpened } from "../../lib/realtime";

/**
 * The socket just opened: any query read before then may have missed its events (published before the socket
 * existed, or during the handshake, when API Gateway refuses posts to it), so it is invalidated and, if on screen,
 * read again. A fetch under way is left to finish rather than cancelled and restarted (it would delay the first
 * screen); a query read after the socket opened is current and left alone.
 */
export const resyncOnOpen = (queryClient: QueryClient, { openedAt }: Pick<RealtimeOpened, "openedAt">) =>
  queryClient.invalidateQueries({ predicate: (query) => query.state.dataUpdatedAt < openedAt }, { cancelRefetch: false });
