import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { PromptVoice } from "@atende/shared/domain/prompts/prompt";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";
import { AppError } from "../../platform/errors";

/**
 * An AI prompt bound to a queue (spec 3 section 3). `apiKey` and `voiceKey` are secrets, stored sealed by the service
 * (SecretBox; rows saved before sealing may still hold them plain); their masks are kept beside them, so answers never
 * need to open them.
 */
export type Prompt = {
  id: number;
  companyId: number;
  name: string;
  prompt: string;
  voice: PromptVoice;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  apiKey: string;
  queueId: number | null;
  maxMessages: number;
  /** issue 11 (absent on rows saved before it: the service reads defaults) */
  model?: string;
  baseUrl?: string;
  handoverKeywords?: string[];
  monthlyTokenCap?: number;
  apiKeyMask?: string;
  voiceKeyMask?: string;
  createdAt: string;
  updatedAt: string;
};
export type NewPrompt = Omit<Prompt, "id" | "createdAt" | "updatedAt">;

/** A company has a handful of prompts: they live in the company partition, read with one bounded query. */
const SK_PREFIX = "PROMPT#";
const MAX_PROMPTS = 500;
const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `${SK_PREFIX}${pad(id)}` });
const toPrompt = mapItem<Prompt>({
  id: true,
  companyId: true,
  name: true,
  prompt: true,
  voice: true,
  voiceKey: true,
  voiceRegion: true,
  maxTokens: true,
  temperature: true,
  apiKey: true,
  queueId: true,
  maxMessages: true,
  model: true,
  baseUrl: true,
  handoverKeywords: true,
  monthlyTokenCap: true,
  apiKeyMask: true,
  voiceKeyMask: true,
  createdAt: true,
  updatedAt: true,
});

export const createPromptsRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async create(input: NewPrompt, now: Date): Promise<Prompt> {
      const id = await nextId(db, input.companyId, "prompt");
      const p: Prompt = { ...input, id, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...key(p.companyId, id), entity: "prompt", ...p }, ConditionExpression: "attribute_not_exists(pk)" }));
      return p;
    },
    async findById(companyId: number, id: number): Promise<Prompt | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id) }));
      return out.Item ? toPrompt(out.Item) : null;
    },
    /** Replaces a prompt that still exists (ERR_NO_PROMPT_FOUND when it was deleted meanwhile). */
    async replace(p: Prompt): Promise<void> {
      try {
        await db.doc.send(new PutCommand({ TableName: T, Item: { ...key(p.companyId, p.id), entity: "prompt", ...p }, ConditionExpression: "attribute_exists(pk)" }));
      } catch (e) {
        if ((e as { name?: string }).name === "ConditionalCheckFailedException") throw new AppError("ERR_NO_PROMPT_FOUND");
        throw e;
      }
    },
    async remove(companyId: number, id: number): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: T, Key: key(companyId, id) }));
    },
    /** The company's prompts by id (oldest first), at most MAX_PROMPTS. */
    async listByCompany(companyId: number): Promise<Prompt[]> {
      const found: Prompt[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
            ExpressionAttributeValues: { ":pk": companyPk(companyId), ":p": SK_PREFIX },
            ExclusiveStartKey: start,
          }),
        );
        found.push(...(out.Items ?? []).map(toPrompt));
        start = out.LastEvaluatedKey;
      } while (start && found.length < MAX_PROMPTS);
      return found.slice(0, MAX_PROMPTS);
    },
  };
};
export type PromptsRepository = ReturnType<typeof createPromptsRepository>;
