import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { ContactImportState } from "@atende/shared/contracts/http/contacts";
import type { Db } from "../../../platform/db/client";
import { nextId } from "../../../platform/db/counters";
import { companyPk, pad } from "../../../platform/db/keys";
import { mergedIndexPage, type ItemFilter } from "../../../platform/db/merged-query";
import { mapItem } from "../../../platform/db/map-item";
import { transact, TxConditionFailed, type TxItem } from "../../../platform/db/transact";
import { channelIdentity, normalizeName, type ContactIdentity } from "./contact-identity";
import { batchGetAll } from "../../../platform/db/batch-get";
import type { DuplicateCandidate } from "./contact-duplicates";

/** One WhatsApp identity of a contact: a canonical phone number, a LID, or a group jid. */

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `CONTACT#${pad(id)}` });
/** A contact's item key, for a read made together with another item (a receipt's ticket and contact, ADR 0045). */
export const contactItemKey = key;
const identityKey = (companyId: number, id: ContactIdentity) => ({ pk: `${companyPk(companyId)}#CID#${id.kind}#${id.value}`, sk: "CID" });
/**
 * The e-mail index (docs/adr/0104): `CO#c#CEMAIL#<e-mail lower>` / `<contact id>`, kept by contact writes, so a
 * website visitor's e-mail finds the known contact with one Query. Not unique: two contacts may share an e-mail
 * (that is a duplicate GET /contacts/duplicates shows).
 */
export const emailIndexKey = (companyId: number, email: string, id: number) => ({ pk: `${companyPk(companyId)}#CEMAIL#${email.trim().toLowerCase()}`, sk: pad(id) });
/** Identities a contact took over from contacts merged into it (`CO#c#CALIAS#<id>` / `<kind>#<value>`): deleted with it. */
export const aliasKey = (companyId: number, id: number, identity: ContactIdentity) => ({ pk: `${companyPk(companyId)}#CALIAS#${id}`, sk: `${identity.kind}#${identity.value}` });
const emailIndexItems = (T: string, c: Contact): TxItem[] => (c.email?.trim() ? [{ Put: { TableName: T, Item: { ...emailIndexKey(c.companyId, c.email, c.id), entity: "contactEmail", contactId: c.id } } }] : []);
const countKey = (companyId: number) => ({ pk: companyPk(companyId), sk: "COUNT#contacts" });
const namePk = (companyId: number) => `${companyPk(companyId)}#CNAME`;
const numberPk = (companyId: number) => `${companyPk(companyId)}#CNUM`;
/** a background import's state, kept a day after its last change (DynamoDB's TTL) */
const importKey = (companyId: number, requestId: string) => ({ pk: companyPk(companyId), sk: `CIMPORT#${requestId}` });
const IMPORT_STATE_TTL_S = 86_400;

const indexFields = (c: Contact) => ({
  gsi1pk: namePk(c.companyId),
  gsi1sk: `${normalizeName(c.name)}#${pad(c.id)}`,
  gsi2pk: numberPk(c.companyId),
  gsi2sk: `${c.number}#${pad(c.id)}`,
});
const toContact = mapItem<Contact>({
  id: true,
  companyId: true,
  name: true,
  number: true,
  email: true,
  profilePicUrl: true,
  isGroup: true,
  lid: true,
  channel: true,
  channelUserId: true,
  channelUsername: true,
  whatsappId: true,
  extraInfo: true,
  createdAt: true,
  updatedAt: true,
});
/** A contact from its stored item (for a read made together with another item, as `contactItemKey`). */
export const contactFromItem = toContact;

