// first: the session's restore starts before anything else runs
import { sessionRestored } from "./boot-session";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { preloadPublic, preloadSignedIn } from "./app/router";
import { translationsReady } from "./lib/i18n";
import { maybeSignedIn } from "./lib/session-storage";

/** How long at most a signed-in browser's first render waits for the session and the signed-in code (ADR 0052). */
const SIGNED_IN_WAIT_MS = 1_000;

if (maybeSignedIn()) {
  // while the refresh cookie brings the session back (boot-session.ts), the signed-in screens' code loads; the first
  // render waits for both (at most SIGNED_IN_WAIT_MS), so it renders that screen itself instead of a loader first,
  // and the main thread stays free meanwhile for the refresh's answer, which starts the first lists (session-boot.js)
  const code = preloadSignedIn(location.pathname);
  const wait = new Promise<void>((resolve) => setTimeout(resolve, SIGNED_IN_WAIT_MS));
  await Promise.race([sessionRestored.then((auth) => (auth ? code : preloadPublic(location.pathname))), wait]);
}
// a new visitor's login page renders whole in the first render (no fallback first)
else await preloadPublic(location.pathname);
// the first screen's translations (the code above is already on its way)
await translationsReady;

const root = document.getElementById("root");
if (!root) throw new Error("#root missing in index.html");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
