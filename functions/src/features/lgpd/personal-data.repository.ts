import { BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetAll } from "../../platform/db/batch-get";
import type { Db } from "../../platform/db/client";
import { companyPk, pad } from "../../platform/db/keys";
import { queryPrefix } from "../../platform/db/query-prefix";

/**
 * Everything the table holds about one person (a contact), read key by key for an export or an erasure.
 *
 * This repository reads and writes other features' items by their documented keys (ADR 0002 and each feature's
 * key comment): an erasure must reach every item, and asking nine services for "everything about contact X"
 * would spread the LGPD rules over nine features. The price: a feature that adds an item holding personal data
 * must add it here too. The erasure test (lgpd-erasure.int.test.ts) scans the whole table and the media store
 * for the person's number and name after erasure, so a forgotten key fails a test rather than a person
 * (docs/adr/0030-lgpd-erasure-opt-outs-retention.md).
 */
export type RawItem = Record<string, unknown> & { pk: string; sk: string };
export type ItemKey = { pk: string; sk: string };

export type PersonData = {
  companyId: number;
  contactId: number;
  contact: RawItem | null;
  /** `CO#<c>#CID#<kind>#<value>` items pointing at this contact */
  identities: RawItem[];
  /** `CO#<c>#CT#<contact>` pointers to the contact's tickets */
  ticketPointers: RawItem[];
  tickets: RawItem[];
  /** attention cycles of those tickets (times and ratings: the dashboard's figures, no personal data) */
  cycles: RawItem[];
  /** `CO#<c>#RATE#<contact>#<connection>`: a rating answer still awaited */
  ratingWaits: RawItem[];
  notes: RawItem[];
  messages: RawItem[];
  /** `CO#<c>#CMPMSG#<messageId>`: which shipping a sent message belongs to */
  campaignLinks: RawItem[];
  /** the contact-list items with this number and their id pointers (`CO#<c>` / `CLITEM#<id>`) */
  listItems: RawItem[];
  listItemPointers: RawItem[];
  /** the list record each list item counts in (`contactsCount`), one key per list item */
  listCounters: ItemKey[];
  /** the company's contact counter */
  contactCounter: ItemKey;
  shippings: RawItem[];
  /** answers to "is this number on WhatsApp" checks (`CO#<c>` / `NUMCHECK#<request>`, kept an hour by TTL) */
  numberChecks: RawItem[];
  schedules: RawItem[];
  /** cached list cursors of the company's users (may hold the contact's name inside a cursor) */
  pageCursors: RawItem[];
  optOut: RawItem | null;
  optOutWindow: RawItem | null;
};

/** A Brazilian mobile with and without its ninth digit (lists and checks keep the digits as typed), else itself. */
export const numberVariants = (raw: string): string[] => {
  const n = raw.replace(/\D/g, "");
  const m = /^55(\d{2})(9?)(\d{8})$/.exec(n);
  if (!m) return n ? [n] : [];
  return m[2] ? [n, `55${m[1]}${m[3]}`] : [n, `55${m[1]}9${m[3]}`];
};

const asRaw = (items: Record<string, unknown>[] | undefined): RawItem[] => (items ?? []) as RawItem[];

