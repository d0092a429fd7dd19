import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { QueueIntegration, QueueIntegrationInput } from "@atende/shared/domain/queue-integrations/queue-integration";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mergedIndexPage, type ItemFilter } from "../../platform/db/merged-query";
import { mapItem } from "../../platform/db/map-item";
import { AppError } from "../../platform/errors";

/**
 * A bot or automation a queue hands its tickets to (spec 3 section 3). `webhookSecret`: n8n/webhook only, the
 * signing secret sealed by the SecretBox (ADR 0027); DialogFlow's private key inside `jsonContent` is sealed too.
 */

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `QINT#${pad(id)}` });
/** gsi1: the company's integrations by name (A-Z), then id. */
const listPk = (companyId: number) => `${companyPk(companyId)}#QINT`;
const indexFields = (i: QueueIntegration) => ({ gsi1pk: listPk(i.companyId), gsi1sk: `${i.name.toLowerCase()}#${pad(i.id)}`, nameLower: i.name.toLowerCase() });
const toIntegration = mapItem<QueueIntegration>({
  id: true,
  companyId: true,
  type: true,
  name: true,
  projectName: true,
  jsonContent: true,
  language: true,
  urlN8N: true,
  typebotSlug: true,
  typebotExpires: true,
  typebotDelayMessage: true,
  typebotKeywordFinish: true,
  typebotKeywordRestart: true,
  typebotUnknownMessage: true,
  typebotRestartMessage: true,
  webhookSecret: true,
  createdAt: true,
  updatedAt: true,
});
/** Search: a lower-cased substring of the name (spec 3 section 5: search text is lower-cased). */
const searchFilter = (term: string): ItemFilter | undefined => (term ? { expression: "contains(#nl, :term)", names: { "#nl": "nameLower" }, values: { ":term": term } } : undefined);

export const createQueueIntegrationsRepository = (db: Db) => {
  const T = db.tableName;
  const item = (i: QueueIntegration) => ({ ...key(i.companyId, i.id), ...indexFields(i), entity: "queueIntegration", ...i });
  return {
    async create(companyId: number, input: QueueIntegrationInput & { webhookSecret?: string | null }, now: Date): Promise<QueueIntegration> {
      const id = await nextId(db, companyId, "queueIntegration");
      const i: QueueIntegration = { ...input, id, companyId, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      await db.doc.send(new PutCommand({ TableName: T, Item: item(i), ConditionExpression: "attribute_not_exists(pk)" }));
      return i;
    },
    async findById(companyId: number, id: number): Promise<QueueIntegration | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id) }));
      return out.Item ? toIntegration(out.Item) : null;
    },
    /** Replaces an integration that still exists (ERR_NO_INTEGRATION_FOUND when it was deleted meanwhile). */
    async replace(i: QueueIntegration): Promise<void> {
      try {
        await db.doc.send(new PutCommand({ TableName: T, Item: item(i), ConditionExpression: "attribute_exists(pk)" }));
      } catch (e) {
        if ((e as { name?: string }).name === "ConditionalCheckFailedException") throw new AppError("ERR_NO_INTEGRATION_FOUND");
        throw e;
      }
    },
    async remove(companyId: number, id: number): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: T, Key: key(companyId, id) }));
    },
    /** One page by name (A-Z), optionally filtered by a lower-case name substring. */
    async page(companyId: number, term: string, limit: number, cursor?: string) {
      const out = await mergedIndexPage(db, [{ index: "gsi1", pk: listPk(companyId) }], { limit, cursor, filter: searchFilter(term), ascending: true });
      return { items: out.items.map(toIntegration), next: out.next };
    },
  };
};
export type QueueIntegrationsRepository = ReturnType<typeof createQueueIntegrationsRepository>;
