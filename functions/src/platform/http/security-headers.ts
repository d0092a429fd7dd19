import type { MiddlewareHandler } from "hono";
import { API_CONTENT_SECURITY_POLICY, COMMON_SECURITY_HEADERS } from "@atende/shared/constants/security-headers";

/**
 * The browser-side hardening on every API response (docs/security.md "Headers"): nosniff, no framing, referrer and
 * permissions policies, and a CSP that lets nothing load or run. A route that sets its own CSP (media: a sandbox
 * that still shows images) keeps it.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(COMMON_SECURITY_HEADERS)) c.res.headers.set(name, value);
  if (!c.res.headers.has("content-security-policy")) c.res.headers.set("content-security-policy", API_CONTENT_SECURITY_POLICY);
};
