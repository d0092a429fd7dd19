import { type InfiniteData, type QueryClient, infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { UserEventData, UserListResponse, UserResponse } from "@atende/shared/contracts/http/users";
import type { Profile } from "@atende/shared/domain/permissions/permissions";
import { api } from "../../../lib/api-client";
import { userKeys } from "../../../lib/query-keys";

/** Users (spec 2 section 7 "Users"). */

export const usersListOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: userKeys.list(searchParam),
    queryFn: ({ pageParam }) => api.get<UserListResponse>("/users/", { query: { searchParam: searchParam || undefined, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useUsersList = (searchParam: string) => useInfiniteQuery(usersListOptions(searchParam));


type Pages = InfiniteData<UserListResponse, number>;

/** Applies a `user` realtime event to every cached list (create goes on top of the unfiltered list). */
export const applyUserEvent = (qc: QueryClient, event: UserEventData) => {
  if (event.action === "status") return; // an attendant's status (docs/adr/0032): the status panel's own query
  for (const [key, data] of qc.getQueriesData<Pages>({ queryKey: userKeys.lists() })) {
    if (!data?.pages) continue;
    const search = String(key[2] ?? "");
    let pages = data.pages;
    if (event.action === "delete") {
      pages = pages.map((p) => ({ ...p, users: p.users.filter((u) => u.id !== event.userId) }));
    } else {
      const present = pages.some((p) => p.users.some((u) => u.id === event.user.id));
      pages = pages.map((p, i) => {
        if (present) return { ...p, users: p.users.map((u) => (u.id === event.user.id ? event.user : u)) };
        return i === 0 && !search && event.action === "create" ? { ...p, count: p.count + 1, users: [event.user, ...p.users] } : p;
      });
    }
    qc.setQueryData<Pages>(key, { ...data, pages });
  }
  void qc.invalidateQueries({ queryKey: userKeys.everyones() });
};

export type UserFormValues = {
  name: string;
  email: string;
  password: string;
  profile: Profile;
  queueIds: number[];
  whatsappId: number | "" | null;
  allTicket: "enabled" | "desabled";
  companyId?: number;
};

export const useSaveUser = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: UserFormValues }) => (id ? api.put<UserResponse>(`/users/${id}`, input) : api.post<UserResponse>("/users", input)),
    onSuccess: (user, { id }) => applyUserEvent(qc, { action: id ? "update" : "create", user }),
  });
};

/** An admin turns a user's two-factor sign-in off (lost phone and recovery codes); recorded in the audit trail. */
export const useResetUserMfa = () => useMutation({ mutationFn: (id: number) => api.delete(`/auth/mfa/users/${id}`) });

export const useDeleteUser = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/users/${id}`), onSuccess: (_r, id) => applyUserEvent(qc, { action: "delete", userId: id }) });
};
