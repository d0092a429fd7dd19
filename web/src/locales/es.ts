import type { ResourceLanguage } from "i18next";

/** Every "es" namespace in one chunk, loaded only when "es" is the language in use (lib/i18n.ts). */
const files = import.meta.glob<ResourceLanguage[string]>("./es/*.json", { eager: true, import: "default" });

export const namespaces: ResourceLanguage = Object.fromEntries(Object.entries(files).map(([path, content]) => [/([\w-]+)\.json$/.exec(path)?.[1] ?? path, content]));
