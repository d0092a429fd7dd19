/**
 * The installed app's web app manifest (issue 32, docs/adr/0097), served by the API at
 * GET /api/public/manifest.webmanifest so its icons can be the operator's logo: the platform's square logo
 * (destination "favicon-256x256", else "apple-touch-icon") when one is uploaded and usable as an app icon (SVG, or a
 * square PNG of at least 144 px — Chromium's minimum for installing), the built-in PNGs (any and maskable) otherwise.
 */
export type ManifestIcon = { src: string; sizes: string; type: string; purpose: string };

const DEFAULT_ICONS: ManifestIcon[] = [
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
  { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
];

/** The logo destinations tried for the app icon, in order. */
export const ICON_LOGOS = ["favicon-256x256", "apple-touch-icon"] as const;

const MIN_ICON_PX = 144;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG's width and height (its IHDR chunk, bytes 16–23), or null when the bytes are not a PNG. */
const pngSize = (b: Uint8Array): { w: number; h: number } | null => {
  if (b.length < 24 || PNG_SIGNATURE.some((v, i) => b[i] !== v)) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return { w: view.getUint32(16), h: view.getUint32(20) };
};

/**
 * The icon entries for an uploaded logo, or null when it cannot be an app icon (an ICO, a small or non-square PNG).
 * Listed as "any" only: a logo is not drawn for a maskable safe zone, so Android shows it whole on a plate instead of
 * cropping it; the built-in maskable icons are left out so the launcher does not prefer the product's mark.
 */
export const logoIcons = (src: string, logo: { body: Uint8Array; mimetype: string }): ManifestIcon[] | null => {
  if (logo.mimetype === "image/svg+xml") return [{ src, sizes: "any", type: "image/svg+xml", purpose: "any" }];
  const size = logo.mimetype === "image/png" ? pngSize(logo.body) : null;
  if (!size || size.w !== size.h || size.w < MIN_ICON_PX) return null;
  return [{ src, sizes: `${size.w}x${size.h}`, type: "image/png", purpose: "any" }];
};

/** The manifest's words in pt (default), en and es: the install dialog shows them in the browser's language. */
const TEXTS = {
  pt: { lang: "pt-BR", description: "Atendimento multicanal: WhatsApp, chat do site e mais" },
  en: { lang: "en", description: "Multichannel customer service: WhatsApp, website chat and more" },
  es: { lang: "es", description: "Atención multicanal: WhatsApp, chat del sitio y más" },
} as const;
export type ManifestLanguage = keyof typeof TEXTS;

/** The first of pt, en, es in an Accept-Language header (its order; weights are not re-sorted), else pt. */
export const manifestLanguage = (acceptLanguage: string | undefined): ManifestLanguage => {
  for (const part of (acceptLanguage ?? "").split(",")) {
    const base = part.split(";")[0]!.trim().toLowerCase().split("-")[0];
    if (base === "pt" || base === "en" || base === "es") return base;
  }
  return "pt";
};

export const appManifest = (icons: ManifestIcon[] | null, language: ManifestLanguage = "pt") => ({
  name: "Atende",
  short_name: "Atende",
  description: TEXTS[language].description,
  lang: TEXTS[language].lang,
  id: "/",
  start_url: "/tickets",
  scope: "/",
  display: "standalone",
  background_color: "#ffffff",
  theme_color: "#008069",
  icons: icons ?? DEFAULT_ICONS,
});
