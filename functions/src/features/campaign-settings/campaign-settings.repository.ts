import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { CampaignSettings } from "@atende/shared/domain/campaign-settings/campaign-settings";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";

/** A company's campaign settings as stored (fields never saved are absent). One item: `CO#<c>` / `CAMPAIGNSETTINGS`. */
export type StoredCampaignSettings = Partial<CampaignSettings> & { updatedAt?: string };

const key = (companyId: number) => ({ pk: companyPk(companyId), sk: "CAMPAIGNSETTINGS" });

export const createCampaignSettingsRepository = (db: Db) => ({
  async find(companyId: number): Promise<StoredCampaignSettings> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId) }));
    if (!out.Item) return {};
    const { messageInterval, longerIntervalAfter, greaterInterval, variables, updatedAt } = out.Item as StoredCampaignSettings;
    return { messageInterval, longerIntervalAfter, greaterInterval, variables, updatedAt };
  },
  async put(companyId: number, settings: CampaignSettings, now: Date): Promise<void> {
    await db.doc.send(
      new PutCommand({ TableName: db.tableName, Item: { ...key(companyId), entity: "campaignSettings", companyId, ...settings, updatedAt: now.toISOString() } }),
    );
  },
});
export type CampaignSettingsRepository = ReturnType<typeof createCampaignSettingsRepository>;
