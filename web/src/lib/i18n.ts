import i18n, { type Resource } from "i18next";
import { initReactI18next } from "react-i18next";

/**
 * Translations: one JSON file per namespace and language under src/locales/{pt,en,es}/<namespace>.json,
 * picked up automatically (a feature adds its own files; nothing to register).
 * Use `t("namespace:key")` or `useTranslation("namespace")`. pt is the default and the fallback.
 */
export const LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_KEY = "language";

const files = import.meta.glob<Record<string, unknown>>("../locales/*/*.json", { eager: true, import: "default" });

const resources: Resource = {};
for (const [path, content] of Object.entries(files)) {
  const match = /locales\/([a-z]+)\/([\w-]+)\.json$/.exec(path);
  if (!match) continue;
  const [, lng, ns] = match as unknown as [string, string, string];
  resources[lng] ??= {};
  resources[lng][ns] = content;
}

const stored = typeof localStorage === "undefined" ? null : localStorage.getItem(LANGUAGE_KEY);
const initial: Language = LANGUAGES.includes(stored as Language) ? (stored as Language) : "pt";

void i18n.use(initReactI18next).init({
  resources,
  lng: initial,
  fallbackLng: "pt",
  supportedLngs: [...LANGUAGES],
  ns: Object.keys(resources.pt ?? {}),
  defaultNS: "common",
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});

if (typeof document !== "undefined") document.documentElement.lang = initial === "pt" ? "pt-BR" : initial;

export const changeLanguage = async (lng: Language) => {
  localStorage.setItem(LANGUAGE_KEY, lng);
  document.documentElement.lang = lng === "pt" ? "pt-BR" : lng;
  await i18n.changeLanguage(lng);
};

export default i18n;
