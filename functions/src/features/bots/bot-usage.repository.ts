import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";

/** A month's key (UTC): usage counters and the monthly cap reset when it changes. */
export const usageMonth = (now: Date) => now.toISOString().slice(0, 7);

export type BotUsage = {
  month: string;
  promptTokens: number;
  completionTokens: number;
  /** total tokens by prompt id */
  byPrompt: Record<number, number>;
  turns: number;
};

/** The runner's usage port (DynamoDB below; in memory in unit tests). */
export type BotUsageStore = {
  add(companyId: number, month: string, promptId: number, usage: { promptTokens: number; completionTokens: number }): Promise<void>;
  get(companyId: number, month: string): Promise<BotUsage>;
};

/**
 * Model tokens per company and month (issue 11 item 7): one small item per company and month in the company's
 * partition (`BOTUSAGE#2026-11`), counted with ADD so concurrent turns never lose a count. Per prompt too, for the
 * prompt's own monthly cap and the prompts page.
 */
export const createBotUsageRepository = (db: Db): BotUsageStore => {
  const T = db.tableName;
  const key = (companyId: number, month: string) => ({ pk: companyPk(companyId), sk: `BOTUSAGE#${month}` });
  return {
    async add(companyId, month, promptId, usage) {
      const total = usage.promptTokens + usage.completionTokens;
      await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: key(companyId, month),
          UpdateExpression: "SET #e = :e, #m = :m ADD #pt :pt, #ct :ct, #turns :one, #byp :total",
          ExpressionAttributeNames: { "#e": "entity", "#m": "month", "#pt": "promptTokens", "#ct": "completionTokens", "#turns": "turns", "#byp": `tokensP${promptId}` },
          ExpressionAttributeValues: { ":e": "botUsage", ":m": month, ":pt": usage.promptTokens, ":ct": usage.completionTokens, ":one": 1, ":total": total },
        }),
      );
    },
    async get(companyId, month) {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, month) }));
      const item = out.Item ?? {};
      const byPrompt: Record<number, number> = {};
      for (const [k, v] of Object.entries(item)) {
        const m = /^tokensP(\d+)$/.exec(k);
        if (m) byPrompt[Number(m[1])] = Number(v);
      }
      return { month, promptTokens: Number(item.promptTokens ?? 0), completionTokens: Number(item.completionTokens ?? 0), byPrompt, turns: Number(item.turns ?? 0) };
    },
  };
};

export const createMemoryBotUsageStore = (): BotUsageStore => {
  const months = new Map<string, BotUsage>();
  return {
    async add(companyId, month, promptId, usage) {
      const k = `${companyId}:${month}`;
      const cur = months.get(k) ?? { month, promptTokens: 0, completionTokens: 0, byPrompt: {}, turns: 0 };
      cur.promptTokens += usage.promptTokens;
      cur.completionTokens += usage.completionTokens;
      cur.byPrompt[promptId] = (cur.byPrompt[promptId] ?? 0) + usage.promptTokens + usage.completionTokens;
      cur.turns += 1;
      months.set(k, cur);
    },
    async get(companyId, month) {
      return structuredClone(months.get(`${companyId}:${month}`) ?? { month, promptTokens: 0, completionTokens: 0, byPrompt: {}, turns: 0 });
    },
  };
};
