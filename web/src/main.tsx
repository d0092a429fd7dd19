// first: the session's restore starts before the translations are awaited (lib/i18n.ts)
import "./boot-session";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { preloadPublic, preloadSignedIn } from "./app/router";
import { translationsReady } from "./lib/i18n";
import { maybeSignedIn } from "./lib/session-storage";

// while the refresh cookie brings the session back (boot-session.ts), a browser that signed in before fetches the signed-in screens' code (a new visitor's login page does not)
if (maybeSignedIn()) void preloadSignedIn(location.pathname);
// a new visitor's login page renders whole in the first render (no fallback first)
else await preloadPublic(location.pathname);
// the first screen's translations (the signed-in code above is already on its way)
await translationsReady;

const root = document.getElementById("root");
if (!root) throw new Error("#root missing in index.html");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
