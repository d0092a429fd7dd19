import type { ResourceLanguage } from "i18next";

/**
 * Every "pt" namespace but the first screen's (locales/pt-first-screen.ts) in one chunk, loaded when "pt" is the
 * language in use and the app goes past the login page (lib/i18n.ts `loadAllTranslations`).
 */
const files = import.meta.glob<ResourceLanguage[string]>(["./pt/*.json", "!./pt/{common,auth,errors,validation,health}.json"], { eager: true, import: "default" });

export const namespaces: ResourceLanguage = Object.fromEntries(Object.entries(files).map(([path, content]) => [/([\w-]+)\.json$/.exec(path)?.[1] ?? path, content]));
