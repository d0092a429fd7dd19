import type { ResourceLanguage } from "i18next";

/**
 * The "en" namespaces the first screen (the login page, the health banner, error toasts and form errors) needs:
 * loaded before the first render (lib/i18n.ts); the rest comes with the app (locales/en.ts). Keep the list in
 * step with the one locales/en.ts leaves out and with FIRST_SCREEN_NAMESPACES in lib/i18n.ts.
 */
const files = import.meta.glob<ResourceLanguage[string]>("./en/{common,auth,errors,validation,health}.json", { eager: true, import: "default" });

export const namespaces: ResourceLanguage = Object.fromEntries(Object.entries(files).map(([path, content]) => [/([\w-]+)\.json$/.exec(path)?.[1] ?? path, content]));
