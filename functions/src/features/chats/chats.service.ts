import { PAGE_SIZE } from "@atende/shared/constants/business";
import type { ChatEventData, ChatListResponse, ChatMessageResponse, ChatMessagesResponse, ChatResponse } from "@atende/shared/contracts/http/chats";
import { CHAT_MESSAGES_PAGE, type ChatInput } from "@atende/shared/domain/chats/chat";
import { randomUUID } from "node:crypto";
import { monotonicFactory } from "ulid";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { AppError } from "../../platform/errors";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { RealtimeService } from "../realtime/realtime.service";
import type { UserRecord } from "../users/users.ports";
import type { Chat, ChatMessage, ChatsRepository, ChatWithMembers } from "./chats.repository";

/** The company's users, by id (names for members and senders; membership checks). */
type UserDirectory = { listRecordsByCompany(companyId: number): Promise<UserRecord[]> };
type Names = Map<number, string>;

const toChatResponse = (c: ChatWithMembers, names: Names): ChatResponse => ({
  id: c.id,
  uuid: c.uuid,
  title: c.title,
  ownerId: c.ownerId,
  users: c.members.map((m) => ({ userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: names.get(m.userId) ?? "" } })),
  lastMessage: c.lastMessage,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});
const toMessageResponse = (m: ChatMessage, names: Names): ChatMessageResponse => ({
  id: m.id,
  chatId: m.chatId,
  senderId: m.senderId,
  sender: { id: m.senderId, name: names.get(m.senderId) ?? "" },
  message: m.message,
  createdAt: m.createdAt,
});
const memberIds = (c: ChatWithMembers) => c.members.map((m) => m.userId);

/**
 * Internal chat among the users of one company (spec 3). Only members read, post and hear about a chat;
 * only the owner edits or deletes it. A chat the caller is not a member of does not exist for them (404).
 */
