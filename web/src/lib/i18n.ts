import i18n, { type ResourceLanguage } from "i18next";
import { initReactI18next } from "react-i18next";

/**
 * Translations: one JSON file per namespace and language under src/locales/{pt,en,es}/<namespace>.json,
 * picked up automatically (a feature adds its own files; nothing to register); each language is one chunk loaded
 * on demand, before the first render for the language in use.
 * Use `t("namespace:key")` or `useTranslation("namespace")`. pt is the default and the fallback.
 */
export const LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_KEY = "language";

/** One chunk per language (locales/<lng>.ts): the first screen downloads only the language in use (issue 15). */
const bundles: Record<Language, () => Promise<{ namespaces: ResourceLanguage }>> = {
  pt: () => import("../locales/pt"),
  en: () => import("../locales/en"),
  es: () => import("../locales/es"),
};
const loaded = new Set<Language>();
const load = async (lng: Language) => {
  if (loaded.has(lng)) return;
  const { namespaces } = await bundles[lng]();
  for (const [ns, content] of Object.entries(namespaces)) i18n.addResourceBundle(lng, ns, content, true, true);
  loaded.add(lng);
};

const stored = typeof localStorage === "undefined" ? null : localStorage.getItem(LANGUAGE_KEY);
const initial: Language = LANGUAGES.includes(stored as Language) ? (stored as Language) : "pt";

await i18n.use(initReactI18next).init({
  resources: {},
  lng: initial,
  fallbackLng: "pt",
  supportedLngs: [...LANGUAGES],
  defaultNS: "common",
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});
// the language in use and pt (the fallback for a key a translation lacks) are in memory before anything renders
await Promise.all([load(initial), load("pt")]);

if (typeof document !== "undefined") document.documentElement.lang = initial === "pt" ? "pt-BR" : initial;

export const changeLanguage = async (lng: Language) => {
  localStorage.setItem(LANGUAGE_KEY, lng);
  document.documentElement.lang = lng === "pt" ? "pt-BR" : lng;
  await load(lng);
  await i18n.changeLanguage(lng);
};

export default i18n;
