import { type UIEvent, useCallback } from "react";

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
