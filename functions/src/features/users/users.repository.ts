import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Profile } from "@atende/shared/domain/permissions/permissions";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { queryPrefix } from "../../platform/db/query-prefix";
import { mapItem } from "../../platform/db/map-item";
import { setExpression } from "../../platform/db/update";
import { AppError } from "../../platform/errors";
import { noteUserWrite } from "./user-writes";

export type UserRecord = {
  id: number;
  companyId: number;
  name: string;
  email: string;
  passwordHash: string;
  profile: Profile;
  super: boolean;
  whatsappId: number | null;
  allTicket: "enabled" | "desabled";
  queueIds: number[];
  online: boolean;
  lastSeenAt: string | null;
  /** bumped on every login: older sessions stop working */
  tokenVersion: number;
  refreshJti: string | null;
  prevRefreshJti: string | null;
  prevRefreshUntil: string | null;
  createdAt: string;
  updatedAt: string;
};
export type NewUser = Pick<UserRecord, "name" | "email" | "passwordHash" | "profile" | "super" | "whatsappId" | "allTicket" | "queueIds">;

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `USER#${pad(id)}` });
/** Login needs the company from the email alone: a pointer item per email (emails are unique platform-wide). */
const loginKey = (email: string) => ({ pk: `LOGIN#${email.toLowerCase()}`, sk: "LOGIN" });
const toUser = mapItem<UserRecord>({
  id: true,
  companyId: true,
  name: true,
  email: true,
  passwordHash: true,
  profile: true,
  super: true,
  whatsappId: true,
  allTicket: true,
  queueIds: true,
  online: true,
  lastSeenAt: true,
  tokenVersion: true,
  refreshJti: true,
  prevRefreshJti: true,
  prevRefreshUntil: true,
  createdAt: true,
  updatedAt: true,
});

