import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { CopilotFeature } from "@atende/shared/contracts/http/copilot";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";

/**
 * A company's copilot settings (issue 33): one item in the company partition. `apiKey` is sealed (SecretBox), its
 * mask kept beside it, so reads never open it.
 */
export type CopilotSettings = {
  companyId: number;
  enabled: boolean;
  baseUrl: string;
  apiKey: string;
  apiKeyMask: string;
  model: string;
  transcriptionModel: string;
  features: Record<CopilotFeature, boolean>;
  summaryOnTransfer: boolean;
  monthlyTokenCap: number;
  updatedAt: string;
};

export const COPILOT_OFF = (companyId: number): CopilotSettings => ({
  companyId,
  enabled: false,
  baseUrl: "",
  apiKey: "",
  apiKeyMask: "",
  model: "",
  transcriptionModel: "",
  features: { summary: false, suggestions: false, rewrite: false, transcription: false },
  summaryOnTransfer: false,
  monthlyTokenCap: 0,
  updatedAt: "",
});

export type CopilotSettingsRepository = {
  get(companyId: number): Promise<CopilotSettings>;
  put(settings: CopilotSettings): Promise<void>;
};

export const createCopilotSettingsRepository = (db: Db): CopilotSettingsRepository => {
  const key = (companyId: number) => ({ pk: companyPk(companyId), sk: "COPILOT#SETTINGS" });
  return {
    async get(companyId) {
      const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId) }));
      const item = out.Item as Partial<CopilotSettings> | undefined;
      if (!item) return COPILOT_OFF(companyId);
      const off = COPILOT_OFF(companyId);
      return {
        ...off,
        enabled: item.enabled === true,
        baseUrl: String(item.baseUrl ?? ""),
        apiKey: String(item.apiKey ?? ""),
        apiKeyMask: String(item.apiKeyMask ?? ""),
        model: String(item.model ?? ""),
        transcriptionModel: String(item.transcriptionModel ?? ""),
        features: { ...off.features, ...(item.features ?? {}) },
        summaryOnTransfer: item.summaryOnTransfer === true,
        monthlyTokenCap: Number(item.monthlyTokenCap ?? 0),
        updatedAt: String(item.updatedAt ?? ""),
      };
    },
    async put(settings) {
      await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...key(settings.companyId), entity: "copilotSettings", ...settings } }));
    },
  };
};
