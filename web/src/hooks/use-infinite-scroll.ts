import { type UIEvent, useCallback } from "react";
import { LIST_SCROLL_BOTTOM_PX } from "@atende/shared/constants/business";

/** onScroll handler loading the next page within `thresholdPx` of the bottom (lists: 100 px). */
export function useLoadMoreOnScroll(opts: { hasMore: boolean; loading: boolean; loadMore: () => void; thresholdPx?: number }) {
  const { hasMore, loading, loadMore, thresholdPx = 100 } = opts;
  return useCallback(
    (e: UIEvent<HTMLElement>) => {
      const el = e.currentTarget;
      if (hasMore && !loading && el.scrollHeight - (el.scrollTop + el.clientHeight) < thresholdPx) loadMore();
    },
    [hasMore, loading, loadMore, thresholdPx],
  );
}

/** The same handler for a react-query infinite query: the next page loads within 100 px of the bottom. */
export function useInfiniteQueryScroll(query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }) {
  const { fetchNextPage } = query;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  return useLoadMoreOnScroll({ hasMore: query.hasNextPage, loading: query.isFetchingNextPage, loadMore, thresholdPx: LIST_SCROLL_BOTTOM_PX });
}
