import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure, retryConflicts, type Db } from "../platform/db";
import type { SessionIdentity } from "../providers/provider.port";

/**
 * Connection leases: which host drives which connection. One item per connection in one platform partition
 * (host infrastructure, not tenant data; it holds only ids). A host holds a lease while it heartbeats;
 * `fence` grows on every takeover, so a host that lost its lease can no longer write (auth writes check it).
 */
export const LEASE_PK = "SESSIONHOST#LEASE";
export const leaseKey = (id: SessionIdentity) => ({ pk: LEASE_PK, sk: `${id.companyId}#${id.whatsappId}` });

export type Channel = "simulator" | "baileys";
export type Lease = SessionIdentity & {
  channel: Channel;
  owner?: string;
  fence: number;
  expiresAt: number;
  heartbeatAt?: number;
  wanted: boolean;
  /** set while no host has room for it (WAITING_CAPACITY published once); removed by the next acquisition */
  waitingSince?: number;
  /** the marker of a drain: the host that handed the lease over, and when (docs/adr/0070) */
  handedOverBy?: string;
  handedOverAt?: number;
};
export type HeldLease = { identity: SessionIdentity; owner: string; fence: number };

export const createLeaseRepository = (db: Db) => ({
  async get(id: SessionIdentity): Promise<Lease | undefined> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: leaseKey(id), ConsistentRead: true }));
    return out.Item as Lease | undefined;
  },

  /**
   * Takes the lease when nobody holds it, its holder stopped heartbeating, or this host already held it
   * (a restarted host with the same id), or its holder is one of `deadOwners` (hosts whose registry heartbeat
   * is stale: taken before their leases expire, docs/adr/0070). Returns the new fence (every acquisition
   * increments it), or null when another live host holds it.
   */
  async acquire(id: SessionIdentity, owner: string, channel: Channel, now: number, ttlMs: number, deadOwners: readonly string[] = []): Promise<HeldLease | null> {
    // DynamoDB's IN takes 100 operands at most (as in listOrphans)
    deadOwners = deadOwners.slice(0, 90);
    const dead = Object.fromEntries(deadOwners.map((o, i) => [`:dead${i}`, o]));
    try {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: leaseKey(id),
          UpdateExpression:
            "SET #owner = :me, #exp = :exp, #hb = :now, #fence = if_not_exists(#fence, :zero) + :one, #wanted = :true, #co = :co, #wa = :wa, #ch = if_not_exists(#ch, :ch) REMOVE #waiting, #hoBy, #hoAt",
          ConditionExpression: `attribute_not_exists(#owner) OR #owner = :me OR #exp < :now${deadOwners.length ? ` OR #owner IN (${Object.keys(dead).join(", ")})` : ""}`,
          ExpressionAttributeNames: {
            "#owner": "owner",
            "#exp": "expiresAt",
            "#hb": "heartbeatAt",
            "#fence": "fence",
            "#wanted": "wanted",
            "#co": "companyId",
            "#wa": "whatsappId",
            "#ch": "channel",
            "#waiting": "waitingSince",
            "#hoBy": "handedOverBy",
            "#hoAt": "handedOverAt",
          },
          ExpressionAttributeValues: { ":me": owner, ":exp": now + ttlMs, ":now": now, ":zero": 0, ":one": 1, ":true": true, ":co": id.companyId, ":wa": id.whatsappId, ":ch": channel, ...dead },
          ReturnValues: "ALL_NEW",
        }),
      );
      return { identity: id, owner, fence: (out.Attributes as Lease).fence };
    } catch (err) {
      if (isConditionFailure(err)) return null;
      throw err;
    }
  },

  /**
   * Heartbeat: extends the lease only while this host still holds it with this fence. False: the lease is lost.
   * The lease item takes part in every auth write of the connection: a heartbeat that meets one in flight
   * (TransactionConflict) is tried again, not missed.
   */
  async renew(held: HeldLease, now: number, ttlMs: number): Promise<boolean> {
    try {
      await retryConflicts(() => db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: leaseKey(held.identity),
          UpdateExpression: "SET #exp = :exp, #hb = :now",
          ConditionExpression: "#owner = :me AND #fence = :fence",
          ExpressionAttributeNames: { "#owner": "owner", "#exp": "expiresAt", "#hb": "heartbeatAt", "#fence": "fence" },
          ExpressionAttributeValues: { ":me": held.owner, ":fence": held.fence, ":exp": now + ttlMs, ":now": now },
        }),
      ));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  },

  /**
   * Gives the lease up. `wanted: false` (stop, logout) means no host should start it again until a new start.
   * `handedOverAt`: a drain hands it over (marker `handedOverBy`/`handedOverAt`): the next scan of another host takes it.
   */
  async release(held: HeldLease, wanted: boolean, handedOverAt?: number): Promise<void> {
    const marker = handedOverAt === undefined ? "" : ", #hoBy = :me, #hoAt = :hoAt";
    try {
      await retryConflicts(() => db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: leaseKey(held.identity),
          UpdateExpression: `REMOVE #owner SET #exp = :zero, #wanted = :wanted${marker}`,
          ConditionExpression: "#owner = :me AND #fence = :fence",
          ExpressionAttributeNames: { "#owner": "owner", "#exp": "expiresAt", "#fence": "fence", "#wanted": "wanted", ...(marker ? { "#hoBy": "handedOverBy", "#hoAt": "handedOverAt" } : {}) },
          ExpressionAttributeValues: { ":me": held.owner, ":fence": held.fence, ":zero": 0, ":wanted": wanted, ...(marker ? { ":hoAt": handedOverAt } : {}) },
        }),
      ));
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  },

  /** Marks a connection as not to be run (stop/logout received by a host that does not hold it). */
  async unwant(id: SessionIdentity): Promise<void> {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: leaseKey(id),
        UpdateExpression: "SET #wanted = :false",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#wanted": "wanted" },
        ExpressionAttributeValues: { ":false": false },
      }),
    ).catch((err) => {
      if (!isConditionFailure(err)) throw err;
    });
  },

  /**
   * A connection asked to start on a host with no room (full or draining): the lease item records that it should
   * run, unowned, so the least-loaded host with room takes it at its next scan. A held lease is left alone.
   */
  async want(id: SessionIdentity, channel: Channel): Promise<void> {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: leaseKey(id),
        UpdateExpression: "SET #wanted = :true, #co = :co, #wa = :wa, #ch = if_not_exists(#ch, :ch), #fence = if_not_exists(#fence, :zero), #exp = if_not_exists(#exp, :zero)",
        ConditionExpression: "attribute_not_exists(#owner)",
        ExpressionAttributeNames: { "#wanted": "wanted", "#owner": "owner", "#co": "companyId", "#wa": "whatsappId", "#ch": "channel", "#fence": "fence", "#exp": "expiresAt" },
        ExpressionAttributeValues: { ":true": true, ":co": id.companyId, ":wa": id.whatsappId, ":ch": channel, ":zero": 0 },
      }),
    ).catch((err) => {
      if (!isConditionFailure(err)) throw err;
    });
  },

  /**
   * Marks an orphan as waiting for capacity, once: true only for the call that set the mark (that host publishes
   * WAITING_CAPACITY), and only while nobody acquired it since it was listed (same fence, still wanted).
   */
  async markWaiting(lease: Lease, now: number): Promise<boolean> {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: leaseKey(lease),
          UpdateExpression: "SET #waiting = :now",
          ConditionExpression: "attribute_not_exists(#waiting) AND #fence = :fence AND #wanted = :true",
          ExpressionAttributeNames: { "#waiting": "waitingSince", "#fence": "fence", "#wanted": "wanted" },
          ExpressionAttributeValues: { ":now": now, ":fence": lease.fence, ":true": true },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  },

  /**
   * Leases of connections that should run and whose holder is gone: none, heartbeat older than the expiry, or a
   * holder among `deadOwners` (stale registry heartbeat). This host's own leases too (a restart with the same id).
   */
  async listOrphans(now: number, me: string, deadOwners: readonly string[] = []): Promise<Lease[]> {
    const dead = Object.fromEntries(deadOwners.slice(0, 90).map((o, i) => [`:dead${i}`, o]));
    const out: Lease[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          KeyConditionExpression: "pk = :pk",
          // this host's own leases too: a restarted host with the same id continues its sessions at once
          FilterExpression: `#wanted = :true AND (attribute_not_exists(#owner) OR #exp < :now OR #owner = :me${deadOwners.length ? ` OR #owner IN (${Object.keys(dead).join(", ")})` : ""})`,
          ExpressionAttributeNames: { "#wanted": "wanted", "#owner": "owner", "#exp": "expiresAt" },
          ExpressionAttributeValues: { ":pk": LEASE_PK, ":true": true, ":now": now, ":me": me, ...dead },
          ExclusiveStartKey: start,
        }),
      );
      out.push(...((page.Items ?? []) as Lease[]));
      start = page.LastEvaluatedKey;
    } while (start);
    return out;
  },

  /** The condition every auth write carries: this host still holds the lease with this fence. */
  holdsCondition(held: HeldLease) {
    return {
      TableName: db.tableName,
      Key: leaseKey(held.identity),
      ConditionExpression: "#owner = :me AND #fence = :fence",
      ExpressionAttributeNames: { "#owner": "owner", "#fence": "fence" },
      ExpressionAttributeValues: { ":me": held.owner, ":fence": held.fence },
    };
  },
});
export type LeaseRepository = ReturnType<typeof createLeaseRepository>;
