import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { createDialogflowRest } from "../../platform/dialogflow/dialogflow-rest.adapter";
import { createDialogflowTester } from "./dialogflow-test-client";

/** The test button's client with a fake network: what it sends to Google and how Google's answers map to codes. */
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
const input = { credentials: { client_email: "bot@agente-123.iam.gserviceaccount.com", private_key: privateKey, project_id: "agente-123" }, projectName: "agente-123", language: "pt-BR" as const };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const codeOf = async (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code);
const tester = (fetchFn: unknown) => createDialogflowTester(createDialogflowRest({ fetch: fetchFn as typeof fetch }));

describe("DialogFlow test client", () => {
  it("signs a service-account token, sends the test phrase to a new session of the project, answers the agent's words", async () => {
    const fetchFn = vi.fn(async (url: string | URL | Request) =>
      String(url).includes("oauth2")
        ? json(200, { access_token: "ya29.token", expires_in: 3599 })
        : json(200, { queryResult: { fulfillmentMessages: [{ text: { text: ["Olá! Como posso ajudar?"] } }], intent: { displayName: "Default Welcome Intent" } } }),
    );
    expect(await tester(fetchFn).testSession(input)).toEqual({ answer: ["Olá! Como posso ajudar?"], intent: "Default Welcome Intent", endInteraction: false });
    const [tokenCall, detectCall] = fetchFn.mock.calls as unknown as [[string, RequestInit], [string, RequestInit]];
    expect(tokenCall[0]).toBe("https://oauth2.googleapis.com/token");
    const assertion = new URLSearchParams(String(tokenCall[1].body)).get("assertion")!;
    const claims = JSON.parse(Buffer.from(assertion.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: input.credentials.client_email, aud: "https://oauth2.googleapis.com/token", scope: "https://www.googleapis.com/auth/cloud-platform" });
    expect(detectCall[0]).toMatch(/^https:\/\/dialogflow\.googleapis\.com\/v2\/projects\/agente-123\/agent\/sessions\/[\w-]+:detectIntent$/);
    expect((detectCall[1].headers as Record<string, string>).authorization).toBe("Bearer ya29.token");
    expect(JSON.parse(String(detectCall[1].body))).toEqual({ queryInput: { text: { text: "teste", languageCode: "pt-BR" } } });
  });

  it("maps Google's refusals and an unreachable network to clear codes", async () => {
    expect(await codeOf(tester(vi.fn(async () => json(400, { error: "invalid_grant" }))).testSession(input))).toBe("ERR_DIALOGFLOW_REJECTED");
    const noProject = vi.fn(async (url: string | URL | Request) => (String(url).includes("oauth2") ? json(200, { access_token: "t" }) : json(403, { error: { status: "PERMISSION_DENIED" } })));
    expect(await codeOf(tester(noProject).testSession(input))).toBe("ERR_DIALOGFLOW_REJECTED");
    const offline = vi.fn(async () => {
      throw new TypeError("fetch failed");
    });
    expect(await codeOf(tester(offline).testSession(input))).toBe("ERR_DIALOGFLOW_UNREACHABLE");
    expect(await codeOf(tester(vi.fn(async () => json(503, {}))).testSession(input))).toBe("ERR_DIALOGFLOW_UNREACHABLE");
  });

  it("refuses a key that is not a PKCS#8 RSA key without calling the network", async () => {
    const fetchFn = vi.fn();
    const bad = { ...input, credentials: { ...input.credentials, private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----" } };
    expect(await codeOf(tester(fetchFn).testSession(bad))).toBe("ERR_DIALOGFLOW_INVALID_CREDENTIALS");
    expect(fetchFn).not.toHaveBeenCalled();
  });
});
