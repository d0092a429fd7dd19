import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type {
  ContactListImportResponse,
  ContactListItemPageResponse,
  ContactListItemResponse,
  ContactListPageResponse,
  ContactListResponse,
} from "@atende/shared/contracts/http/contact-lists";
import type { ContactListInput, ContactListItemInput } from "@atende/shared/domain/contact-lists/contact-list";
import { api } from "../../../lib/api-client";

/** Contact lists and their items (spec 3 section 7). */
export const contactListKeys = {
  all: ["contact-lists"] as const,
  list: (searchParam: string) => [...contactListKeys.all, "list", searchParam] as const,
  one: (id: number) => [...contactListKeys.all, "one", id] as const,
  items: (contactListId: number) => [...contactListKeys.all, "items", contactListId] as const,
  itemsSearch: (contactListId: number, searchParam: string) => [...contactListKeys.items(contactListId), searchParam] as const,
};

export const contactListsOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: contactListKeys.list(searchParam),
    queryFn: ({ pageParam }) => api.get<ContactListPageResponse>("/contact-lists/", { query: { searchParam: searchParam || undefined, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useContactLists = (searchParam: string) => useInfiniteQuery(contactListsOptions(searchParam));

export const contactListOptions = (id: number) => queryOptions({ queryKey: contactListKeys.one(id), queryFn: () => api.get<ContactListResponse>(`/contact-lists/${id}`) });
export const useContactList = (id: number) => useQuery(contactListOptions(id));

export const contactListItemsOptions = (contactListId: number, searchParam: string) =>
  infiniteQueryOptions({
    queryKey: contactListKeys.itemsSearch(contactListId, searchParam),
    queryFn: ({ pageParam }) =>
      api.get<ContactListItemPageResponse>("/contact-list-items", { query: { searchParam: searchParam || undefined, pageNumber: pageParam, contactListId } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useContactListItems = (contactListId: number, searchParam: string) => useInfiniteQuery(contactListItemsOptions(contactListId, searchParam));

export const invalidateContactLists = (qc: QueryClient) => qc.invalidateQueries({ queryKey: contactListKeys.all });

export const useSaveContactList = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ContactListInput }) =>
      id ? api.put<ContactListResponse>(`/contact-lists/${id}`, input) : api.post<ContactListResponse>("/contact-lists", input),
    onSuccess: () => invalidateContactLists(qc),
  });
};
export const useDeleteContactList = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/contact-lists/${id}`), onSuccess: () => invalidateContactLists(qc) });
};

export const useSaveContactListItem = (contactListId: number) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ContactListItemInput }) =>
      id ? api.put<ContactListItemResponse>(`/contact-list-items/${id}`, input) : api.post<ContactListItemResponse>("/contact-list-items", { ...input, contactListId }),
    onSuccess: () => invalidateContactLists(qc),
  });
};
export const useDeleteContactListItem = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/contact-list-items/${id}`), onSuccess: () => invalidateContactLists(qc) });
};

/** POST /contact-lists/{id}/upload (multipart `file`). The caller shows its own error for a refused file. */
export const useImportContactList = (contactListId: number) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("file", file);
      return api.post<ContactListImportResponse>(`/contact-lists/${contactListId}/upload`, form);
    },
    onSuccess: () => invalidateContactLists(qc),
    meta: { silentError: true },
  });
};

/** The "download sample spreadsheet" action: fetches the generated .xlsx and saves it as planilha.xlsx. */
export const downloadSampleSpreadsheet = async () => {
  const blob = await api.get<Blob>("/contact-lists/sample.xlsx", { responseType: "blob" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = "planilha.xlsx";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
