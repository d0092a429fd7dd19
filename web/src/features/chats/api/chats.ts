import { type InfiniteData, type QueryClient, infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ChatEventData, ChatListResponse, ChatMessageResponse, ChatMessagesResponse, ChatResponse } from "@atende/shared/contracts/http/chats";
import { api } from "../../../lib/api-client";

/** Internal chat (spec 3 section 7): the caller's chats, a chat's messages, save, delete, send, read. */
export const chatKeys = {
  all: ["chats"] as const,
  lists: () => [...chatKeys.all, "list"] as const,
  list: (searchParam: string) => [...chatKeys.lists(), searchParam] as const,
  ones: () => [...chatKeys.all, "one"] as const,
  one: (idOrUuid: string) => [...chatKeys.ones(), idOrUuid] as const,
  messages: (chatId: number) => [...chatKeys.all, "messages", chatId] as const,
};

export const chatsListOptions = (searchParam = "") =>
  infiniteQueryOptions({
    queryKey: chatKeys.list(searchParam),
    queryFn: ({ pageParam }) => api.get<ChatListResponse>("/chats", { query: { searchParam: searchParam || undefined, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useChatsList = (searchParam = "", enabled = true) => useInfiniteQuery({ ...chatsListOptions(searchParam), enabled });

/** One chat by id or uuid (the /chats/{uuid} route may name a chat beyond the loaded list pages). */
export const chatOptions = (idOrUuid: string) => queryOptions({ queryKey: chatKeys.one(idOrUuid), queryFn: () => api.get<ChatResponse>(`/chats/${idOrUuid}`), retry: false });
export const useChat = (idOrUuid: string | undefined) => useQuery({ ...chatOptions(idOrUuid ?? ""), enabled: Boolean(idOrUuid) });

/** Page 1 holds the newest messages; each page's records are oldest first. */
export const chatMessagesOptions = (chatId: number) =>
  infiniteQueryOptions({
    queryKey: chatKeys.messages(chatId),
    queryFn: ({ pageParam }) => api.get<ChatMessagesResponse>(`/chats/${chatId}/messages`, { query: { pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useChatMessages = (chatId: number) => useInfiniteQuery(chatMessagesOptions(chatId));

/** The messages to show, oldest at the top, newest at the bottom. */
export const flattenMessages = (data: InfiniteData<ChatMessagesResponse, unknown> | undefined): ChatMessageResponse[] =>
  data ? [...data.pages].reverse().flatMap((p) => p.records) : [];

/** Adds a message to the newest page of its chat's cache (a no-op when it is already there). */
export const appendMessage = (qc: QueryClient, message: ChatMessageResponse) => {
  qc.setQueryData<InfiniteData<ChatMessagesResponse, number>>(chatKeys.messages(message.chatId), (data) => {
    if (!data?.pages.length) return data;
    if (data.pages.some((p) => p.records.some((m) => m.id === message.id))) return data;
    const [newest, ...older] = data.pages;
    return { ...data, pages: [{ ...newest!, records: [...newest!.records, message] }, ...older] };
  });
};

/** The caller's unread count in a chat. */
export const unreadsOf = (chat: ChatResponse, userId: number) => chat.users.find((u) => u.userId === userId)?.unreads ?? 0;

/** Applies a realtime `chat` event: new messages go into the open chat's cache; the lists refetch. */
export const applyChatEvent = (qc: QueryClient, event: ChatEventData) => {
  if (event.action === "new-message") appendMessage(qc, event.newMessage);
  if (event.action === "delete") qc.removeQueries({ queryKey: chatKeys.messages(event.id) });
  else qc.setQueryData(chatKeys.one(String(event.chat.id)), event.chat);
  void qc.invalidateQueries({ queryKey: chatKeys.lists() });
  void qc.invalidateQueries({ queryKey: chatKeys.ones() });
};

export type ChatForm = { title: string; users: number[] };

export const useSaveChat = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ChatForm }) => (id ? api.put<ChatResponse>(`/chats/${id}`, input) : api.post<ChatResponse>("/chats", input)),
    onSuccess: () => qc.invalidateQueries({ queryKey: chatKeys.all }),
  });
};

export const useDeleteChat = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/chats/${id}`), onSuccess: () => qc.invalidateQueries({ queryKey: chatKeys.lists() }) });
};

export const useSendChatMessage = (chatId: number) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => api.post<ChatMessageResponse>(`/chats/${chatId}/messages`, { message }),
    onSuccess: (message) => {
      appendMessage(qc, message);
      void qc.invalidateQueries({ queryKey: chatKeys.lists() });
    },
  });
};

export const useMarkChatRead = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ chatId, userId }: { chatId: number; userId: number }) => api.post<ChatResponse>(`/chats/${chatId}/read`, { userId }),
    onSuccess: () => qc.invalidateQueries({ queryKey: chatKeys.lists() }),
  });
};
