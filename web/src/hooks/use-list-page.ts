import { useMemo, useState } from "react";
import { DEBOUNCE_SEARCH_MS } from "@atende/shared/constants/business";
import { useDebounced } from "./use-debounced";

type InfiniteList = { data?: { pages: object[] } };
type PageOf<Q> = NonNullable<Q extends { data?: infer D } ? D : never> extends { pages: (infer P)[] } ? P : never;
type RowOf<Q, K extends keyof PageOf<Q>> = PageOf<Q>[K] extends readonly (infer R)[] ? R : never;

/**
 * The state of a searchable list page (tags, quick messages, file lists ...): the search box's text, the
 * debounced lower-cased term given to `useList` (spec 3 section 5), the rows of every loaded page (`rowsKey`
 * of each page) and the row being edited ("new" to add). The table (`DataTable`) loads the next page on scroll
 * and keeps the row being deleted.
 */
export function useListPage<Q extends InfiniteList, K extends keyof PageOf<Q>>(useList: (search: string) => Q, rowsKey: K) {
  const [text, setText] = useState("");
  const search = useDebounced(text.trim().toLowerCase(), DEBOUNCE_SEARCH_MS);
  const query = useList(search);
  const rows = useMemo(() => (query.data?.pages ?? []).flatMap((p) => (p as PageOf<Q>)[rowsKey] as RowOf<Q, K>[]), [query.data, rowsKey]);
  const [editing, setEditing] = useState<RowOf<Q, K> | "new" | null>(null);
  return { searchBox: { value: text, onChange: setText }, query, rows, editing, setEditing };
}
