import { BatchWriteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Profile } from "@atende/shared/domain/permissions/permissions";
import type { Db } from "../../platform/db/client";
import { mapItem } from "../../platform/db/map-item";
import { companyPk } from "../../platform/db/keys";
import { forgetMemoized, memoized } from "../../platform/unit-of-work";

/** A browser socket, registered on $connect and removed on $disconnect or GoneException. */
export type SocketConnection = {
  connectionId: string;
  companyId: number;
  userId: number;
  profile: Profile;
  super: boolean;
  queueIds: number[];
  allTicket: "enabled" | "desabled";
  tokenVersion: number;
  /** rooms joined with joinTickets / joinChatBox / joinNotification */
  rooms: string[];
  connectedAt: string;
  /** the wire protocol: our own `{channel, event, data}` frames (absent on older records) or Socket.IO's (ADR 0013) */
  protocol?: "atende" | "socketio";
  /** Socket.IO: the number of the next heartbeat job; a duplicate delivery of an older one is dropped */
  pingSeq?: number;
  /** Socket.IO: the namespace the client connected ("/" or "/api", ADR 0068); absent until its connect packet */
  namespace?: string;
};

/** What decides which events a socket receives; re-read from the user when it changes (ADR 0013). */
export type SocketPermissions = Pick<SocketConnection, "profile" | "super" | "queueIds" | "allTicket">;

/** Sockets live at most 2 h in API Gateway; the TTL cleans up any that never saw $disconnect. */
const TTL_SECONDS = 3 * 3600;
/** the company's socket list, read once per unit of work (an inbound event publishes several events, ADR 0039) */
const listMemo = (companyId: number) => `sockets:${companyId}`;
const key = (companyId: number, connectionId: string) => ({ pk: `${companyPk(companyId)}#WS`, sk: connectionId });
/** $disconnect carries only the connection id: a pointer finds the company. */
const pointerKey = (connectionId: string) => ({ pk: `WSCONN#${connectionId}`, sk: "WSCONN" });
const toConnection = mapItem<SocketConnection>({
  connectionId: true,
  companyId: true,
  userId: true,
  profile: true,
  super: true,
  queueIds: true,
  allTicket: true,
  tokenVersion: true,
  rooms: true,
  connectedAt: true,
  protocol: true,
  pingSeq: true,
  namespace: true,
});

