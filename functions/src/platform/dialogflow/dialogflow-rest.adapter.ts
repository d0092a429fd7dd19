import { SignJWT, importPKCS8 } from "jose";

/**
 * DialogFlow ES over REST, no Google SDK: a service account's key signs a JWT (RS256), exchanged for an OAuth
 * access token (cached until shortly before it expires), then `detectIntent` on a session of the agent.
 * The token and API addresses come from our configuration (Google's by default; the local platform points them at
 * /simulator/dialogflow), never from the uploaded credentials (their token_uri could point anywhere).
 */
export type DialogflowServiceAccount = { client_email: string; private_key: string; project_id: string };

export type DialogflowQueryResult = {
  queryText?: string;
  fulfillmentText?: string;
  fulfillmentMessages?: DialogflowFulfillmentMessage[];
  intent?: { name?: string; displayName?: string; endInteraction?: boolean; liveAgentHandoff?: boolean; isFallback?: boolean };
  diagnosticInfo?: Record<string, unknown>;
  languageCode?: string;
};
export type DialogflowFulfillmentMessage = {
  platform?: string;
  text?: { text?: string[] };
  image?: { imageUri?: string; accessibilityText?: string };
  quickReplies?: { title?: string; quickReplies?: string[] };
  card?: { title?: string; subtitle?: string; imageUri?: string };
  liveAgentHandoff?: Record<string, unknown>;
  endInteraction?: Record<string, unknown>;
  payload?: Record<string, unknown>;
};

/** Why a call failed: the credentials (no network call made), Google refused, or a retry may help. */
export class DialogflowError extends Error {
  constructor(
    readonly kind: "credentials" | "rejected" | "unreachable",
    readonly step: "key" | "token" | "detectIntent",
    message: string,
  ) {
    super(message);
    this.name = "DialogflowError";
  }
}

export type DialogflowRest = {
  detectIntent(input: {
    credentials: DialogflowServiceAccount;
    projectName: string;
    sessionId: string;
    text: string;
    languageCode: string;
    signal?: AbortSignal;
  }): Promise<DialogflowQueryResult>;
};

export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
export const GOOGLE_DIALOGFLOW_API = "https://dialogflow.googleapis.com";
const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const DEFAULT_TIMEOUT_MS = 8_000;
/** a cached token is dropped this long before Google says it expires */
const TOKEN_MARGIN_S = 120;
const MAX_CACHED_TOKENS = 500;

export const createDialogflowRest = (opts: { tokenUrl?: string; apiBase?: string; fetch?: typeof fetch; now?: () => number } = {}): DialogflowRest => {
  const tokenUrl = opts.tokenUrl || GOOGLE_TOKEN_URL;
  const apiBase = (opts.apiBase || GOOGLE_DIALOGFLOW_API).replace(/\/+$/, "");
  const fetchFn = opts.fetch ?? fetch;
  const nowS = () => Math.floor((opts.now?.() ?? Date.now()) / 1000);
  /** by client_email and key: a rotated key gets its own token */
  const tokens = new Map<string, { token: string; expiresAt: number }>();

  const call = async (step: "token" | "detectIntent", url: string, init: RequestInit, signal?: AbortSignal) => {
    const timeout = AbortSignal.timeout(DEFAULT_TIMEOUT_MS);
    try {
      return await fetchFn(url, { ...init, redirect: "manual", signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (e) {
      throw new DialogflowError("unreachable", step, `DialogFlow ${step} unreachable${e instanceof Error && e.name === "PrivateUrlError" ? ": the address is not allowed (outbound guard)" : ""}`);
    }
  };
  /** the status only, never the answer's body: the reason may land in an internal note (docs/adr/0062) */
  const refused = (step: "token" | "detectIntent", status: number) =>
    status >= 500 || status === 429 || status === 408
      ? new DialogflowError("unreachable", step, `DialogFlow ${step} answered ${status}`)
      : new DialogflowError("rejected", step, `DialogFlow ${step} refused (${status})`);

  const accessToken = async (c: DialogflowServiceAccount, signal?: AbortSignal) => {
    const cacheKey = `${c.client_email}\n${c.private_key.slice(-64)}`;
    const cached = tokens.get(cacheKey);
    if (cached && cached.expiresAt - TOKEN_MARGIN_S > nowS()) return cached.token;
    let key: Awaited<ReturnType<typeof importPKCS8>>;
    try {
      key = await importPKCS8(c.private_key, "RS256");
    } catch {
      throw new DialogflowError("credentials", "key", "the service account's private_key is not a PKCS#8 RSA key");
    }
    const now = nowS();
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .setIssuer(c.client_email)
      .setAudience(tokenUrl)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    const res = await call(
      "token",
      tokenUrl,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
      },
      signal,
    );
    const text = await res.text().catch(() => "");
    if (!res.ok) throw refused("token", res.status);
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new DialogflowError("rejected", "token", "DialogFlow token: the answer is not JSON");
    }
    if (typeof body.access_token !== "string" || !body.access_token) throw new DialogflowError("rejected", "token", "DialogFlow token: no access_token");
    const ttl = typeof body.expires_in === "number" ? body.expires_in : 3600;
    if (tokens.size >= MAX_CACHED_TOKENS) tokens.delete(tokens.keys().next().value as string);
    tokens.set(cacheKey, { token: body.access_token, expiresAt: now + ttl });
    return body.access_token;
  };

  return {
    async detectIntent({ credentials, projectName, sessionId, text, languageCode, signal }) {
      const token = await accessToken(credentials, signal);
      const url = `${apiBase}/v2/projects/${encodeURIComponent(projectName)}/agent/sessions/${encodeURIComponent(sessionId)}:detectIntent`;
      const res = await call(
        "detectIntent",
        url,
        {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ queryInput: { text: { text: text.slice(0, 256), languageCode } } }),
        },
        signal,
      );
      const body = await res.text().catch(() => "");
      if (res.status === 401) tokens.clear();
      if (!res.ok) throw refused("detectIntent", res.status);
      try {
        const parsed = JSON.parse(body) as { queryResult?: DialogflowQueryResult };
        return parsed.queryResult ?? {};
      } catch {
        throw new DialogflowError("rejected", "detectIntent", "DialogFlow detectIntent: the answer is not JSON");
      }
    },
  };
};

/** The agent's answer as text lines: its text messages (or fulfillmentText when it has none). */
export const dialogflowAnswerText = (r: DialogflowQueryResult): string[] => {
  const lines = (r.fulfillmentMessages ?? [])
    .filter((m) => !m.platform || m.platform === "PLATFORM_UNSPECIFIED")
    .flatMap((m) => m.text?.text ?? [])
    .map((t) => t.trim())
    .filter(Boolean);
  if (lines.length) return lines;
  return r.fulfillmentText?.trim() ? [r.fulfillmentText.trim()] : [];
};

/** Whether the matched intent ends the conversation (DialogFlow's "end of conversation" or a live-agent handoff). */
export const dialogflowEndsConversation = (r: DialogflowQueryResult) =>
  r.intent?.endInteraction === true ||
  r.intent?.liveAgentHandoff === true ||
  r.diagnosticInfo?.end_conversation === true ||
  (r.fulfillmentMessages ?? []).some((m) => m.liveAgentHandoff || m.endInteraction);