export const createUsersRepository = (db: Db) => ({
  async create(companyId: number, input: NewUser, now: Date): Promise<UserRecord> {
    const id = await nextId(db, companyId, "user");
    const user: UserRecord = {
      ...input,
      email: input.email.toLowerCase(),
      id,
      companyId,
      online: false,
      lastSeenAt: null,
      tokenVersion: 0,
      refreshJti: null,
      prevRefreshJti: null,
      prevRefreshUntil: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.tableName,
                Item: { ...loginKey(user.email), entity: "login", companyId, userId: id },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            { Put: { TableName: db.tableName, Item: { ...key(companyId, id), entity: "user", ...user } } },
          ],
        }),
      );
    } catch (e) {
      if ((e as Error).name === "TransactionCanceledException") throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
      throw e;
    }
    return user;
  },
  async findById(companyId: number, id: number): Promise<UserRecord | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId, id) }));
    return out.Item ? toUser(out.Item) : null;
  },
  async findByEmail(email: string): Promise<UserRecord | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: loginKey(email) }));
    if (!out.Item) return null;
    return this.findById(Number(out.Item.companyId), Number(out.Item.userId));
  },
  async listByCompany(companyId: number): Promise<UserRecord[]> {
    return (await queryPrefix(db, companyPk(companyId), "USER#")).map(toUser);
  },
  /**
   * Saves profile fields. A changed email moves the LOGIN# pointer in the same transaction
   * (ERR_EMAIL_ALREADY_EXISTS when the new email is taken).
   */
  async update(
    before: UserRecord,
    patch: Partial<Pick<UserRecord, "name" | "email" | "passwordHash" | "profile" | "whatsappId" | "allTicket" | "queueIds">>,
    now: Date,
  ): Promise<UserRecord> {
    // A new password ends every session of the user in the same write: the token version moves (old access
    // tokens and sockets are refused) and the refresh ids are dropped (old refresh cookies are refused).
    const endsSessions = patch.passwordHash !== undefined;
    const next: UserRecord = {
      ...before,
      ...patch,
      email: (patch.email ?? before.email).toLowerCase(),
      updatedAt: now.toISOString(),
      ...(endsSessions ? { tokenVersion: before.tokenVersion + 1, refreshJti: null, prevRefreshJti: null, prevRefreshUntil: null } : {}),
    };
    const fields = {
      ...patch,
      email: next.email,
      updatedAt: next.updatedAt,
      ...(endsSessions ? { refreshJti: null, prevRefreshJti: null, prevRefreshUntil: null } : {}),
    };
    const set = setExpression(fields);
    const updateUser = {
      Update: {
        TableName: db.tableName,
        Key: key(before.companyId, before.id),
        ConditionExpression: "attribute_exists(pk)",
        ...set,
        ...(endsSessions
          ? {
              UpdateExpression: `${set.UpdateExpression}, #tv = #tv + :tvOne`,
              ExpressionAttributeNames: { ...set.ExpressionAttributeNames, "#tv": "tokenVersion" },
              ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ":tvOne": 1 },
            }
          : {}),
      },
    };
    const emailMoves = next.email !== before.email.toLowerCase();
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: emailMoves
            ? [
                {
                  Put: {
                    TableName: db.tableName,
                    Item: { ...loginKey(next.email), entity: "login", companyId: before.companyId, userId: before.id },
                    ConditionExpression: "attribute_not_exists(pk)",
                  },
                },
                {
                  Delete: {
                    TableName: db.tableName,
                    Key: loginKey(before.email),
                    ConditionExpression: "userId = :uid AND companyId = :cid",
                    ExpressionAttributeValues: { ":uid": before.id, ":cid": before.companyId },
                  },
                },
                updateUser,
              ]
            : [updateUser],
        }),
      );
      noteUserWrite(before.companyId, before.id);
    } catch (e) {
      const err = e as { name?: string; CancellationReasons?: { Code?: string }[] };
      if (err.name === "TransactionCanceledException" && emailMoves && err.CancellationReasons?.[0]?.Code === "ConditionalCheckFailed") {
        throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
      }
      if (err.name === "TransactionCanceledException") throw new AppError("ERR_NO_USER_FOUND");
      throw e;
    }
    return next;
  },
  /** Deletes the user and their login pointer together: the email is free again and every session ends. */
  async remove(user: UserRecord): Promise<void> {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: db.tableName, Key: key(user.companyId, user.id) } },
          {
            Delete: {
              TableName: db.tableName,
              Key: loginKey(user.email),
              ConditionExpression: "attribute_not_exists(pk) OR userId = :uid",
              ExpressionAttributeValues: { ":uid": user.id },
            },
          },
        ],
      }),
    );
    noteUserWrite(user.companyId, user.id);
  },
  /** A new password ends every session: the token version moves and the refresh tokens are dropped. */
  async setPassword(companyId: number, id: number, passwordHash: string, now: Date): Promise<void> {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(companyId, id),
        UpdateExpression: "SET passwordHash = :h, tokenVersion = tokenVersion + :one, refreshJti = :n, prevRefreshJti = :n, updatedAt = :now",
        ExpressionAttributeValues: { ":h": passwordHash, ":one": 1, ":n": null, ":now": now.toISOString() },
        ConditionExpression: "attribute_exists(pk)",
      }),
    );
    noteUserWrite(companyId, id);
  },
  /** A new session: bump the token version and set the refresh token id. Returns the new version. */
  async startSession(companyId: number, id: number, jti: string, now: Date): Promise<number> {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(companyId, id),
        UpdateExpression: "SET tokenVersion = tokenVersion + :one, refreshJti = :j, prevRefreshJti = :n, prevRefreshUntil = :n, lastSeenAt = :now",
        ExpressionAttributeValues: { ":one": 1, ":j": jti, ":n": null, ":now": now.toISOString() },
        ConditionExpression: "attribute_exists(pk)",
        ReturnValues: "UPDATED_NEW",
      }),
    );
    noteUserWrite(companyId, id);
    return Number(out.Attributes?.tokenVersion);
  },
  /**
   * Rotates the refresh token id, only if `presentedJti` is still current (or the previous one within its grace
   * window, for two tabs refreshing at once) and the token version has not moved. False when it lost.
   */
  async rotateRefresh(
    user: UserRecord,
    presentedJti: string,
    newJti: string,
    graceUntil: string,
    now: Date,
  ): Promise<boolean> {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: key(user.companyId, user.id),
          UpdateExpression: "SET refreshJti = :new, prevRefreshJti = :cur, prevRefreshUntil = :grace, lastSeenAt = :now",
          ConditionExpression: "tokenVersion = :tv AND (refreshJti = :presented OR (prevRefreshJti = :presented AND prevRefreshUntil > :now))",
          ExpressionAttributeValues: {
            ":new": newJti,
            ":cur": user.refreshJti,
            ":grace": graceUntil,
            ":now": now.toISOString(),
            ":tv": user.tokenVersion,
            ":presented": presentedJti,
          },
        }),
      );
      return true;
    } catch (e) {
      if ((e as Error).name === "ConditionalCheckFailedException") return false;
      throw e;
    }
  },
  /**
   * Logout: the token version moves, so the access token just used (and any socket on it) is refused at once,
   * not when it expires; the refresh ids are dropped. Returns the new version.
   */
  async endSession(companyId: number, id: number): Promise<number | null> {
    try {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: key(companyId, id),
          UpdateExpression: "SET tokenVersion = tokenVersion + :one, refreshJti = :n, prevRefreshJti = :n, prevRefreshUntil = :n, #online = :off",
          ExpressionAttributeNames: { "#online": "online" },
          ExpressionAttributeValues: { ":one": 1, ":n": null, ":off": false },
          ConditionExpression: "attribute_exists(pk)",
          ReturnValues: "UPDATED_NEW",
        }),
      );
      noteUserWrite(companyId, id);
      return Number(out.Attributes?.tokenVersion);
    } catch (e) {
      if ((e as Error).name === "ConditionalCheckFailedException") return null; // deleted meanwhile: nothing left to end
      throw e;
    }
  },
  async setOnline(companyId: number, id: number, online: boolean, now: Date): Promise<void> {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(companyId, id),
        ...setExpression({ online, lastSeenAt: now.toISOString() }),
        ConditionExpression: "attribute_exists(pk)",
      }),
    );
  },
});
export type UsersRepository = ReturnType<typeof createUsersRepository>;
