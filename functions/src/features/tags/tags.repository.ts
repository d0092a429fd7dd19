import type { Tag } from "@atende/shared/domain/tags/tag";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { queryPrefix } from "../../platform/db/query-prefix";
import { stripKeys } from "../../platform/db/strip";
import { transact, TxConditionFailed } from "../../platform/db/transact";

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `TAG#${pad(id)}` });
/** Tag names are unique per company (case-insensitive). */
const nameKey = (companyId: number, name: string) => ({ pk: `${companyPk(companyId)}#TAGNAME#${name.trim().toLowerCase()}`, sk: "TAGNAME" });
const toTag = (item: Record<string, unknown>) => stripKeys(item) as unknown as Tag;

export const createTagsRepository = (db: Db) => ({
  /** Creates the tag, or answers null when the name is taken in this company. */
  async create(companyId: number, input: { name: string; color: string; kanban: 0 | 1 }, now: Date): Promise<Tag | null> {
    const id = await nextId(db, companyId, "tag");
    const tag: Tag = { ...input, id, companyId, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    try {
      await transact(db, [
        { Put: { TableName: db.tableName, Item: { ...nameKey(companyId, input.name), entity: "tagName", tagId: id }, ConditionExpression: "attribute_not_exists(pk)" } },
        { Put: { TableName: db.tableName, Item: { ...key(companyId, id), entity: "tag", ...tag } } },
      ]);
      return tag;
    } catch (e) {
      if (e instanceof TxConditionFailed) return null;
      throw e;
    }
  },
  /** A company has few tags: one query of its partition. */
  async listByCompany(companyId: number): Promise<Tag[]> {
    return (await queryPrefix(db, companyPk(companyId), "TAG#")).map(toTag);
  },
});
export type TagsRepository = ReturnType<typeof createTagsRepository>;
