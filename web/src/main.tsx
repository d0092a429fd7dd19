import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { restoreSession } from "./lib/api-client";
import "./lib/i18n";

// the access token lives in memory only: after a load the refresh cookie brings the session back (if it is valid)
void restoreSession();

const root = document.getElementById("root");
if (!root) throw new Error("#root missing in index.html");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
