import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { CompanyResponse } from "@atende/shared/contracts/http/companies";
import type { ContactListResponse, ContactView } from "@atende/shared/contracts/http/contacts";
import type { QueueResponse } from "@atende/shared/contracts/http/queues";
import type { TagListResponse } from "@atende/shared/contracts/http/tags";
import type { UserResponse } from "@atende/shared/contracts/http/users";
import type { WhatsappResponse } from "@atende/shared/contracts/http/whatsapps";
import { api } from "./api-client";
import { companyRecordKeys, contactKeys, pickerKeys, queueKeys, userKeys, whatsappKeys } from "./query-keys";

/**
 * The lists and records that several features read (ADR 0022): the small lists the inbox dialogs pick from
 * (queues, users, connections, tags, quick messages) and the queue, connection, user and contact queries shared
 * by more than one page. The pickers are silent on error: a missing list leaves a picker empty instead of
 * toasting on every dialog.
 */
/** A quick message as the composer suggests it (`/quick-messages/list`). */
export type QuickMessageLike = { id: number; shortcode: string; message: string; mediaPath?: string | null; mediaName?: string | null };


const asArray = <T,>(value: unknown, key: string): T[] => {
  if (Array.isArray(value)) return value as T[];
  if (value && typeof value === "object" && Array.isArray((value as Record<string, unknown>)[key])) return (value as Record<string, T[]>)[key] ?? [];
  return [];
};

/** GET /queue, one cache entry for the queues page and every picker. */
export const queuesQueryOptions = () => queryOptions({ queryKey: queueKeys.list(), queryFn: async () => asArray<QueueResponse>(await api.get("/queue"), "queues") });
export const queuesOptions = () => queryOptions({ ...queuesQueryOptions(), staleTime: 60_000, meta: { silentError: true } });

/** The pickers read the users and connections pages' own entries (one key per resource), silently and kept a minute. */
export const usersListOptions = () => queryOptions({ ...allUsersOptions(), staleTime: 60_000, meta: { silentError: true } });

export const connectionsOptions = () => queryOptions({ ...whatsappsQueryOptions(), staleTime: 60_000, meta: { silentError: true } });

export const tagsOptions = () =>
  queryOptions({ queryKey: pickerKeys.tags(), queryFn: async () => asArray<TagListResponse[number]>(await api.get("/tags/list"), "tags"), staleTime: 60_000, meta: { silentError: true } });

export const quickMessagesOptions = (userId: number) =>
  queryOptions({
    queryKey: pickerKeys.quickMessages(userId),
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

/** The queues page, the connection and prompt dialogs: the same GET /queue entry, errors toasted. */
export const useQueueList = () => useQuery(queuesQueryOptions());

/** GET /whatsapp/?session=0: the connections page, its badge and the messages-api page. */
export function whatsappsQueryOptions(enabled = true) {
  return queryOptions({ queryKey: whatsappKeys.list(), queryFn: async () => asArray<WhatsappResponse>(await api.get("/whatsapp/", { query: { session: 0 } }), "whatsapps"), enabled });
}
export const useWhatsapps = (enabled = true) => useQuery(whatsappsQueryOptions(enabled));

/** GET /users/list?companyId (the operator may pass another company). */
export function allUsersOptions(companyId?: number) {
  return queryOptions({ queryKey: userKeys.everyone(companyId), queryFn: async () => asArray<UserResponse>(await api.get("/users/list", { query: { companyId } }), "users") });
}
export const useAllUsers = (companyId?: number, enabled = true) => useQuery({ ...allUsersOptions(companyId), enabled });

/** Contacts with search and paging (the contacts page, the contact picker, vCard cards). */
export const contactsListOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: contactKeys.list(searchParam),
    queryFn: ({ pageParam }) =>
      api.get<ContactListResponse>("/contacts", { query: { searchParam: searchParam || undefined, pageNumber: pageParam } }).then((p) => ({ ...p, contacts: p.contacts ?? [] })),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useContactsList = (searchParam: string, enabled = true) => useInfiniteQuery({ ...contactsListOptions(searchParam), enabled });

export const contactOptions = (id: number) => queryOptions({ queryKey: contactKeys.detail(id), queryFn: () => api.get<ContactView>(`/contacts/${id}`) });
export const useContact = (id: number | undefined) => useQuery({ ...contactOptions(id ?? 0), enabled: !!id });

/** GET /companies/{id}: one cache entry for the settings' hours tab and the subscription page (ADR 0025). */
export const companyRecordOptions = (id: number) => queryOptions({ queryKey: companyRecordKeys.record(id), queryFn: () => api.get<CompanyResponse>(`/companies/${id}`) });
export const useCompanyRecord = (id: number) => useQuery(companyRecordOptions(id));
