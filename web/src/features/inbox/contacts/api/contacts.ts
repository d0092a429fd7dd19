import { type InfiniteData, type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ContactCreateResponse, ContactImportResponse, ContactImportState, ContactListResponse, ContactUploadResponse, ContactView } from "@atende/shared/contracts/http/contacts";
import type { ContactFormInput } from "@atende/shared/domain/contacts/contact";
import { api } from "../../../../lib/api-client";
import { contactKeys } from "../../../../lib/query-keys";

/** Contacts (spec 1 section 7 "Contacts"): list with search and paging, one contact, create, update, delete. */
type Pages = InfiniteData<ContactListResponse, number>;

/** Live/mutation update of a contact in every cached list and its detail. New contacts go on top of the unfiltered list. */
export const applyContactUpdate = (qc: QueryClient, contact: ContactView) => {
  for (const [key, data] of qc.getQueriesData<Pages>({ queryKey: contactKeys.lists() })) {
    if (!data?.pages) continue;
    const present = data.pages.some((p) => p.contacts.some((c) => c.id === contact.id));
    const search = String(key[2] ?? "");
    const pages = data.pages.map((page, i) => {
      if (present) return { ...page, contacts: page.contacts.map((c) => (c.id === contact.id ? contact : c)) };
      return i === 0 && !search ? { ...page, count: (page.count ?? 0) + 1, contacts: [contact, ...page.contacts] } : page;
    });
    qc.setQueryData<Pages>(key, { ...data, pages });
  }
  qc.setQueryData(contactKeys.detail(contact.id), contact);
};

export const removeContact = (qc: QueryClient, contactId: number) => {
  for (const [key, data] of qc.getQueriesData<Pages>({ queryKey: contactKeys.lists() })) {
    if (!data?.pages) continue;
    qc.setQueryData<Pages>(key, { ...data, pages: data.pages.map((p) => ({ ...p, contacts: p.contacts.filter((c) => c.id !== contactId) })) });
  }
  qc.removeQueries({ queryKey: contactKeys.detail(contactId) });
};

export const useSaveContact = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ContactFormInput }) =>
      id ? api.put<ContactView>(`/contacts/${id}`, input) : api.post<ContactCreateResponse>("/contacts", input),
    onSuccess: (contact) => {
      const saved = (contact as ContactCreateResponse).existingContact ?? contact;
      if (saved && typeof saved === "object" && "id" in saved) applyContactUpdate(qc, saved);
    },
  });
};

export const useDeleteContact = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/contacts/${id}`), onSuccess: (_r, id) => removeContact(qc, id) });
};

/** Many contacts changed at once (an upload, a phone import): every list refetches. */
export const reloadContacts = (qc: QueryClient) => qc.invalidateQueries({ queryKey: contactKeys.all });

/** POST /contacts/upload (multipart `file`: .csv, .xls, .xlsx). The caller shows its own error for a refused file. */
export const useUploadContacts = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("file", file);
      return api.post<ContactUploadResponse>("/contacts/upload", form);
    },
    onSuccess: () => void reloadContacts(qc),
    meta: { silentError: true },
  });
};

/** POST /contacts/import: the phone's contacts arrive later, as `contact` reload events. */
/** A background import's state (its end may have been published while the page's socket was closed). */
export const fetchImportState = (requestId: string) => api.get<ContactImportState>(`/contacts/import/${encodeURIComponent(requestId)}`);

export const useImportPhoneContacts = () => useMutation({ mutationFn: () => api.post<ContactImportResponse>("/contacts/import", {}) });

/** The contact upload's accepted files. */
export const isContactUploadFile = (name: string) => ["csv", "xls", "xlsx"].includes(name.toLowerCase().split(".").pop() ?? "");
