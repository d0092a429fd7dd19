import type { ResourceLanguage } from "i18next";

/** Every "en" namespace in one chunk, loaded only when "en" is the language in use (lib/i18n.ts). */
const files = import.meta.glob<ResourceLanguage[string]>("./en/*.json", { eager: true, import: "default" });

export const namespaces: ResourceLanguage = Object.fromEntries(Object.entries(files).map(([path, content]) => [/([\w-]+)\.json$/.exec(path)?.[1] ?? path, content]));
