import { describe, expect, it } from "vitest";
import { signatureFor, verificationChallenge, verifySignature } from "./webhook-signature";

describe("webhook signature (X-Hub-Signature-256) and verification handshake", () => {
  const body = '{"object":"whatsapp_business_account","entry":[]}';

  it("accepts the HMAC-SHA256 of the raw body keyed by the app secret, as sha256=<hex>", () => {
    // the known answer: HMAC-SHA256("test", key "secret")
    expect(signatureFor("test", "secret")).toBe("sha256=0329a06b62cd16b33eb6792be8c60b158d89a2ee3a876fce9a881ebb488c0914");
    expect(verifySignature(body, signatureFor(body, "app-secret"), "app-secret")).toBe(true);
    expect(verifySignature(Buffer.from(body), signatureFor(body, "app-secret"), "app-secret")).toBe(true);
  });

  it("refuses a missing, malformed or wrong signature, another secret, or a body changed by a byte", () => {
    expect(verifySignature(body, undefined, "app-secret")).toBe(false);
    expect(verifySignature(body, "", "app-secret")).toBe(false);
    expect(verifySignature(body, "sha256=abc", "app-secret")).toBe(false);
    expect(verifySignature(body, signatureFor(body, "other"), "app-secret")).toBe(false);
    expect(verifySignature(`${body} `, signatureFor(body, "app-secret"), "app-secret")).toBe(false);
    expect(verifySignature(body, signatureFor(body, ""), "")).toBe(false);
  });

  it("echoes hub.challenge only for hub.mode=subscribe with the right verify token", () => {
    expect(verificationChallenge({ "hub.mode": "subscribe", "hub.verify_token": "tok-123", "hub.challenge": "1158201444" }, "tok-123")).toBe("1158201444");
    expect(verificationChallenge({ "hub.mode": "subscribe", "hub.verify_token": "tok-124", "hub.challenge": "1" }, "tok-123")).toBeNull();
    expect(verificationChallenge({ "hub.mode": "unsubscribe", "hub.verify_token": "tok-123", "hub.challenge": "1" }, "tok-123")).toBeNull();
    expect(verificationChallenge({ "hub.challenge": "1" }, "tok-123")).toBeNull();
    expect(verificationChallenge({ "hub.mode": "subscribe", "hub.verify_token": "", "hub.challenge": "1" }, "")).toBeNull();
  });
});
