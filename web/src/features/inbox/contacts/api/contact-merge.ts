import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ContactDuplicatesResponse, ContactMergeResponse, SameContactResponse } from "@atende/shared/contracts/http/contact-merge";
import { api } from "../../../../lib/api-client";
import { contactKeys } from "../../../../lib/query-keys";
import { ticketKeys } from "../../tickets/api/tickets-list";
import { removeContact, reloadContacts } from "./contacts";

/** Contacts merged, never duplicated (issue 34; docs/adr/0103, 0104). */
export const mergeKeys = {
  duplicates: [...contactKeys.all, "duplicates"] as const,
  sameContact: (id: number) => [...contactKeys.all, "same-contact", id] as const,
  dryRun: (fromId: number, intoId: number | undefined) => [...contactKeys.all, "merge-dry-run", fromId, intoId ?? 0] as const,
};

/** GET /contacts/duplicates (admins), read when the duplicates view opens. */
export const useDuplicates = (enabled: boolean) => useQuery({ queryKey: mergeKeys.duplicates, queryFn: () => api.get<ContactDuplicatesResponse>("/contacts/duplicates"), enabled });

/** POST /contacts/{id}/merge: `dryRun` answers the counts only. */
export const mergeContacts = (fromId: number, intoId: number, dryRun: boolean) => api.post<ContactMergeResponse>(`/contacts/${fromId}/merge`, { intoId, dryRun });

export const useMergeContacts = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ fromId, intoId }: { fromId: number; intoId: number }) => mergeContacts(fromId, intoId, false),
    onSuccess: (r) => {
      removeContact(qc, r.fromId);
      void reloadContacts(qc);
    },
  });
};

/** GET /contacts/{id}/same-contact: the known contacts a website visitor's typed phone or e-mail matches. */
export const useSameContact = (contactId: number, enabled: boolean) =>
  useQuery({ queryKey: mergeKeys.sameContact(contactId), queryFn: () => api.get<SameContactResponse>(`/contacts/${contactId}/same-contact`), enabled });

export const useAnswerSameContact = (contactId: number) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ otherId, same }: { otherId: number; same: boolean }) =>
      api.post<unknown>(`/contacts/${contactId}/same-contact/${otherId}/${same ? "confirm" : "dismiss"}`, {}),
    onSuccess: (_r, { same }) => {
      qc.setQueryData<SameContactResponse>(mergeKeys.sameContact(contactId), { candidates: [] });
      if (same) {
        removeContact(qc, contactId);
        void qc.invalidateQueries({ queryKey: ticketKeys.all });
      }
    },
  });
};
