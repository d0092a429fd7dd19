/**
 * The browser-side hardening every response carries (docs/security.md "Headers"): one definition for the local
 * server (infra/local), the Hono app (API responses) and the CloudFront response-headers policies (infra/aws).
 */

/** Where the help page's videos come from (spec 2: helps are YouTube videos). */
const YOUTUBE_IMAGES = "https://img.youtube.com";
const YOUTUBE_FRAMES = "https://www.youtube.com https://www.youtube-nocookie.com";

/**
 * The SPA's policy: scripts only from our origin (no inline script, no eval); inline styles allowed because MUI's
 * emotion injects <style> elements; images and media from us, `data:` (location thumbnails) and `blob:` (media
 * fetched with the token); connections to us plus the WebSocket URL when it is on another origin (AWS).
 */
export const appContentSecurityPolicy = (opts: { connectSrc?: readonly string[] } = {}) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${YOUTUBE_IMAGES}`,
    "media-src 'self' blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...(opts.connectSrc ?? [])].join(" "),
    `frame-src ${YOUTUBE_FRAMES}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");

/** API answers are data, never documents: nothing in them may load or run, and no page may frame them. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** Camera, location and the rest off; the microphone for our own origin only (voice notes in the composer). */
export const PERMISSIONS_POLICY = "camera=(), geolocation=(), microphone=(self), payment=(), usb=(), serial=(), bluetooth=(), midi=(), magnetometer=(), gyroscope=(), accelerometer=()";

export const REFERRER_POLICY = "strict-origin-when-cross-origin";

/** Sent with every response, app and API alike (HSTS is added by CloudFront in AWS: the local platform is plain HTTP). */
export const COMMON_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": REFERRER_POLICY,
  "permissions-policy": PERMISSIONS_POLICY,
  "cross-origin-opener-policy": "same-origin",
};

/** HSTS in AWS: two years, subdomains included. */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;
