import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createContactListsRepository } from "./contact-lists.repository";
import { contactListItemsRoutes, contactListsRoutes } from "./contact-lists.routes";
import {
  CONTACT_LIST_CHECK_JOB,
  CONTACT_LIST_IMPORT_JOB,
  CONTACT_LIST_PURGE_JOB,
  createContactListsService,
  type CheckJobPayload,
  type ContactListsService,
  type ImportJobPayload,
  type PurgeJobPayload,
} from "./contact-lists.service";

/** Contact lists (spec 3; docs/adr/0024-feature-modules.md). */
export const createContactListsModule = (deps: Omit<Parameters<typeof createContactListsService>[0], "lists" | "cursors"> & { db: Db; guards: Guards }): FeatureModule<ContactListsService> => {
  const service = createContactListsService({ ...deps, lists: createContactListsRepository(deps.db), cursors: createPageCursors(deps.db) });
  return {
    service,
    routes: [
      { path: "/contact-lists", app: contactListsRoutes(service, deps.guards) },
      { path: "/contact-list-items", app: contactListItemsRoutes(service, deps.guards) },
    ],
    // contact-list items asked with a "cli:" request id (after the whatsapps module stored the check)
    inbound: { "number.checked": (event) => service.onNumberChecked(event) },
    // our own jobs (enqueued by the contact-lists service), so their payloads have these shapes
    jobs: {
      named: {
        [CONTACT_LIST_CHECK_JOB]: (companyId, payload) => service.checkNumbers(companyId, payload as CheckJobPayload),
        [CONTACT_LIST_PURGE_JOB]: (companyId, payload) => service.purge(companyId, payload as PurgeJobPayload),
        [CONTACT_LIST_IMPORT_JOB]: (companyId, payload) => service.importRows(companyId, payload as ImportJobPayload),
      },
    },
  };
};
