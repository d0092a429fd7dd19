import { BatchWriteCommand, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mergedIndexPage } from "../../platform/db/merged-query";
import { queryPrefix } from "../../platform/db/query-prefix";
import { mapItem } from "../../platform/db/map-item";
import { transact, TxConditionFailed, type TxItem } from "../../platform/db/transact";
import { AppError } from "../../platform/errors";

export type Chat = {
  id: number;
  uuid: string;
  companyId: number;
  title: string;
  ownerId: number;
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
};
export type ChatMember = { chatId: number; userId: number; unreads: number };
export type ChatWithMembers = Chat & { members: ChatMember[] };
export type ChatMessage = { id: string; chatId: number; companyId: number; senderId: number; message: string; createdAt: string };

/*
 * Layout (docs: chat item + one item per member + messages by time; no Scan):
 *   chat      pk CO#c  sk CHAT#<id>
 *   member    pk CO#c  sk CHAT#<id>#M#<userId>   gsi1: CO#c#CHATS#<userId> / <activity>#<id>  (a user's chats, newest first)
 *   uuid      pk CO#c  sk CHATUUID#<uuid>         -> chatId (the /chats/{uuid} route)
 *   message   pk CO#c#CHATMSG#<id>  sk <ulid>     (time-ordered)
 * One prefix query on CHAT#<id> loads the chat with its members.
 */
const chatKey = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `CHAT#${pad(id)}` });
const memberKey = (companyId: number, chatId: number, userId: number) => ({ pk: companyPk(companyId), sk: `CHAT#${pad(chatId)}#M#${pad(userId)}` });
const uuidKey = (companyId: number, uuid: string) => ({ pk: companyPk(companyId), sk: `CHATUUID#${uuid}` });
const messagesPk = (companyId: number, chatId: number) => `${companyPk(companyId)}#CHATMSG#${pad(chatId)}`;
const userChatsPk = (companyId: number, userId: number) => `${companyPk(companyId)}#CHATS#${pad(userId)}`;
const activityKey = (chat: Pick<Chat, "updatedAt" | "id">) => `${chat.updatedAt}#${pad(chat.id)}`;

/** DynamoDB allows 100 actions per transaction; bigger member sets are written in several. */
const TX_MAX = 100;

const toChat = mapItem<Chat>({
  id: true,
  uuid: true,
  companyId: true,
  title: true,
  ownerId: true,
  lastMessage: true,
  createdAt: true,
  updatedAt: true,
});
const toMember = (item: Record<string, unknown>): ChatMember => ({ chatId: Number(item.chatId), userId: Number(item.userId), unreads: Number(item.unreads ?? 0) });
const toMessage = mapItem<ChatMessage>({
  id: true,
  chatId: true,
  companyId: true,
  senderId: true,
  message: true,
  createdAt: true,
});

