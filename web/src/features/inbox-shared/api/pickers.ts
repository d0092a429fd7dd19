import { queryOptions, useQuery } from "@tanstack/react-query";
import type { QueueResponse } from "@atende/shared/contracts/http/queues";
import type { TagListResponse } from "@atende/shared/contracts/http/tags";
import type { UserResponse } from "@atende/shared/contracts/http/users";
import { api } from "../../../lib/api-client";
import type { QuickMessageLike } from "../../messages/composer-rules";

/**
 * The small lists the inbox dialogs pick from (queues, users, connections, tags, quick messages).
 * Silent on error: a missing list leaves a picker empty instead of toasting on every dialog.
 */
export type ConnectionOption = { id: number; name: string; status: string; isDefault?: boolean };

const asArray = <T,>(value: unknown, key: string): T[] => {
  if (Array.isArray(value)) return value as T[];
  if (value && typeof value === "object" && Array.isArray((value as Record<string, unknown>)[key])) return (value as Record<string, T[]>)[key] ?? [];
  return [];
};

export const queuesOptions = () =>
  queryOptions({ queryKey: ["inbox-pickers", "queues"], queryFn: async () => asArray<QueueResponse>(await api.get("/queue"), "queues"), staleTime: 60_000, meta: { silentError: true } });

export const usersListOptions = () =>
  queryOptions({ queryKey: ["inbox-pickers", "users"], queryFn: async () => asArray<UserResponse>(await api.get("/users/list"), "users"), staleTime: 60_000, meta: { silentError: true } });

export const connectionsOptions = () =>
  queryOptions({
    queryKey: ["inbox-pickers", "whatsapps"],
    queryFn: async () => asArray<ConnectionOption>(await api.get("/whatsapp/", { query: { session: 0 } }), "whatsapps"),
    staleTime: 60_000,
    meta: { silentError: true },
  });

export const tagsOptions = () =>
  queryOptions({ queryKey: ["inbox-pickers", "tags"], queryFn: async () => asArray<TagListResponse[number]>(await api.get("/tags/list"), "tags"), staleTime: 60_000, meta: { silentError: true } });

export const quickMessagesOptions = (userId: number) =>
  queryOptions({
    queryKey: ["inbox-pickers", "quick-messages", userId],
    queryFn: async () => asArray<QuickMessageLike>(await api.get("/quick-messages/list", { query: { userId } }), "records"),
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });

export const useQueues = () => useQuery(queuesOptions());
export const useUsersList = (enabled = true) => useQuery({ ...usersListOptions(), enabled });
export const useConnections = (enabled = true) => useQuery({ ...connectionsOptions(), enabled });
export const useTags = () => useQuery(tagsOptions());
export const useQuickMessages = (userId: number) => useQuery(quickMessagesOptions(userId));