export const createPersonalDataRepository = (db: Db) => {
  const T = db.tableName;
  const C = companyPk;

  const getOne = async (key: ItemKey): Promise<RawItem | null> => {
    const out = await db.doc.send(new GetCommand({ TableName: T, Key: key, ConsistentRead: true }));
    return (out.Item as RawItem | undefined) ?? null;
  };
  const getMany = async (keys: ItemKey[]): Promise<RawItem[]> => {
    const unique = [...new Map(keys.map((k) => [`${k.pk}\u0000${k.sk}`, k])).values()];
    return asRaw(await batchGetAll(db, unique, { consistent: true }));
  };
  /** Every item of a partition (base table or an index), following pages; `filter` narrows what is kept. */
  const queryAll = async (opts: { index?: "gsi1" | "gsi2" | "gsi3"; pk: string; filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> } }) => {
    const items: RawItem[] = [];
    let start: Record<string, unknown> | undefined;
    const pkName = opts.index ? `${opts.index}pk` : "pk";
    do {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: T,
          ...(opts.index ? { IndexName: opts.index } : {}),
          KeyConditionExpression: "#pk = :pk",
          ExpressionAttributeNames: { "#pk": pkName, ...opts.filter?.names },
          ExpressionAttributeValues: { ":pk": opts.pk, ...opts.filter?.values },
          ...(opts.filter ? { FilterExpression: opts.filter.expression } : {}),
          ExclusiveStartKey: start,
        }),
      );
      items.push(...asRaw(out.Items));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  };

  return {
    /** The contact item alone (to check it exists and read its number before anything else). */
    async findContact(companyId: number, contactId: number): Promise<RawItem | null> {
      return getOne({ pk: C(companyId), sk: `CONTACT#${pad(contactId)}` });
    },

    /** The contact's tickets (status check before an erasure: open or pending tickets must be closed first). */
    async ticketsOf(companyId: number, contactId: number): Promise<RawItem[]> {
      const pointers = await queryAll({ pk: `${C(companyId)}#CT#${contactId}` });
      return (await getMany(pointers.map((p) => ({ pk: C(companyId), sk: `TICKET#${pad(Number(p.ticketId))}` })))).filter((t) => Number(t.contactId) === contactId);
    },

    /** How much there is (decides between answering at once and a background job): the contact's messages. */
    async countMessages(companyId: number, contactId: number): Promise<number> {
      let total = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({ TableName: T, IndexName: "gsi2", KeyConditionExpression: "gsi2pk = :pk", ExpressionAttributeValues: { ":pk": `${C(companyId)}#CMSG#${contactId}` }, Select: "COUNT", ExclusiveStartKey: start }),
        );
        total += out.Count ?? 0;
        start = out.LastEvaluatedKey;
      } while (start);
      return total;
    },

    /**
     * Reads everything about the person. `number` and `lid` are passed in (not read from the contact item) so a
     * re-run after a partial erasure still finds the rest.
     */
    async gather(companyId: number, contactId: number, who: { number: string; lid: string | null }): Promise<PersonData> {
      const cpk = C(companyId);
      const contact = await getOne({ pk: cpk, sk: `CONTACT#${pad(contactId)}` });

      const identityKeys: ItemKey[] = [];
      if (who.number) identityKeys.push({ pk: `${cpk}#CID#N#${who.number}`, sk: "CID" });
      if (who.lid) identityKeys.push({ pk: `${cpk}#CID#L#${who.lid}`, sk: "CID" });
      // the contact's e-mail index item and the identities it took over from contacts merged into it (docs/adr/0103, 0104)
      const email = typeof contact?.email === "string" ? contact.email.trim().toLowerCase() : "";
      if (email) identityKeys.push({ pk: `${cpk}#CEMAIL#${email}`, sk: pad(contactId) });
      const aliases = await queryAll({ pk: `${cpk}#CALIAS#${contactId}` });
      for (const a of aliases) identityKeys.push({ pk: `${cpk}#CID#${String(a.sk)}`, sk: "CID" });
      const identities = [...(await getMany(identityKeys)).filter((i) => Number(i.contactId) === contactId), ...aliases];

      const ticketPointers = await queryAll({ pk: `${cpk}#CT#${contactId}` });
      const ticketIds = ticketPointers.map((p) => Number(p.ticketId));
      const tickets = (await getMany(ticketIds.map((id) => ({ pk: cpk, sk: `TICKET#${pad(id)}` })))).filter((t) => Number(t.contactId) === contactId);
      const cycles = await getMany(ticketIds.map((id) => ({ pk: cpk, sk: `CYCLE#${pad(id)}` })));
      const connections = [...new Set([0, ...tickets.map((t) => (t.whatsappId === null || t.whatsappId === undefined ? 0 : Number(t.whatsappId)))])];
      const ratingWaits = await getMany(connections.map((w) => ({ pk: `${cpk}#RATE#${contactId}#${w}`, sk: "RATE" })));
      const notes = (await Promise.all(ticketIds.map((id) => queryAll({ index: "gsi1", pk: `${cpk}#TNOTES#${id}` })))).flat();

      const messages = await queryAll({ index: "gsi2", pk: `${cpk}#CMSG#${contactId}` });
      const campaignLinks = await getMany(messages.filter((m) => m.fromMe).map((m) => ({ pk: `${cpk}#CMPMSG#${String(m.id)}`, sk: "L" })));

      const lists = await queryAll({ index: "gsi1", pk: `${cpk}#CONTACTLIST` });
      const variants = numberVariants(who.number);
      const listItems = await getMany(lists.flatMap((l) => variants.map((v) => ({ pk: `${cpk}#CLIST#${Number(l.id)}`, sk: `N#${v}` }))));
      const listItemPointers = await getMany(listItems.map((i) => ({ pk: cpk, sk: `CLITEM#${pad(Number(i.id))}` })));
      const itemsByList = new Map(listItems.map((i) => [Number(i.contactListId), Number(i.id)]));
      const campaigns = await queryAll({ index: "gsi1", pk: `${cpk}#CMP` });
      const shippingKeys = campaigns.flatMap((c) => {
        const itemId = itemsByList.get(Number(c.contactListId));
        return itemId === undefined ? [] : [{ pk: `${cpk}#CMP#${pad(Number(c.id))}#SHP`, sk: `S#${pad(itemId)}` }];
      });
      const shippings = await getMany(shippingKeys);

      const numberChecks = variants.length
        ? (await queryPrefix(db, cpk, "NUMCHECK#")).filter((i) => variants.includes(String(i.number ?? "").replace(/\D/g, ""))) as RawItem[]
        : [];

      const schedules = await queryAll({ index: "gsi1", pk: `${cpk}#SCH`, filter: { expression: "#cid = :cid", names: { "#cid": "contactId" }, values: { ":cid": contactId } } });

      const users = await queryPrefix(db, cpk, "USER#");
      const pageCursors = (await Promise.all(users.map((u) => queryAll({ pk: `${cpk}#PAGES#${Number(u.id)}` })))).flat();

      const optOut = who.number ? await getOne({ pk: `${cpk}#OPTOUT`, sk: `N#${who.number}` }) : null;
      const optOutWindow = who.number ? await getOne({ pk: `${cpk}#OPTWIN#${who.number}`, sk: "W" }) : null;

      return {
        companyId,
        contactId,
        contact,
        identities,
        ticketPointers,
        tickets,
        cycles,
        ratingWaits,
        notes,
        messages,
        campaignLinks,
        listItems,
        listItemPointers,
        listCounters: listItems.map((i) => ({ pk: cpk, sk: `CONTACTLIST#${pad(Number(i.contactListId))}` })),
        contactCounter: { pk: cpk, sk: "COUNT#contacts" },
        shippings,
        numberChecks,
        schedules,
        pageCursors,
        optOut,
        optOutWindow,
      };
    },

    /** Deletes items, 25 per batch (BatchWrite), retrying what DynamoDB leaves unprocessed. */
    async deleteItems(keys: ItemKey[]): Promise<void> {
      for (let i = 0; i < keys.length; i += 25) {
        let requests: Record<string, unknown>[] | undefined = keys.slice(i, i + 25).map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } }));
        while (requests?.length) {
          const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [T]: requests as never } }));
          requests = out.UnprocessedItems?.[T] as Record<string, unknown>[] | undefined;
        }
      }
    },

    /** Sets and removes attributes of an existing item (nothing happens when the item is gone). */
    async updateItem(key: ItemKey, set: Record<string, unknown>, remove: string[] = [], add: Record<string, number> = {}): Promise<void> {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const sets = Object.entries(set).map(([k, v], i) => ((names[`#s${i}`] = k), (values[`:s${i}`] = v), `#s${i} = :s${i}`));
      const removes = remove.map((k, i) => ((names[`#r${i}`] = k), `#r${i}`));
      const adds = Object.entries(add).map(([k, v], i) => ((names[`#a${i}`] = k), (values[`:a${i}`] = v), `#a${i} :a${i}`));
      const expr = [sets.length ? `SET ${sets.join(", ")}` : "", removes.length ? `REMOVE ${removes.join(", ")}` : "", adds.length ? `ADD ${adds.join(", ")}` : ""].filter(Boolean).join(" ");
      if (!expr) return;
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key,
            UpdateExpression: expr,
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeNames: names,
            ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
          }),
        );
      } catch (e) {
        if ((e as Error).name !== "ConditionalCheckFailedException") throw e;
      }
    },
  };
};
export type PersonalDataRepository = ReturnType<typeof createPersonalDataRepository>;
