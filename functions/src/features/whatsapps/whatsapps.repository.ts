import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { ConnectionStatus } from "@atende/shared/constants/business";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { queryPrefix } from "../../platform/db/query-prefix";
import { mapItem } from "../../platform/db/map-item";
import { setExpression } from "../../platform/db/update";

/** The entity is defined once, in shared. */
export type { NewWhatsapp, Whatsapp, WhatsappChanges, WhatsappSchedule } from "@atende/shared/domain/whatsapps/whatsapp";
import type { NewWhatsapp, Whatsapp, WhatsappChanges } from "@atende/shared/domain/whatsapps/whatsapp";
export type SessionState = { status: ConnectionStatus; qrcode: string; retries: number; number?: string; disconnectReason?: string | null; pairingCode?: string | null };

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `WHATSAPP#${pad(id)}` });
/** One item per connection name: names are unique per company, also under concurrent creates. */
const nameKey = (companyId: number, name: string) => ({ pk: companyPk(companyId), sk: `WHATSAPPNAME#${name.trim().toLowerCase()}` });
/** The external API finds a connection by its token without knowing the company. */
const tokenKey = (token: string) => ({ pk: `WATOKEN#${token}`, sk: "WATOKEN" });
const toWhatsapp = mapItem<Whatsapp>({
  id: true,
  companyId: true,
  name: true,
  number: true,
  status: true,
  isDefault: true,
  channel: true,
  provider: true,
  greetingMessage: true,
  complationMessage: true,
  outOfHoursMessage: true,
  ratingMessage: true,
  expiresInactiveMessage: true,
  expiresTicket: true,
  timeUseBotQueues: true,
  maxUseBotQueues: true,
  timeToTransfer: true,
  transferQueueId: true,
  promptId: true,
  integrationId: true,
  flowId: true,
  queueIds: true,
  schedules: true,
  token: true,
  qrcode: true,
  retries: true,
  disconnectReason: true,
  pairingCode: true,
  createdAt: true,
  updatedAt: true,
});

const isCancelled = (err: unknown) => err instanceof Error && (err.name === "TransactionCanceledException" || err.name === "ConditionalCheckFailedException");

export class DuplicateNameError extends Error {}

export const createWhatsappsRepository = (db: Db) => ({
  /** Creates the connection with its name and token items; DuplicateNameError when the name is taken in the company. */
  async create(companyId: number, input: NewWhatsapp, now: Date): Promise<Whatsapp> {
    const id = await nextId(db, companyId, "whatsapp");
    const w: Whatsapp = { ...input, id, companyId, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: db.tableName, Item: { ...key(companyId, id), entity: "whatsapp", ...w }, ConditionExpression: "attribute_not_exists(pk)" } },
            { Put: { TableName: db.tableName, Item: { ...nameKey(companyId, w.name), whatsappId: id }, ConditionExpression: "attribute_not_exists(pk)" } },
            { Put: { TableName: db.tableName, Item: { ...tokenKey(w.token), companyId, whatsappId: id }, ConditionExpression: "attribute_not_exists(pk)" } },
          ],
        }),
      );
    } catch (err) {
      if (isCancelled(err)) throw new DuplicateNameError();
      throw err;
    }
    return w;
  },

  async findById(companyId: number, id: number): Promise<Whatsapp | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId, id) }));
    return out.Item ? toWhatsapp(out.Item) : null;
  },

  /** A company has few connections (plan-limited): one query of its partition. */
  async listByCompany(companyId: number): Promise<Whatsapp[]> {
    return (await queryPrefix(db, companyPk(companyId), "WHATSAPP#")).map(toWhatsapp);
  },

  async findByToken(token: string): Promise<Whatsapp | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: tokenKey(token) }));
    if (!out.Item) return null;
    return this.findById(out.Item.companyId as number, out.Item.whatsappId as number);
  },

  /** Updates fields; a renamed connection moves its name item in the same transaction (DuplicateNameError if taken). */
  async update(current: Whatsapp, changes: WhatsappChanges, now: Date): Promise<Whatsapp> {
    const fields = { ...changes, updatedAt: now.toISOString() };
    const renamed = changes.name !== undefined && changes.name.trim().toLowerCase() !== current.name.trim().toLowerCase();
    const update = { TableName: db.tableName, Key: key(current.companyId, current.id), ConditionExpression: "attribute_exists(pk)", ...setExpression(fields) };
    try {
      if (renamed) {
        await db.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Update: update },
              { Delete: { TableName: db.tableName, Key: nameKey(current.companyId, current.name) } },
              { Put: { TableName: db.tableName, Item: { ...nameKey(current.companyId, changes.name as string), whatsappId: current.id }, ConditionExpression: "attribute_not_exists(pk)" } },
            ],
          }),
        );
      } else await db.doc.send(new UpdateCommand(update));
    } catch (err) {
      if (renamed && isCancelled(err)) throw new DuplicateNameError();
      throw err;
    }
    return { ...current, ...fields };
  },

  /** Session state from the session host; null when the connection no longer exists. */
  async setSession(companyId: number, id: number, state: SessionState, now: Date): Promise<Whatsapp | null> {
    try {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: key(companyId, id),
          ConditionExpression: "attribute_exists(pk)",
          ...setExpression({ ...state, updatedAt: now.toISOString() }),
          ReturnValues: "ALL_NEW",
        }),
      );
      return out.Attributes ? toWhatsapp(out.Attributes) : null;
    } catch (err) {
      if (isCancelled(err)) return null;
      throw err;
    }
  },

  async remove(w: Whatsapp): Promise<void> {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: db.tableName, Key: key(w.companyId, w.id) } },
          { Delete: { TableName: db.tableName, Key: nameKey(w.companyId, w.name) } },
          { Delete: { TableName: db.tableName, Key: tokenKey(w.token) } },
        ],
      }),
    );
  },

  /** Makes one connection the default and clears the flag on the others. */
  async setDefault(companyId: number, id: number, others: number[], now: Date): Promise<void> {
    for (const otherId of others)
      await db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: key(companyId, otherId), ConditionExpression: "attribute_exists(pk)", ...setExpression({ isDefault: false, updatedAt: now.toISOString() }) })).catch((err) => {
        if (!isCancelled(err)) throw err;
      });
    await db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: key(companyId, id), ...setExpression({ isDefault: true }) }));
  },
});
export type WhatsappsRepository = ReturnType<typeof createWhatsappsRepository>;

