import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/** How long logout waits at most for this device's subscription to be forgotten. */
const FORGET_WAIT_MS = 1500;

/**
 * The installable app's side of the signed-in layout (issue 32): the service worker is registered after the first
 * screen, from its own chunk (the first screen's weight stays as it was); opening a ticket closes its notification.
 */
export function usePushApp(navigate: (path: string) => void) {
  const nav = useRef(navigate);
  nav.current = navigate;
  const { pathname } = useLocation();
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    const start = () => void import("./service-worker").then((m) => m.startServiceWorker((path) => nav.current(path))).catch(() => undefined);
    const id = setTimeout(() => (window.requestIdleCallback ? window.requestIdleCallback(start, { timeout: 3000 }) : start()), 0);
    return () => clearTimeout(id);
  }, []);
  useEffect(() => {
    const uuid = /^\/tickets\/([0-9a-f-]{36})/.exec(pathname)?.[1];
    if (uuid) navigator.serviceWorker?.controller?.postMessage({ type: "read", tag: `ticket-${uuid}` });
  }, [pathname]);
}

/** Logout: this device's subscription is removed first (at most FORGET_WAIT_MS), so the next user gets none of it. */
export const forgetPushDevice = (): Promise<void> =>
  Promise.race([import("./push-device").then((m) => m.forgetPushDevice()), new Promise<void>((r) => setTimeout(r, FORGET_WAIT_MS))]).catch(() => undefined);
