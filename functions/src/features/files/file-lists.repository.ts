import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { FileMediaType } from "@atende/shared/domain/files/file-list";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mergedIndexPage } from "../../platform/db/merged-query";
import { mapItem } from "../../platform/db/map-item";

export type FileListOption = { id: number; name: string; path: string | null; mediaType: FileMediaType | null; mediaName: string | null };
export type FileList = {
  id: number;
  companyId: number;
  name: string;
  message: string;
  options: FileListOption[];
  createdAt: string;
  updatedAt: string;
};
export type NewFileList = Omit<FileList, "id" | "createdAt" | "updatedAt">;

/** A list and its options are one item (at most 50 options): `CO#<c>` / `FILELIST#<id>`. */
const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `FILELIST#${pad(id)}` });
/** gsi1: the company's lists by name (A-Z). */
const listPk = (companyId: number) => `${companyPk(companyId)}#FILELIST`;
const indexFields = (f: FileList) => ({ gsi1pk: listPk(f.companyId), gsi1sk: `${f.name.toLowerCase()}#${pad(f.id)}`, nameLower: f.name.toLowerCase() });
const toFileList = mapItem<FileList>({
  id: true,
  companyId: true,
  name: true,
  message: true,
  options: true,
  createdAt: true,
  updatedAt: true,
});

export const createFileListsRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async create(input: NewFileList, now: Date): Promise<FileList> {
      const id = await nextId(db, input.companyId, "fileList");
      const f: FileList = { ...input, id, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...key(f.companyId, id), ...indexFields(f), entity: "fileList", ...f } }));
      return f;
    },
    async findById(companyId: number, id: number): Promise<FileList | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id) }));
      return out.Item ? toFileList(out.Item) : null;
    },
    /** Replaces the item; false when it was deleted meanwhile. */
    async replace(f: FileList): Promise<boolean> {
      try {
        await db.doc.send(
          new PutCommand({ TableName: T, Item: { ...key(f.companyId, f.id), ...indexFields(f), entity: "fileList", ...f }, ConditionExpression: "attribute_exists(pk)" }),
        );
        return true;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return false;
        throw e;
      }
    },
    async remove(companyId: number, id: number): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: T, Key: key(companyId, id) }));
    },
    /** One page by name (A-Z), filtered by a name substring. */
    async page(companyId: number, term: string, limit: number, cursor?: string) {
      const filter = term ? { expression: "contains(#nl, :term)", names: { "#nl": "nameLower" }, values: { ":term": term.toLowerCase() } } : undefined;
      const out = await mergedIndexPage(db, [{ index: "gsi1", pk: listPk(companyId) }], { limit, cursor, filter, ascending: true });
      return { items: out.items.map(toFileList), next: out.next };
    },
  };
};
export type FileListsRepository = ReturnType<typeof createFileListsRepository>;
