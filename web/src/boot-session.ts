import { restoreSession } from "./lib/api-client";

/**
 * Imported first by main.tsx: the refresh cookie is traded for an access token (the token lives in memory only)
 * while the rest of the entry and the first translations load, not after them (issue 15: first card ≤ 1 s).
 */
void restoreSession();
