import { type InfiniteData, type QueryClient, infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { MessageListResponse, MessageView } from "@atende/shared/contracts/http/messages";
import { nextAck } from "@atende/shared/domain/messages/message";
import { compareMessages } from "@atende/shared/domain/messages/message-order";
import { api } from "../../../../lib/api-client";

/** GET /messages/{ticketId}?pageNumber: page 1 is the newest; older pages load when scrolling up. */
export const messageKeys = {
  all: ["messages"] as const,
  list: (ticketId: number) => [...messageKeys.all, ticketId] as const,
};

export const messagesListOptions = (ticketId: number) =>
  infiniteQueryOptions({
    queryKey: messageKeys.list(ticketId),
    queryFn: ({ pageParam }) => api.get<MessageListResponse>(`/messages/${ticketId}`, { query: { pageNumber: pageParam } }).then((page) => ({ ...page, messages: page.messages ?? [] })),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    staleTime: 0,
  });

export const useMessagesList = (ticketId: number | undefined) => useInfiniteQuery({ ...messagesListOptions(ticketId ?? 0), enabled: !!ticketId });

type Pages = InfiniteData<MessageListResponse, unknown>;

/**
 * Every loaded message of the conversation, oldest first, without duplicates (live inserts may overlap pages), in the
 * server's order: time, then a second's inbound messages by their sequence (docs/adr/0066).
 */
export const flattenMessages = (data: Pages | undefined): MessageView[] => {
  if (!data) return [];
  const byId = new Map<string, MessageView>();
  for (const page of data.pages) for (const m of page.messages) byId.set(m.id, m);
  return [...byId.values()].sort(compareMessages);
};

/** A created or updated message goes into the open conversation's cache (no refetch). */
export const upsertMessage = (qc: QueryClient, message: MessageView) => {
  const key = messageKeys.list(message.ticketId);
  const data = qc.getQueryData<Pages>(key);
  if (!data?.pages.length) return;
  const present = data.pages.some((p) => p.messages.some((m) => m.id === message.id));
  const pages = data.pages.map((page, i) => {
    // acks only move forward: a late HTTP answer (ack 0) must not undo a realtime ack update
    if (present) return { ...page, messages: page.messages.map((m) => (m.id === message.id ? { ...message, ack: nextAck(m.ack, message.ack) } : m)) };
    return i === 0 ? { ...page, messages: [...page.messages, message] } : page;
  });
  qc.setQueryData<Pages>(key, { ...data, pages });
};
