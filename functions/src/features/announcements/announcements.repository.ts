import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { AnnouncementPriority } from "@atende/shared/domain/announcements/announcement";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { pad } from "../../platform/db/keys";
import { mergedIndexPage, type ItemFilter } from "../../platform/db/merged-query";
import { mapItem } from "../../platform/db/map-item";

export type Announcement = {
  id: number;
  title: string;
  text: string;
  priority: AnnouncementPriority;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
};
export type NewAnnouncement = Omit<Announcement, "id" | "createdAt" | "updatedAt">;

/**
 * Announcements are platform-wide (the operator's), not tenant data: `PLATFORM#ANN` / `ANN#<id>`.
 * gsi1 holds every announcement, gsi2 only the active ones (sparse), both newest first by padded id.
 */
const PARTITION = "PLATFORM#ANN";
const key = (id: number) => ({ pk: PARTITION, sk: `ANN#${pad(id)}` });
const ALL_PK = "PLATFORM#ANN#ALL";
const ACTIVE_PK = "PLATFORM#ANN#ACTIVE";
const indexFields = (a: Announcement) => ({
  gsi1pk: ALL_PK,
  gsi1sk: pad(a.id),
  ...(a.status ? { gsi2pk: ACTIVE_PK, gsi2sk: pad(a.id) } : {}),
  titleLower: a.title.toLowerCase(),
});
const toAnnouncement = mapItem<Announcement>({
  id: true,
  title: true,
  text: true,
  priority: true,
  status: true,
  mediaPath: true,
  mediaName: true,
  createdAt: true,
  updatedAt: true,
});
const searchFilter = (term: string): ItemFilter | undefined =>
  term ? { expression: "contains(#tl, :term)", names: { "#tl": "titleLower" }, values: { ":term": term.toLowerCase() } } : undefined;

export const createAnnouncementsRepository = (db: Db) => {
  const T = db.tableName;
  const put = (a: Announcement) => db.doc.send(new PutCommand({ TableName: T, Item: { ...key(a.id), ...indexFields(a), entity: "announcement", ...a } }));
  return {
    async create(input: NewAnnouncement, now: Date): Promise<Announcement> {
      const id = await nextId(db, null, "announcement");
      const a: Announcement = { ...input, id, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      await put(a);
      return a;
    },
    async findById(id: number): Promise<Announcement | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(id) }));
      return out.Item ? toAnnouncement(out.Item) : null;
    },
    /** Replaces the whole item (an inactive one leaves the active index). */
    async replace(a: Announcement): Promise<void> {
      await put(a);
    },
    async remove(id: number): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: T, Key: key(id) }));
    },
    /** One page, newest first: every announcement or only the active ones, filtered by a title substring. */
    async page(onlyActive: boolean, term: string, limit: number, cursor?: string) {
      const partition = onlyActive ? { index: "gsi2" as const, pk: ACTIVE_PK } : { index: "gsi1" as const, pk: ALL_PK };
      const out = await mergedIndexPage(db, [partition], { limit, cursor, filter: searchFilter(term) });
      return { items: out.items.map(toAnnouncement), next: out.next };
    },
  };
};
export type AnnouncementsRepository = ReturnType<typeof createAnnouncementsRepository>;
