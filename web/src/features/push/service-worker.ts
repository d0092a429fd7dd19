import i18n from "../../lib/i18n";
import { toast } from "../../lib/toast";

/** How long the "nova versão" toast shows before the app reloads itself. */
const RELOAD_AFTER_MS = 2500;

/**
 * Registers the service worker (web/public/sw.js) once the first screen is up (its own chunk, loaded after the
 * layout renders, so the first screen's weight is unchanged). The version in its URL is the app's entry chunk: a
 * deploy makes a new worker, which takes over; the app then shows "nova versão" and reloads.
 * `navigate(path)`: the worker asks it when a notification is clicked while the app is open; `reload`: the page's
 * reload (a test's stand-in).
 */
export const startServiceWorker = async (navigate: (path: string) => void, reload: () => void = () => location.reload()): Promise<void> => {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const entry = document.querySelector<HTMLScriptElement>('script[type="module"][src*="/assets/"]')?.src ?? "";
  const version = /\/assets\/([^/]+)\.js/.exec(entry)?.[1] ?? "dev";
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("message", (event: MessageEvent<{ type?: string; url?: string }>) => {
    if (event.data?.type === "navigate" && typeof event.data.url === "string" && event.data.url.startsWith("/")) navigate(event.data.url);
  });
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // the first install takes control too: only a replaced worker means a new version
    if (!hadController) return;
    toast.info(i18n.t("push:newVersion"), RELOAD_AFTER_MS);
    setTimeout(reload, RELOAD_AFTER_MS);
  });
  await navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version)}`, { scope: "/" });
};

