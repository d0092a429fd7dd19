import { useEffect, useState } from "react";

/** The current time, re-rendered every `intervalMs` (age labels refresh every 30 s). */
export function useNow(intervalMs: number) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