export const createContactsRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async findById(companyId: number, id: number): Promise<Contact | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id) }));
      return out.Item ? toContact(out.Item) : null;
    },
    async findByIds(companyId: number, ids: number[]): Promise<Contact[]> {
      return (await batchGetAll(db, [...new Set(ids)].map((id) => key(companyId, id)))).map(toContact);
    },
    async findIdByIdentity(companyId: number, identity: ContactIdentity): Promise<number | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: identityKey(companyId, identity), ConsistentRead: true }));
      return out.Item ? Number(out.Item.contactId) : null;
    },
    /**
     * Creates a contact holding all its identities at once. When another writer already holds one of them,
     * nothing is written and the holder's contact id is returned instead (race-safe upsert).
     */
    async createWithIdentities(contact: Omit<Contact, "id">, identities: ContactIdentity[]): Promise<{ contact: Contact; created: boolean }> {
      const id = await nextId(db, contact.companyId, "contact");
      const full: Contact = { ...contact, id };
      const items: TxItem[] = [
        ...identities.map(
          (i): TxItem => ({ Put: { TableName: T, Item: { ...identityKey(contact.companyId, i), entity: "contactIdentity", contactId: id }, ConditionExpression: "attribute_not_exists(pk)" } }),
        ),
        { Put: { TableName: T, Item: { ...key(contact.companyId, id), ...indexFields(full), entity: "contact", ...full } } },
        ...emailIndexItems(T, full),
        { Update: { TableName: T, Key: countKey(contact.companyId), UpdateExpression: "ADD #c :one", ExpressionAttributeNames: { "#c": "count" }, ExpressionAttributeValues: { ":one": 1 } } },
      ];
      try {
        await transact(db, items);
        return { contact: full, created: true };
      } catch (e) {
        if (!(e instanceof TxConditionFailed)) throw e;
        for (const i of identities) {
          const holder = await this.findIdByIdentity(contact.companyId, i);
          const existing = holder ? await this.findById(contact.companyId, holder) : null;
          if (existing) return { contact: existing, created: false };
        }
        throw e;
      }
    },
    /** Adds an identity to an existing contact (e.g. its LID learnt later); false when another contact holds it. */
    async addIdentity(companyId: number, contactId: number, identity: ContactIdentity): Promise<boolean> {
      try {
        await transact(db, [
          { Put: { TableName: T, Item: { ...identityKey(companyId, identity), entity: "contactIdentity", contactId }, ConditionExpression: "attribute_not_exists(pk) OR contactId = :id", ExpressionAttributeValues: { ":id": contactId } } },
        ]);
        return true;
      } catch (e) {
        if (e instanceof TxConditionFailed) return false;
        throw e;
      }
    },
    /** Points an identity at a contact whoever held it (a LID WhatsApp says is that contact's number). */
    async pointIdentity(companyId: number, identity: ContactIdentity, contactId: number): Promise<void> {
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...identityKey(companyId, identity), entity: "contactIdentity", contactId } }));
    },
    /** Saves edited fields; a changed number moves the number identity (ERR_DUPLICATED_CONTACT if taken). */
    async save(next: Contact, previousNumber: string | null, previousEmail?: string | null): Promise<"ok" | "duplicate"> {
      const items: TxItem[] = [{ Put: { TableName: T, Item: { ...key(next.companyId, next.id), ...indexFields(next), entity: "contact", ...next } } }, ...emailIndexItems(T, next)];
      if (previousEmail?.trim() && previousEmail.trim().toLowerCase() !== next.email?.trim().toLowerCase()) items.push({ Delete: { TableName: T, Key: emailIndexKey(next.companyId, previousEmail, next.id) } });
      if (previousNumber !== null && previousNumber !== next.number) {
        items.push(
          { Put: { TableName: T, Item: { ...identityKey(next.companyId, { kind: "N", value: next.number }), entity: "contactIdentity", contactId: next.id }, ConditionExpression: "attribute_not_exists(pk)" } },
          { Delete: { TableName: T, Key: identityKey(next.companyId, { kind: "N", value: previousNumber }) } },
        );
      }
      try {
        await transact(db, items);
        return "ok";
      } catch (e) {
        if (e instanceof TxConditionFailed) return "duplicate";
        throw e;
      }
    },
    /**
     * Deletes the contact, its identity items (so the number/LID can become a new contact) and one from the count.
     * An identity another contact holds by now is left alone. Its tickets and messages stay (history).
     */
    async remove(contact: Contact): Promise<void> {
      const { companyId, id } = contact;
      const candidates: ContactIdentity[] = [];
      if (contact.number) candidates.push({ kind: contact.isGroup ? "G" : "N", value: contact.number });
      if (contact.lid) candidates.push({ kind: "L", value: contact.lid });
      if (contact.channel && contact.channelUserId) candidates.push(channelIdentity(contact.channel, contact.channelUserId));
      const aliases = await this.aliasesOf(companyId, id);
      candidates.push(...aliases);
      const held = [];
      for (const identity of candidates) if ((await this.findIdByIdentity(companyId, identity)) === id) held.push(identity);
      for (const a of aliases) await db.doc.send(new DeleteCommand({ TableName: T, Key: aliasKey(companyId, id, a) }));
      if (contact.email?.trim()) await db.doc.send(new DeleteCommand({ TableName: T, Key: emailIndexKey(companyId, contact.email, id) }));
      await transact(db, [
        { Delete: { TableName: T, Key: key(companyId, id), ConditionExpression: "attribute_exists(pk)" } },
        ...held.map((i): TxItem => ({ Delete: { TableName: T, Key: identityKey(companyId, i), ConditionExpression: "contactId = :id", ExpressionAttributeValues: { ":id": id } } })),
        { Update: { TableName: T, Key: countKey(companyId), UpdateExpression: "ADD #c :minus", ExpressionAttributeNames: { "#c": "count" }, ExpressionAttributeValues: { ":minus": -1 } } },
      ]);
    },
    /** The contacts holding this e-mail (the e-mail index; at most `limit`). */
    async idsByEmail(companyId: number, email: string, limit = 20): Promise<number[]> {
      if (!email.trim()) return [];
      const out = await db.doc.send(new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": emailIndexKey(companyId, email, 0).pk }, Limit: limit }));
      return (out.Items ?? []).map((i) => Number(i.contactId));
    },
    async aliasesOf(companyId: number, id: number): Promise<ContactIdentity[]> {
      const out = await db.doc.send(new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": aliasKey(companyId, id, { kind: "N", value: "" }).pk } }));
      return (out.Items ?? []).map((a) => {
        const [kind, ...rest] = String(a.sk).split("#");
        return { kind: kind as ContactIdentity["kind"], value: rest.join("#") };
      });
    },
    /**
     * The company's contacts for the duplicates view: the number index, 1,000 a page, at most `max` (bounded; a
     * larger company gets `truncated`, docs/adr/0103). Only the fields the grouping needs.
     */
    async readForDuplicates(companyId: number, max: number) {
      const contacts: DuplicateCandidate[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            IndexName: "gsi2",
            KeyConditionExpression: "gsi2pk = :pk",
            ExpressionAttributeValues: { ":pk": numberPk(companyId) },
            ProjectionExpression: "id, #n, #num, email, lid, isGroup",
            ExpressionAttributeNames: { "#n": "name", "#num": "number" },
            Limit: Math.min(1000, max - contacts.length),
            ExclusiveStartKey: start,
          }),
        );
        for (const i of out.Items ?? [])
          contacts.push({ id: Number(i.id), name: String(i.name ?? ""), number: String(i.number ?? ""), email: String(i.email ?? ""), lid: i.lid ? String(i.lid) : null, isGroup: Boolean(i.isGroup) });
        start = out.LastEvaluatedKey;
      } while (start && contacts.length < max);
      return { contacts, truncated: Boolean(start) };
    },
    /** Records identities `id` took over in a merge, so deleting it later frees them too. */
    async addAliases(companyId: number, id: number, identities: ContactIdentity[]): Promise<void> {
      for (const i of identities) await db.doc.send(new PutCommand({ TableName: T, Item: { ...aliasKey(companyId, id, i), entity: "contactAlias", contactId: id } }));
    },
    async count(companyId: number): Promise<number> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: countKey(companyId) }));
      return Number(out.Item?.count ?? 0);
    },
    /** Contacts by name order, optionally only those created between two days (yyyy-MM-dd, both included). */
    async pageByName(companyId: number, limit: number, cursor?: string, created?: { from: string; to: string }) {
      const filter: ItemFilter | undefined = created
        ? { expression: "#c BETWEEN :from AND :to", names: { "#c": "createdAt" }, values: { ":from": created.from, ":to": `${created.to}~` } }
        : undefined;
      const out = await mergedIndexPage(db, [{ index: "gsi1", pk: namePk(companyId) }], { limit, cursor, filter, ascending: true });
      return { items: out.items.map(toContact), next: out.next };
    },
    /** Prefix search on the name index and the number index (bounded: `limit` of each). */
    async searchPrefix(companyId: number, namePrefix: string, numberPrefix: string, limit: number): Promise<Contact[]> {
      const queries = [];
      if (namePrefix)
        queries.push(
          db.doc.send(new QueryCommand({ TableName: T, IndexName: "gsi1", KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :p)", ExpressionAttributeValues: { ":pk": namePk(companyId), ":p": namePrefix }, Limit: limit })),
        );
      if (numberPrefix)
        queries.push(
          db.doc.send(new QueryCommand({ TableName: T, IndexName: "gsi2", KeyConditionExpression: "gsi2pk = :pk AND begins_with(gsi2sk, :p)", ExpressionAttributeValues: { ":pk": numberPk(companyId), ":p": numberPrefix }, Limit: limit })),
        );
      const outs = await Promise.all(queries);
      const byId = new Map<number, Contact>();
      for (const out of outs) for (const item of out.Items ?? []) byId.set(Number(item.id), toContact(item));
      return [...byId.values()];
    },
    /** Keeps a background import's state (its start, each progress, its end) for GET /contacts/import/{requestId}. */
    async putImportState(companyId: number, state: ContactImportState, now: Date): Promise<void> {
      await db.doc.send(
        new PutCommand({ TableName: T, Item: { ...importKey(companyId, state.requestId), entity: "contactImport", ...state, updatedAt: now.toISOString(), ttl: Math.floor(now.getTime() / 1000) + IMPORT_STATE_TTL_S } }),
      );
    },
    async findImportState(companyId: number, requestId: string): Promise<ContactImportState | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: importKey(companyId, requestId), ConsistentRead: true }));
      if (!out.Item) return null;
      const { done, error, progress } = out.Item as ContactImportState;
      return { requestId, done: Boolean(done), ...(error ? { error } : {}), ...(progress ? { progress: { merged: Number(progress.merged), total: Number(progress.total) } } : {}) };
    },
    async setProfile(companyId: number, id: number, fields: Partial<Pick<Contact, "name" | "profilePicUrl" | "lid">>, now: Date): Promise<Contact | null> {
      const current = await this.findById(companyId, id);
      if (!current) return null;
      const next = { ...current, ...fields, updatedAt: now.toISOString() };
      await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: key(companyId, id),
          UpdateExpression: "SET #n = :n, #p = :p, #l = :l, #u = :u, gsi1sk = :s",
          ExpressionAttributeNames: { "#n": "name", "#p": "profilePicUrl", "#l": "lid", "#u": "updatedAt" },
          ExpressionAttributeValues: { ":n": next.name, ":p": next.profilePicUrl, ":l": next.lid, ":u": next.updatedAt, ":s": indexFields(next).gsi1sk },
        }),
      );
      return next;
    },
  };
};
export type ContactsRepository = ReturnType<typeof createContactsRepository>;
