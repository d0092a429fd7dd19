import { SignJWT, importPKCS8 } from "jose";
import { randomUUID } from "node:crypto";
import type { DialogflowLanguage } from "@atende/shared/domain/queue-integrations/queue-integration";
import { AppError } from "../../platform/errors";

export type DialogflowCredentials = { client_email: string; private_key: string; project_id: string };

/** Port: opens a DialogFlow session with the given service account and sends one test phrase. */
export type DialogflowClient = {
  /** Resolves when DialogFlow answered; throws AppError ERR_DIALOGFLOW_INVALID_CREDENTIALS / _REJECTED / _UNREACHABLE. */
  testSession(input: { credentials: DialogflowCredentials; projectName: string; language: DialogflowLanguage }): Promise<void>;
};

// fixed Google endpoints: the credentials' own token_uri is not followed (it could point anywhere)
const TOKEN_URL = "https://oauth2.googleapis.com/token";
const DETECT_URL = (project: string, session: string) =>
  `https://dialogflow.googleapis.com/v2/projects/${encodeURIComponent(project)}/agent/sessions/${session}:detectIntent`;
const TIMEOUT_MS = 8_000;

/**
 * The Google adapter: signs a service-account JWT (RS256), exchanges it for an access token, then calls
 * detectIntent with a test phrase. No Google SDK needed. `fetchFn` is replaceable for tests.
 */
export const createGoogleDialogflowClient = (fetchFn: typeof fetch = fetch): DialogflowClient => ({
  async testSession({ credentials, projectName, language }) {
    let key: Awaited<ReturnType<typeof importPKCS8>>;
    try {
      key = await importPKCS8(credentials.private_key, "RS256");
    } catch {
      throw new AppError("ERR_DIALOGFLOW_INVALID_CREDENTIALS", { reason: "private_key" });
    }
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: "https://www.googleapis.com/auth/cloud-platform" })
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .setIssuer(credentials.client_email)
      .setAudience(TOKEN_URL)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    const call = async (url: string, init: RequestInit) => {
      try {
        return await fetchFn(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
      } catch {
        throw new AppError("ERR_DIALOGFLOW_UNREACHABLE");
      }
    };
    const tokenRes = await call(TOKEN_URL, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
    });
    if (tokenRes.status >= 500) throw new AppError("ERR_DIALOGFLOW_UNREACHABLE");
    if (!tokenRes.ok) throw new AppError("ERR_DIALOGFLOW_REJECTED", { step: "token" });
    const { access_token: accessToken } = (await tokenRes.json()) as { access_token?: string };
    if (!accessToken) throw new AppError("ERR_DIALOGFLOW_REJECTED", { step: "token" });
    const detect = await call(DETECT_URL(projectName, randomUUID()), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ queryInput: { text: { text: "teste", languageCode: language } } }),
    });
    if (detect.status >= 500) throw new AppError("ERR_DIALOGFLOW_UNREACHABLE");
    if (!detect.ok) throw new AppError("ERR_DIALOGFLOW_REJECTED", { step: "detectIntent" });
  },
});
