import { useEffect, useState } from "react";

/** `value` once it stopped changing for `ms` (searches: 500 ms). */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Search text sent to the server: "" until 3 characters are typed (spec 1 section 5). */
export const searchTerm = (text: string, min = 3) => (text.trim().length >= min ? text.trim() : "");