export const createChatsService = (deps: {
  chats: ChatsRepository;
  users: UserDirectory;
  realtime: RealtimeService;
  cursors: PageCursors;
  clock: () => Date;
  /** told of each message sent (Web Push, docs/adr/0097): the chat's uuid, its members, the sender and the text */
  onMessage?: Array<(companyId: number, chatUuid: string, memberIds: number[], sender: { id: number; name: string }, text: string) => Promise<void>>;
}) => {
  const { chats, users, realtime, cursors, clock } = deps;
  const nextMessageId = monotonicFactory();

  const namesOf = async (companyId: number): Promise<Names> => new Map((await users.listRecordsByCompany(companyId)).map((u) => [u.id, u.name]));
  /** `idOrUuid`: the numeric id, or the uuid of the /chats/{uuid} route. */
  const findAsMember = async (auth: AuthContext, idOrUuid: string): Promise<ChatWithMembers> => {
    const id = /^\d{1,12}$/.test(idOrUuid) ? Number(idOrUuid) : await chats.findIdByUuid(auth.companyId, idOrUuid.slice(0, 64));
    const chat = id ? await chats.findById(auth.companyId, id) : null;
    if (!chat || !memberIds(chat).includes(auth.user.id)) throw new AppError("ERR_NOT_FOUND");
    return chat;
  };
  const findAsOwner = async (auth: AuthContext, idOrUuid: string) => {
    const chat = await findAsMember(auth, idOrUuid);
    if (chat.ownerId !== auth.user.id) throw new AppError("ERR_NO_PERMISSION");
    return chat;
  };
  /** The members chosen in the dialog, always with the owner; every one must be a user of the caller's company. */
  const resolveMembers = async (auth: AuthContext, chosen: number[], ownerId: number, names: Names): Promise<number[]> => {
    const ids = [...new Set([ownerId, ...chosen])];
    if (ids.some((id) => !names.has(id))) throw new AppError("ERR_NO_USER_FOUND");
    return ids;
  };
  const publish = (companyId: number, data: ChatEventData, userIds: number[]) =>
    userIds.length ? realtime.publish<ChatEventData>(companyId, "chat", data, { kind: "users", userIds }) : Promise.resolve(0);

  return {
    /** GET /chats: the caller's chats, newest activity first. */
    async list(auth: AuthContext, q: { searchParam: string; pageNumber: number }): Promise<ChatListResponse> {
      const term = q.searchParam.trim().toLowerCase();
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["chats", term]),
        page: q.pageNumber,
        now: clock(),
        fetch: async (cursor) => {
          const out = await chats.pageOfUser(auth.companyId, auth.user.id, term, PAGE_SIZE, cursor);
          return { items: out.chatIds, next: out.next };
        },
      });
      const [found, names] = await Promise.all([Promise.all(items.map((id) => chats.findById(auth.companyId, id))), namesOf(auth.companyId)]);
      return { records: found.filter((c): c is ChatWithMembers => c !== null).map((c) => toChatResponse(c, names)), hasMore };
    },
    async get(auth: AuthContext, idOrUuid: string): Promise<ChatResponse> {
      const [chat, names] = await Promise.all([findAsMember(auth, idOrUuid), namesOf(auth.companyId)]);
      return toChatResponse(chat, names);
    },
    async create(auth: AuthContext, input: ChatInput): Promise<ChatResponse> {
      const names = await namesOf(auth.companyId);
      const members = await resolveMembers(auth, input.users, auth.user.id, names);
      const chat = await chats.create({ companyId: auth.companyId, uuid: randomUUID(), title: input.title, ownerId: auth.user.id }, members, clock());
      const record = toChatResponse(chat, names);
      await publish(auth.companyId, { action: "create", chat: record }, members);
      return record;
    },
    async update(auth: AuthContext, idOrUuid: string, input: ChatInput): Promise<ChatResponse> {
      const before = await findAsOwner(auth, idOrUuid);
      const names = await namesOf(auth.companyId);
      const members = await resolveMembers(auth, input.users, before.ownerId, names);
      const { members: _old, ...base } = before;
      const next: Chat = { ...base, title: input.title };
      await chats.update(before, next, members);
      const kept = new Map(before.members.map((m) => [m.userId, m]));
      const after: ChatWithMembers = { ...next, members: members.map((userId) => kept.get(userId) ?? { chatId: next.id, userId, unreads: 0 }) };
      const record = toChatResponse(after, names);
      const removed = memberIds(before).filter((u) => !members.includes(u));
      await Promise.all([publish(auth.companyId, { action: "update", chat: record }, members), publish(auth.companyId, { action: "delete", id: before.id }, removed)]);
      return record;
    },
    async remove(auth: AuthContext, idOrUuid: string): Promise<void> {
      const chat = await findAsOwner(auth, idOrUuid);
      await chats.remove(chat);
      await publish(auth.companyId, { action: "delete", id: chat.id }, memberIds(chat));
    },
    /** GET /chats/{id}/messages: page 1 is the newest messages; records of a page are oldest first. */
    async listMessages(auth: AuthContext, idOrUuid: string, pageNumber: number): Promise<ChatMessagesResponse> {
      const chat = await findAsMember(auth, idOrUuid);
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["chat-messages", chat.id]),
        page: pageNumber,
        now: clock(),
        fetch: (cursor) => chats.pageMessages(auth.companyId, chat.id, CHAT_MESSAGES_PAGE, cursor),
      });
      const names = await namesOf(auth.companyId);
      return { records: items.reverse().map((m) => toMessageResponse(m, names)), hasMore };
    },
    /** POST /chats/{id}/messages: stored, counted unread for the other members, pushed to every member at once. */
    async sendMessage(auth: AuthContext, idOrUuid: string, text: string): Promise<ChatMessageResponse> {
      const chat = await findAsMember(auth, idOrUuid);
      const now = clock();
      const message: ChatMessage = { id: nextMessageId(now.getTime()), chatId: chat.id, companyId: auth.companyId, senderId: auth.user.id, message: text, createdAt: now.toISOString() };
      const after = await chats.addMessage(chat, message);
      const names = await namesOf(auth.companyId);
      const newMessage = toMessageResponse(message, names);
      await publish(auth.companyId, { action: "new-message", newMessage, chat: toChatResponse(after, names) }, memberIds(after));
      for (const fn of deps.onMessage ?? []) await fn(auth.companyId, after.uuid, memberIds(after), { id: auth.user.id, name: auth.user.name }, text);
      return newMessage;
    },
    /** POST /chats/{id}/read: the caller has read the chat (the body's userId is ignored: the token decides). */
    async markRead(auth: AuthContext, idOrUuid: string): Promise<ChatResponse> {
      const chat = await findAsMember(auth, idOrUuid);
      if (!(await chats.markRead(auth.companyId, chat.id, auth.user.id))) throw new AppError("ERR_NOT_FOUND");
      const after: ChatWithMembers = { ...chat, members: chat.members.map((m) => (m.userId === auth.user.id ? { ...m, unreads: 0 } : m)) };
      const record = toChatResponse(after, await namesOf(auth.companyId));
      await publish(auth.companyId, { action: "update", chat: record }, [auth.user.id]);
      return record;
    },
  };
};
export type ChatsService = ReturnType<typeof createChatsService>;
