import type { LogoDestination } from "@atende/shared/domain/settings/settings";

/**
 * The built-in logos served until the operator uploads one for a destination: a fresh platform shows the product's
 * mark instead of answering 404 (which browsers log as errors on every page).
 */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 64 64" role="img" aria-label="Atende">
<rect width="64" height="64" rx="14" fill="#1b8a5a"/>
<path d="M32 13c-11 0-20 7.6-20 17 0 5 2.6 9.5 6.7 12.6L17 51l9.2-4.6c1.8.4 3.8.6 5.8.6 11 0 20-7.6 20-17S43 13 32 13z" fill="#fff"/>
<circle cx="23.5" cy="30" r="3" fill="#1b8a5a"/><circle cx="32" cy="30" r="3" fill="#1b8a5a"/><circle cx="40.5" cy="30" r="3" fill="#1b8a5a"/>
</svg>
`;

const WORDMARK = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="64" viewBox="0 0 240 64" role="img" aria-label="Atende">
<rect x="4" y="4" width="56" height="56" rx="12" fill="#1b8a5a"/>
<path d="M32 15c-9.4 0-17 6.5-17 14.5 0 4.3 2.2 8.1 5.7 10.8L19.3 47l7.8-3.9c1.5.3 3.2.5 4.9.5 9.4 0 17-6.5 17-14.5S41.4 15 32 15z" fill="#fff"/>
<circle cx="24.8" cy="29.5" r="2.6" fill="#1b8a5a"/><circle cx="32" cy="29.5" r="2.6" fill="#1b8a5a"/><circle cx="39.2" cy="29.5" r="2.6" fill="#1b8a5a"/>
<text x="74" y="43" font-family="Roboto, Helvetica, Arial, sans-serif" font-size="32" font-weight="700" fill="#1b8a5a">Atende</text>
</svg>
`;

const bytes = (svg: string) => new TextEncoder().encode(svg);

export const DEFAULT_LOGOS: Record<LogoDestination, { body: Uint8Array; mimetype: string }> = {
  login: { body: bytes(WORDMARK), mimetype: "image/svg+xml" },
  signup: { body: bytes(WORDMARK), mimetype: "image/svg+xml" },
  interno: { body: bytes(WORDMARK), mimetype: "image/svg+xml" },
  favicon: { body: bytes(ICON), mimetype: "image/svg+xml" },
  "favicon-256x256": { body: bytes(ICON), mimetype: "image/svg+xml" },
  "apple-touch-icon": { body: bytes(ICON), mimetype: "image/svg+xml" },
};
