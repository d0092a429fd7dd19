import { COMPANY_SETTING_DEFAULTS, GLOBAL_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import type { SettingResponse } from "@atende/shared/contracts/http/settings";
import { SETTING_VALUE_SCHEMAS, isCompanySettingKey, isGlobalSettingKey } from "@atende/shared/domain/settings/settings";
import { isAdmin } from "@atende/shared/domain/permissions/permissions";
import { AppError } from "../../platform/errors";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { RealtimeService } from "../realtime/realtime.service";
import type { SettingsRepository } from "./settings.repository";

/** Company keys only the operator sets (through the company form). */
const OPERATOR_COMPANY_KEYS = new Set(["campaignsEnabled"]);

export const createSettingsService = (deps: { settings: SettingsRepository; realtime: RealtimeService; clock: () => Date }) => {
  const { settings, realtime, clock } = deps;

  const withDefaults = (stored: { key: string; value: string }[], defaults: Record<string, string>): SettingResponse[] => {
    const byKey = new Map(stored.map((s) => [s.key, s.value]));
    return Object.entries(defaults).map(([key, value]) => ({ key, value: byKey.get(key) ?? value }));
  };

  const globals = async () => withDefaults(await settings.list(null), GLOBAL_SETTING_DEFAULTS);

  return {
    /** GET /settings: the company's keys; the operator also gets the global ones. */
    async list(auth: AuthContext): Promise<SettingResponse[]> {
      const company = withDefaults(await settings.list(auth.companyId), COMPANY_SETTING_DEFAULTS);
      return auth.user.super ? [...company, ...(await globals())] : company;
    },

    /** One company setting's value (defaults when never saved), for other features (tickets, chatbot). */
    async companyValue(companyId: number, key: keyof typeof COMPANY_SETTING_DEFAULTS): Promise<string> {
      return (await settings.get(companyId, key))?.value ?? COMPANY_SETTING_DEFAULTS[key];
    },

    async globalValue(key: keyof typeof GLOBAL_SETTING_DEFAULTS): Promise<string> {
      return (await settings.get(null, key))?.value ?? GLOBAL_SETTING_DEFAULTS[key];
    },

    /** PUT /settings/{key}: company keys by the company's admins; global keys by the operator only. */
    async update(auth: AuthContext, key: string, value: string): Promise<SettingResponse> {
      const global = isGlobalSettingKey(key);
      if (!global && !isCompanySettingKey(key)) throw new AppError("ERR_NO_SETTING_FOUND");
      if ((global || OPERATOR_COMPANY_KEYS.has(key)) && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      if (!isAdmin(auth.user.profile) && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      const schema = SETTING_VALUE_SCHEMAS[key];
      if (schema && !schema.safeParse(value).success) throw new AppError("ERR_VALIDATION", { key });
      const saved = await settings.put(global ? null : auth.companyId, key, value, clock());
      const response = { key: saved.key, value: saved.value };
      if (!global) await realtime.publish(auth.companyId, "setting", { action: "update", setting: response });
      return response;
    },
  };
};
export type SettingsService = ReturnType<typeof createSettingsService>;