/** The company's open sockets as stored now (never memoised). */
const listFresh = async (db: Db, companyId: number): Promise<SocketConnection[]> => {
  const items: SocketConnection[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": `${companyPk(companyId)}#WS` },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []).map(toConnection));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
};

export const createConnectionsRepository = (db: Db) => ({
  async register(conn: SocketConnection, now: Date): Promise<void> {
    const ttl = Math.floor(now.getTime() / 1000) + TTL_SECONDS;
    forgetMemoized(listMemo(conn.companyId));
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: db.tableName, Item: { ...key(conn.companyId, conn.connectionId), entity: "socket", ...conn, ttl } } },
          { Put: { TableName: db.tableName, Item: { ...pointerKey(conn.connectionId), entity: "socketPointer", companyId: conn.companyId, ttl } } },
        ],
      }),
    );
  },
  async findById(connectionId: string): Promise<SocketConnection | null> {
    const ptr = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: pointerKey(connectionId) }));
    if (!ptr.Item) return null;
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(Number(ptr.Item.companyId), connectionId) }));
    return out.Item ? toConnection(out.Item) : null;
  },
  async remove(companyId: number, connectionId: string): Promise<void> {
    forgetMemoized(listMemo(companyId));
    await db.doc.send(
      new BatchWriteCommand({
        RequestItems: {
          [db.tableName]: [{ DeleteRequest: { Key: key(companyId, connectionId) } }, { DeleteRequest: { Key: pointerKey(connectionId) } }],
        },
      }),
    );
  },
  /**
   * Joins a room atomically: a client sends its joins back to back and API Gateway runs their $default
   * invocations concurrently, so a read-modify-write of the list would lose some.
   */
  async addRoom(companyId: number, connectionId: string, room: string): Promise<void> {
    forgetMemoized(listMemo(companyId));
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(companyId, connectionId),
        UpdateExpression: "SET rooms = list_append(if_not_exists(rooms, :empty), :r)",
        ConditionExpression: "attribute_exists(pk) AND NOT contains(rooms, :room)",
        ExpressionAttributeValues: { ":empty": [], ":r": [room], ":room": room },
      }),
    ).catch((e: Error) => {
      if (e.name !== "ConditionalCheckFailedException") throw e;
    });
  },
  /** Leaves a room: the list is replaced only if nobody changed it meanwhile, else read again. */
  async removeRoom(companyId: number, connectionId: string, room: string): Promise<void> {
    forgetMemoized(listMemo(companyId));
    for (let attempt = 0; attempt < 5; attempt++) {
      const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId, connectionId), ConsistentRead: true }));
      const rooms = (out.Item?.rooms as string[] | undefined) ?? [];
      if (!out.Item || !rooms.includes(room)) return;
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: key(companyId, connectionId),
            UpdateExpression: "SET rooms = :next",
            ConditionExpression: "rooms = :prev",
            ExpressionAttributeValues: { ":next": rooms.filter((r) => r !== room), ":prev": rooms },
          }),
        );
        return;
      } catch (e) {
        if ((e as Error).name !== "ConditionalCheckFailedException") throw e;
      }
    }
  },
  /** A profile or queue change applies to the user's open sockets from now on. */
  async setPermissions(companyId: number, connectionId: string, p: SocketPermissions): Promise<void> {
    forgetMemoized(listMemo(companyId));
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(companyId, connectionId),
        UpdateExpression: "SET #profile = :p, #super = :s, queueIds = :q, allTicket = :a",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#profile": "profile", "#super": "super" },
        ExpressionAttributeValues: { ":p": p.profile, ":s": p.super, ":q": p.queueIds, ":a": p.allTicket },
      }),
    ).catch((e: Error) => {
      if (e.name !== "ConditionalCheckFailedException") throw e;
    });
  },
  /** Socket.IO: the namespace the client connected; its events are sent on it from now on (ADR 0068). */
  async setNamespace(companyId: number, connectionId: string, namespace: string): Promise<void> {
    forgetMemoized(listMemo(companyId));
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(companyId, connectionId),
        UpdateExpression: "SET #ns = :ns",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#ns": "namespace" },
        ExpressionAttributeValues: { ":ns": namespace },
      }),
    ).catch((e: Error) => {
      if (e.name !== "ConditionalCheckFailedException") throw e;
    });
  },
  /** Moves the heartbeat on from `seq` to `seq + 1`; false when the socket is gone or another job already did. */
  async advancePing(companyId: number, connectionId: string, seq: number): Promise<boolean> {
    forgetMemoized(listMemo(companyId));
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: key(companyId, connectionId),
          UpdateExpression: "SET pingSeq = :next",
          ConditionExpression: "attribute_exists(pk) AND pingSeq = :seq",
          ExpressionAttributeValues: { ":seq": seq, ":next": seq + 1 },
        }),
      );
      return true;
    } catch (e) {
      if ((e as Error).name === "ConditionalCheckFailedException") return false;
      throw e;
    }
  },
  /**
   * Whether the user still has a socket (docs/adr/0044: the agent status follows the sockets). A record past its
   * TTL counts as gone (DynamoDB deletes expired items late). Reads the company's socket partition, keys only.
   */
  async hasLiveSocket(companyId: number, userId: number, now: Date): Promise<boolean> {
    let start: Record<string, unknown> | undefined;
    do {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          KeyConditionExpression: "pk = :pk",
          FilterExpression: "userId = :u AND (attribute_not_exists(#ttl) OR #ttl > :now)",
          ProjectionExpression: "pk",
          ExpressionAttributeNames: { "#ttl": "ttl" },
          ExpressionAttributeValues: { ":pk": `${companyPk(companyId)}#WS`, ":u": userId, ":now": Math.floor(now.getTime() / 1000) },
          ExclusiveStartKey: start,
        }),
      );
      if (out.Items?.length) return true;
      start = out.LastEvaluatedKey;
    } while (start);
    return false;
  },
  /**
   * The company's open sockets. Inside a unit of work (one inbound event, platform/unit-of-work.ts) read once and
   * shared by every event it publishes, for at most a second; this repository's own writes read it again.
   */
  listByCompany(companyId: number): Promise<SocketConnection[]> {
    return memoized(listMemo(companyId), () => listFresh(db, companyId));
  },
});
export type ConnectionsRepository = ReturnType<typeof createConnectionsRepository>;
