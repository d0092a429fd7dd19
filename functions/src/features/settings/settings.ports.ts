import type { SettingsRepository } from "./settings.repository";

/** Narrow ports the settings feature publishes (its repository implements them; docs/adr/0024-feature-modules.md). */
export type { Setting } from "./settings.repository";
export type SettingsStore = Pick<SettingsRepository, "list" | "get" | "put" | "putMany">;
