/* Atende's service worker (issue 32, docs/adr/0097): hand-written, no build step, nothing downloaded at run time.
 * - caches the offline page and the icons at install; navigations go to the network first and, offline, get the
 *   "sem conexão" page (never a browser error); hashed assets (/assets/*) are cached as they are fetched;
 * - the version is the registration URL's `?v=` (the app's entry chunk): a deploy changes it, the new worker
 *   installs, takes over (skipWaiting + clients.claim) and the app shows its "nova versão" toast and reloads;
 * - Web Push: shows the notification; a click focuses an open window and takes it to `url` (or opens one); the app
 *   tells it when a ticket was read ("read"), and the ticket's notification is closed. */
const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const CACHE = `atende-${VERSION}`;
const SHELL = ["/offline.html", "/offline.js", "/icons/icon-192.png", "/icons/icon-512.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("atende-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws")) return;
  if (req.mode === "navigate") {
    event.respondWith(fetch(req).catch(() => caches.match("/offline.html")));
    return;
  }
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ||
          fetch(req).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              caches.open(CACHE).then((c) => c.put(req, copy));
            }
            return res;
          }),
      ),
    );
  }
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const options = { body: data.body || "", tag: data.tag || undefined, renotify: Boolean(data.tag), data: { url: data.url || "/" }, icon: "/icons/icon-192.png", badge: "/icons/icon-192.png" };
  event.waitUntil(self.registration.showNotification(data.title || "Atende", options));
});

/** Focus an open window of the app and take it to `url` (the app navigates without reloading), or open one. */
const openUrl = async (path) => {
  const url = new URL(path, self.location.origin);
  const wins = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const win = wins.find((w) => new URL(w.url).origin === self.location.origin);
  if (!win) return self.clients.openWindow(url.href);
  try {
    await win.focus();
  } catch {
    // focusing needs the click's user activation; the window is still taken to the ticket
  }
  win.postMessage({ type: "navigate", url: url.pathname + url.search });
  return win;
};

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const done = openUrl((event.notification.data && event.notification.data.url) || "/");
  // a dispatched (untrusted) event cannot be extended: the e2e test clicks through dispatchEvent (docs/adr/0097)
  if (event.isTrusted) event.waitUntil(done);
});

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "read" && msg.tag) {
    const done = self.registration.getNotifications({ tag: msg.tag }).then((list) => list.forEach((n) => n.close()));
    if (event.waitUntil) event.waitUntil(done);
  }
});
