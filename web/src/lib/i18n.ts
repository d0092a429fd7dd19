import i18n, { type ResourceLanguage } from "i18next";
import { initReactI18next } from "react-i18next";
import { namespaces as ptFirstScreen } from "../locales/pt-first-screen";

/**
 * Translations: one JSON file per namespace and language under src/locales/{pt,en,es}/<namespace>.json,
 * picked up automatically (a feature adds its own files; nothing to register); each language is loaded on demand in
 * two chunks (below).
 * Use `t("namespace:key")` or `useTranslation("namespace")`. pt is the default and the fallback.
 */
export const LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_KEY = "language";

/**
 * Two chunks per language (issue 15, ADR 0037): the namespaces of the first screen (locales/<lng>-first-screen.ts),
 * loaded before the first render, and all the others (locales/<lng>.ts), loaded by `loadAllTranslations` before
 * anything past the login page renders (the layout, sign-up, password reset, the two-factor step). pt's first-screen
 * namespaces are part of the entry itself: every language falls back to pt, so every first render needs them, and as
 * a chunk of their own they cost a round trip and a task before it (ADR 0052).
 */
export const FIRST_SCREEN_NAMESPACES = ["common", "auth", "errors", "validation", "health"] as const;
type Part = "first" | "rest";
type Bundle = () => Promise<{ namespaces: ResourceLanguage }>;
const bundles: Record<Language, Record<Part, Bundle>> = {
  pt: { first: () => Promise.resolve({ namespaces: ptFirstScreen }), rest: () => import("../locales/pt") },
  en: { first: () => import("../locales/en-first-screen"), rest: () => import("../locales/en") },
  es: { first: () => import("../locales/es-first-screen"), rest: () => import("../locales/es") },
};
const loaded = new Map<string, Promise<void>>();
const load = (lng: Language, part: Part): Promise<void> => {
  const key = `${lng}:${part}`;
  let done = loaded.get(key);
  if (!done) {
    done = Promise.all([bundles[lng][part](), initialised]).then(([{ namespaces }]) => {
      for (const [ns, content] of Object.entries(namespaces)) i18n.addResourceBundle(lng, ns, content, true, true);
    });
    done.catch(() => loaded.delete(key));
    loaded.set(key, done);
  }
  return done;
};
/** Once the app went past the login page, a language change loads that language's whole set. */
let allWanted = false;

const stored = typeof localStorage === "undefined" ? null : localStorage.getItem(LANGUAGE_KEY);
const initial: Language = LANGUAGES.includes(stored as Language) ? (stored as Language) : "pt";

const initialised = i18n.use(initReactI18next).init({
  resources: {},
  lng: initial,
  fallbackLng: "pt",
  supportedLngs: [...LANGUAGES],
  defaultNS: "common",
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});

/**
 * Settles when the language in use and pt (the fallback for a key a translation lacks) are in memory: main.tsx awaits
 * it before the first render. Not a top-level await: this module's chunk is a static import of the entry's, so such an
 * await held back every module of the entry — the session's restore, the signed-in screen's code — until this chunk
 * had fetched and run the first screen's translations (issue 15 item 4).
 */
export const translationsReady: Promise<void> = Promise.all([initialised, load(initial, "first"), load("pt", "first")]).then(() => undefined);

/** Every namespace of the language in use (and pt's, the fallback): awaited before anything past the login page renders. */
export const loadAllTranslations = async (): Promise<void> => {
  allWanted = true;
  const lng = LANGUAGES.includes(i18n.language as Language) ? (i18n.language as Language) : initial;
  await Promise.all([load(lng, "rest"), load("pt", "rest")]);
};

if (typeof document !== "undefined") document.documentElement.lang = initial === "pt" ? "pt-BR" : initial;

export const changeLanguage = async (lng: Language) => {
  localStorage.setItem(LANGUAGE_KEY, lng);
  document.documentElement.lang = lng === "pt" ? "pt-BR" : lng;
  await Promise.all([load(lng, "first"), allWanted ? load(lng, "rest") : undefined]);
  await i18n.changeLanguage(lng);
};

export default i18n;