export const createChatsRepository = (db: Db) => {
  const T = db.tableName;
  const memberPut = (chat: Chat, userId: number): TxItem => ({
    Put: {
      TableName: T,
      Item: {
        ...memberKey(chat.companyId, chat.id, userId),
        entity: "chatMember",
        gsi1pk: userChatsPk(chat.companyId, userId),
        gsi1sk: activityKey(chat),
        chatId: chat.id,
        userId,
        unreads: 0,
        titleLower: chat.title.toLowerCase(),
      },
    },
  });
  /** Moves the member's list position to the chat's activity; `bump` adds one unread message. */
  const memberTouch = (chat: Chat, userId: number, opts: { bump: boolean }): TxItem => ({
    Update: {
      TableName: T,
      Key: memberKey(chat.companyId, chat.id, userId),
      UpdateExpression: `SET #g = :g, #t = :t${opts.bump ? " ADD #u :one" : ""}`,
      ExpressionAttributeNames: { "#g": "gsi1sk", "#t": "titleLower", ...(opts.bump ? { "#u": "unreads" } : {}) },
      ExpressionAttributeValues: { ":g": activityKey(chat), ":t": chat.title.toLowerCase(), ...(opts.bump ? { ":one": 1 } : {}) },
      ConditionExpression: "attribute_exists(pk)",
    },
  });
  const chatPut = (chat: Chat, condition?: string): TxItem => ({
    Put: { TableName: T, Item: { ...chatKey(chat.companyId, chat.id), entity: "chat", ...chat }, ...(condition ? { ConditionExpression: condition } : {}) },
  });
  /** Runs the actions in transactions of at most 100; a lost condition means the chat or a member vanished meanwhile. */
  const run = async (items: TxItem[]) => {
    try {
      for (let i = 0; i < items.length; i += TX_MAX) await transact(db, items.slice(i, i + TX_MAX));
    } catch (e) {
      if (e instanceof TxConditionFailed) throw new AppError("ERR_NOT_FOUND");
      throw e;
    }
  };

  return {
    async create(input: Omit<Chat, "id" | "createdAt" | "updatedAt" | "lastMessage">, memberIds: number[], now: Date): Promise<ChatWithMembers> {
      const id = await nextId(db, input.companyId, "chat");
      const chat: Chat = { ...input, id, lastMessage: "", createdAt: now.toISOString(), updatedAt: now.toISOString() };
      await run([
        chatPut(chat, "attribute_not_exists(pk)"),
        { Put: { TableName: T, Item: { ...uuidKey(chat.companyId, chat.uuid), entity: "chatUuid", chatId: id } } },
        ...memberIds.map((userId) => memberPut(chat, userId)),
      ]);
      return { ...chat, members: memberIds.map((userId) => ({ chatId: id, userId, unreads: 0 })) };
    },

    /** The chat and its members (one query), or null. */
    async findById(companyId: number, id: number): Promise<ChatWithMembers | null> {
      const items = await queryPrefix(db, companyPk(companyId), `CHAT#${pad(id)}`);
      const chatItem = items.find((i) => i.entity === "chat");
      if (!chatItem) return null;
      return { ...toChat(chatItem), members: items.filter((i) => i.entity === "chatMember").map(toMember) };
    },

    async findIdByUuid(companyId: number, uuid: string): Promise<number | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: uuidKey(companyId, uuid) }));
      return out.Item ? Number(out.Item.chatId) : null;
    },

    /** Saves title/activity and the member set: new members start with no unreads, removed ones lose the chat. */
    async update(before: ChatWithMembers, next: Chat, memberIds: number[]): Promise<void> {
      const had = new Set(before.members.map((m) => m.userId));
      const keep = new Set(memberIds);
      await run([
        chatPut(next, "attribute_exists(pk)"),
        ...memberIds.filter((u) => !had.has(u)).map((u) => memberPut(next, u)),
        ...memberIds.filter((u) => had.has(u)).map((u) => memberTouch(next, u, { bump: false })),
        ...before.members.filter((m) => !keep.has(m.userId)).map((m): TxItem => ({ Delete: { TableName: T, Key: memberKey(next.companyId, next.id, m.userId) } })),
      ]);
    },

    /** Stores the message, makes it the chat's last message and counts it unread for every member but the sender. */
    async addMessage(chat: ChatWithMembers, message: ChatMessage): Promise<ChatWithMembers> {
      const next: Chat = { ...toChatOnly(chat), lastMessage: message.message, updatedAt: message.createdAt };
      await run([
        { Put: { TableName: T, Item: { pk: messagesPk(chat.companyId, chat.id), sk: message.id, entity: "chatMessage", ...message } } },
        {
          Update: {
            TableName: T,
            Key: chatKey(chat.companyId, chat.id),
            UpdateExpression: "SET #lm = :lm, #ua = :ua",
            ExpressionAttributeNames: { "#lm": "lastMessage", "#ua": "updatedAt" },
            ExpressionAttributeValues: { ":lm": next.lastMessage, ":ua": next.updatedAt },
            ConditionExpression: "attribute_exists(pk)",
          },
        },
        ...chat.members.map((m) => memberTouch(next, m.userId, { bump: m.userId !== message.senderId })),
      ]);
      return { ...next, members: chat.members.map((m) => (m.userId === message.senderId ? m : { ...m, unreads: m.unreads + 1 })) };
    },

    /** The member has read everything (false when they are not a member). */
    async markRead(companyId: number, chatId: number, userId: number): Promise<boolean> {
      try {
        await transact(db, [
          {
            Update: {
              TableName: T,
              Key: memberKey(companyId, chatId, userId),
              UpdateExpression: "SET #u = :zero",
              ExpressionAttributeNames: { "#u": "unreads" },
              ExpressionAttributeValues: { ":zero": 0 },
              ConditionExpression: "attribute_exists(pk)",
            },
          },
        ]);
        return true;
      } catch (e) {
        if (e instanceof TxConditionFailed) return false;
        throw e;
      }
    },

    /** Removes the chat, its members, its uuid pointer and every message (in batches of 25). */
    async remove(chat: ChatWithMembers): Promise<void> {
      await run([
        { Delete: { TableName: T, Key: chatKey(chat.companyId, chat.id) } },
        { Delete: { TableName: T, Key: uuidKey(chat.companyId, chat.uuid) } },
        ...chat.members.map((m): TxItem => ({ Delete: { TableName: T, Key: memberKey(chat.companyId, chat.id, m.userId) } })),
      ]);
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": messagesPk(chat.companyId, chat.id) },
            ProjectionExpression: "pk, sk",
            Limit: 100,
            ExclusiveStartKey: start,
          }),
        );
        const keys = out.Items ?? [];
        for (let i = 0; i < keys.length; i += 25) {
          let requests: Record<string, unknown>[] | undefined = keys.slice(i, i + 25).map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } }));
          while (requests && requests.length) {
            const res = await db.doc.send(new BatchWriteCommand({ RequestItems: { [T]: requests } }));
            requests = res.UnprocessedItems?.[T] as Record<string, unknown>[] | undefined;
          }
        }
        start = out.LastEvaluatedKey;
      } while (start);
    },

    /** One page of a user's chat ids, newest activity first, optionally by a lower-cased title substring. */
    async pageOfUser(companyId: number, userId: number, term: string, limit: number, cursor?: string): Promise<{ chatIds: number[]; next?: string }> {
      const out = await mergedIndexPage(db, [{ index: "gsi1", pk: userChatsPk(companyId, userId) }], {
        limit,
        cursor,
        filter: term ? { expression: "contains(#tl, :term)", names: { "#tl": "titleLower" }, values: { ":term": term } } : undefined,
      });
      return { chatIds: out.items.map((i) => Number(i.chatId)), next: out.next };
    },

    /** One page of messages, newest first; `cursor` is the sort key of the last message served. */
    async pageMessages(companyId: number, chatId: number, limit: number, cursor?: string): Promise<{ items: ChatMessage[]; next?: string }> {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: T,
          KeyConditionExpression: cursor ? "pk = :pk AND sk < :c" : "pk = :pk",
          ExpressionAttributeValues: { ":pk": messagesPk(companyId, chatId), ...(cursor ? { ":c": cursor } : {}) },
          ScanIndexForward: false,
          Limit: limit + 1,
        }),
      );
      const items = (out.Items ?? []).map(toMessage);
      const page = items.slice(0, limit);
      return { items: page, next: items.length > limit ? page[page.length - 1]?.id : undefined };
    },
  };
};
export type ChatsRepository = ReturnType<typeof createChatsRepository>;

const toChatOnly = (c: ChatWithMembers): Chat => {
  const { members: _members, ...chat } = c;
  return chat;
};
