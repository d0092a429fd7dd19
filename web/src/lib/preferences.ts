import { useCallback, useSyncExternalStore } from "react";

/**
 * Small settings kept in localStorage and shared by every component that reads them:
 * `const [volume, setVolume] = usePreference(VOLUME)`.
 */
export type Preference<T> = { key: string; fallback: () => T; parse: (raw: string) => T | undefined };

export const THEME_MODE: Preference<"light" | "dark"> = {
  key: "themeMode",
  fallback: () => (typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"),
  parse: (raw) => (raw === "light" || raw === "dark" ? raw : undefined),
};

/** Notification volume 0..1 in steps of 0.1 (spec 1 section 9). */
export const VOLUME: Preference<number> = {
  key: "volume",
  fallback: () => 1,
  parse: (raw) => {
    const n = Number(raw);
    return Number.isFinite(n) && n >= 0 && n <= 1 ? Math.round(n * 10) / 10 : undefined;
  },
};

/** Side menu start state: open or closed (spec 1 section 2). */
export const DRAWER_OPEN: Preference<boolean> = {
  key: "drawerOpen",
  fallback: () => true,
  parse: (raw) => (raw === "true" ? true : raw === "false" ? false : undefined),
};

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  const onStorage = () => listener();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
};

export const readPreference = <T>(pref: Preference<T>): T => {
  const raw = localStorage.getItem(pref.key);
  return (raw === null ? undefined : pref.parse(raw)) ?? pref.fallback();
};

export const writePreference = <T>(pref: Preference<T>, value: T) => {
  localStorage.setItem(pref.key, String(value));
  listeners.forEach((listener) => listener());
};

export function usePreference<T>(pref: Preference<T>): [T, (value: T) => void] {
  const raw = useSyncExternalStore(subscribe, () => localStorage.getItem(pref.key));
  const value = (raw === null ? undefined : pref.parse(raw)) ?? pref.fallback();
  const set = useCallback((next: T) => writePreference(pref, next), [pref]);
  return [value, set];
}
