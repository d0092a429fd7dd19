import { randomUUID } from "node:crypto";
import { PAGE_SIZE } from "@atende/shared/constants/business";
import type {
  ContactListEventData,
  ContactListImportResponse,
  ContactListItemEventData,
  ContactListItemPageResponse,
  ContactListItemResponse,
  ContactListPageResponse,
  ContactListResponse,
} from "@atende/shared/contracts/http/contact-lists";
import { type InboundEvent, MAX_NUMBERS_PER_CHECK } from "@atende/shared/contracts/queue-messages";
import { type ContactListItemInput, INLINE_IMPORT_ROWS, isContactListImportFile, MAX_IMPORT_BYTES, numberDigits } from "@atende/shared/domain/contact-lists/contact-list";
import type { Logger } from "../../platform/logger";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { AppError } from "../../platform/errors";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import { type MediaStore, mediaKeyFor } from "../../platform/storage/media-store.port";
import type { CommandQueue } from "../../platform/queues/commands.port";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { RealtimeService } from "../realtime/realtime.service";
import type { WhatsappsOfCompany } from "../whatsapps/whatsapps.ports";
import { type ImportRow, parseContactSpreadsheet, sampleSpreadsheet } from "./contact-list-spreadsheet";
import type { SpreadsheetCodec } from "../../platform/spreadsheets/spreadsheet.port";
import type { ContactList, ContactListItem, ContactListsRepository } from "./contact-lists.repository";

/** Feature jobs on the `jobs` queue (registered in jobs-consumer FEATURE_JOBS). */
export const CONTACT_LIST_CHECK_JOB = "contactLists.checkNumbers";
export const CONTACT_LIST_PURGE_JOB = "contactLists.purge";
export const CONTACT_LIST_IMPORT_JOB = "contactLists.import";

/** number-check requests of this feature: `cli:<listId>:<itemId>` (the answer's number names the item's key). */
const REQUEST_PREFIX = "cli:";
/**
 * Numbers sent for checking per job run; the job re-enqueues itself for the rest after a pause. Bulk number
 * checks are a known WhatsApp ban trigger: at most CHECK_BATCH numbers a CHECK_PAUSE_SECONDS (25 a minute).
 */
export const CHECK_BATCH = MAX_NUMBERS_PER_CHECK;
export const CHECK_PAUSE_SECONDS = 60;
/** Without a connected connection the check waits and retries (every 5 minutes, for an hour). */
const NO_CONNECTION_RETRY_SECONDS = 300;
const NO_CONNECTION_MAX_ATTEMPTS = 12;
/** Rows written while the upload request waits (INLINE_IMPORT_ROWS, shared); a larger file is written by the import job, this many rows per run. */
const IMPORT_JOB_ROWS = 2000;

export type CheckJobPayload = { contactListId: number; cursor?: string; attempt?: number };
export type PurgeJobPayload = { contactListId: number };
/** `key`: the parsed rows (JSON) in the media store; `offset`: the first row not written yet. */
export type ImportJobPayload = { contactListId: number; key: string; offset: number };

export const toContactListResponse = (l: ContactList): ContactListResponse => ({
  id: l.id,
  name: l.name,
  contactsCount: Math.max(0, l.contactsCount),
  companyId: l.companyId,
  createdAt: l.createdAt,
  updatedAt: l.updatedAt,
});
export const toContactListItemResponse = (i: ContactListItem): ContactListItemResponse => ({
  id: i.id,
  name: i.name,
  number: i.number,
  email: i.email,
  isWhatsappValid: i.isWhatsappValid,
  checkedAt: i.checkedAt,
  companyId: i.companyId,
  contactListId: i.contactListId,
  createdAt: i.createdAt,
  updatedAt: i.updatedAt,
});

/** Contact lists and their items (spec 3), with WhatsApp validity checked in the background. */
export const createContactListsService = (deps: {
  /** reads the uploaded .xls/.xlsx (the API Lambda's SheetJS adapter; ADR 0038) */
  spreadsheets: SpreadsheetCodec;
  lists: ContactListsRepository;
  whatsapps: WhatsappsOfCompany;
  commands: CommandQueue;
  jobs: JobQueue;
  realtime: RealtimeService;
  media: MediaStore;
  cursors: PageCursors;
  clock: () => Date;
  logger: Logger;
  /** LGPD (docs/adr/0030): which of these numbers belong to erased people (refused with ERR_NUMBER_ERASED) */
  erasedAmong?: (companyId: number, numbers: string[]) => Promise<Set<string>>;
}) => {
  const { lists, whatsapps, commands, jobs, realtime, media, cursors, clock, logger } = deps;
  /** Splits rows into those that may be imported and the erased people's numbers (refused, reported). */
  const withoutErased = async <R extends { number: string }>(companyId: number, rows: R[]) => {
    if (!deps.erasedAmong || rows.length === 0) return { rows, erased: [] as string[] };
    const gone = await deps.erasedAmong(companyId, rows.map((r) => r.number));
    return { rows: rows.filter((r) => !gone.has(r.number)), erased: rows.filter((r) => gone.has(r.number)).map((r) => r.number) };
  };

  const findList = async (companyId: number, id: number) => {
    const l = await lists.findById(companyId, id);
    if (!l) throw new AppError("ERR_NOT_FOUND");
    return l;
  };
  const findItem = async (companyId: number, id: number) => {
    const i = await lists.findItemById(companyId, id);
    if (!i || !(await lists.findById(companyId, i.contactListId))) throw new AppError("ERR_NOT_FOUND");
    return i;
  };
  const publishList = (companyId: number, data: ContactListEventData) => realtime.publish<ContactListEventData>(companyId, "ContactList", data, { kind: "admins" });
  const publishItem = (companyId: number, data: ContactListItemEventData) =>
    realtime.publish<ContactListItemEventData>(companyId, "ContactListItem", data, { kind: "admins" });
  /** The list's count changed: tell the lists page. */
  const publishCount = async (companyId: number, listId: number) => {
    const l = await lists.findById(companyId, listId);
    if (l) await publishList(companyId, { action: "update", record: toContactListResponse(l) });
  };

  /** The connection that answers number checks: the default one when connected, else any connected one. */
  const checkingConnection = async (companyId: number) => {
    const all = (await whatsapps.listByCompany(companyId)).filter((w) => w.status === "CONNECTED");
    return all.find((w) => w.isDefault) ?? all[0] ?? null;
  };
  /** One checkNumbers command (one WhatsApp query) per MAX_NUMBERS_PER_CHECK items, never one per number. */
  const sendChecks = async (companyId: number, whatsappId: number, items: ContactListItem[]) => {
    for (let at = 0; at < items.length; at += MAX_NUMBERS_PER_CHECK) {
      const checks = items.slice(at, at + MAX_NUMBERS_PER_CHECK).map((i) => ({ requestId: `${REQUEST_PREFIX}${i.contactListId}:${i.id}`, number: i.number }));
      await commands.send({ type: "checkNumbers", commandId: randomUUID(), companyId, whatsappId, checks });
    }
  };
  /** One new or renumbered item: checked at once when a connection is up, else by the job later. */
  const checkOne = async (item: ContactListItem) => {
    const w = await checkingConnection(item.companyId);
    if (w) await sendChecks(item.companyId, w.id, [item]);
    else await jobs.enqueue({ type: "feature", companyId: item.companyId, name: CONTACT_LIST_CHECK_JOB, payload: { contactListId: item.contactListId, attempt: 1 } }, NO_CONNECTION_RETRY_SECONDS);
  };

  const service = {
    // ---- for other features (campaigns) ----
    /** A list of the company, or null. */
    findList: (companyId: number, id: number) => lists.findById(companyId, id),
    /** One page of a list's items in a stable order (`next` absent on the last page); `validOnly` for sending. */
    pageItems: (companyId: number, contactListId: number, cursor?: string, limit?: number, opts?: { validOnly?: boolean }) =>
      lists.pageItems(companyId, contactListId, cursor, limit, opts),

    // ---- lists ----
    /** GET /contact-lists/: by name A-Z, searchable by name. */
    async list(auth: AuthContext, q: { searchParam: string; pageNumber: number }): Promise<ContactListPageResponse> {
      const term = q.searchParam.trim().toLowerCase();
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["contact-lists", term]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => lists.page(auth.companyId, term, PAGE_SIZE, cursor),
      });
      return { records: items.map(toContactListResponse), hasMore };
    },
    /** GET /contact-lists/list: every list (for selects), bounded by walking pages. */
    async listAll(auth: AuthContext): Promise<ContactListResponse[]> {
      const out: ContactListResponse[] = [];
      let cursor: string | undefined;
      do {
        const page = await lists.page(auth.companyId, "", 100, cursor);
        out.push(...page.items.map(toContactListResponse));
        cursor = page.next;
      } while (cursor && out.length < 1000);
      return out;
    },
    async get(auth: AuthContext, id: number): Promise<ContactListResponse> {
      return toContactListResponse(await findList(auth.companyId, id));
    },
    async create(auth: AuthContext, name: string): Promise<ContactListResponse> {
      const l = toContactListResponse(await lists.create(auth.companyId, name, clock()));
      await publishList(auth.companyId, { action: "create", record: l });
      return l;
    },
    async update(auth: AuthContext, id: number, name: string): Promise<ContactListResponse> {
      await findList(auth.companyId, id);
      const l = await lists.rename(auth.companyId, id, name, clock());
      if (!l) throw new AppError("ERR_NOT_FOUND");
      const response = toContactListResponse(l);
      await publishList(auth.companyId, { action: "update", record: response });
      return response;
    },
    /** DELETE /contact-lists/{id}: the list disappears at once; its items are purged by a background job. */
    async remove(auth: AuthContext, id: number): Promise<void> {
      await findList(auth.companyId, id);
      await lists.remove(auth.companyId, id);
      await jobs.enqueue({ type: "feature", companyId: auth.companyId, name: CONTACT_LIST_PURGE_JOB, payload: { contactListId: id } });
      await publishList(auth.companyId, { action: "delete", id });
    },
    /** POST /contact-lists/{id}/upload: adds the spreadsheet's rows; WhatsApp validity is checked in the background. */
    /** the "download sample spreadsheet" file: the accepted headers and two example rows */
    sampleSpreadsheet: (): Uint8Array => sampleSpreadsheet(deps.spreadsheets),

    async importFile(auth: AuthContext, id: number, file: UploadedFile): Promise<ContactListImportResponse> {
      await findList(auth.companyId, id);
      if (!isContactListImportFile(file.name) || file.bytes.length === 0 || file.bytes.length > MAX_IMPORT_BYTES) throw new AppError("ERR_INVALID_IMPORT_FILE");
      const parsedAll = parseContactSpreadsheet(deps.spreadsheets, file.bytes);
      const { rows: allowed, erased } = await withoutErased(auth.companyId, parsedAll.rows);
      const parsed = { ...parsedAll, rows: allowed };
      const inline = parsed.rows.length <= INLINE_IMPORT_ROWS;
      let added = 0;
      if (inline) {
        added = (await lists.addItems(auth.companyId, id, parsed.rows, clock())).length;
        if (added > 0) await jobs.enqueue({ type: "feature", companyId: auth.companyId, name: CONTACT_LIST_CHECK_JOB, payload: { contactListId: id } });
      } else {
        const key = mediaKeyFor(auth.companyId, `contact-import-${randomUUID()}`, "rows.json");
        await media.put(key, new TextEncoder().encode(JSON.stringify(parsed.rows)), "application/json");
        await jobs.enqueue({ type: "feature", companyId: auth.companyId, name: CONTACT_LIST_IMPORT_JOB, payload: { contactListId: id, key, offset: 0 } });
      }
      const after = await findList(auth.companyId, id);
      await publishItem(auth.companyId, { action: "reload", contactListId: id });
      await publishList(auth.companyId, { action: "update", record: toContactListResponse(after) });
      return {
        added,
        queued: inline ? 0 : parsed.rows.length,
        duplicates: parsed.duplicates + (inline ? parsed.rows.length - added : 0),
        invalid: parsed.invalid,
        truncated: parsed.truncated,
        contactList: toContactListResponse(after),
        ...(erased.length ? { erased: erased.length, erasedNumbers: erased.slice(0, 100) } : {}),
      };
    },

    // ---- items ----
    /** GET /contact-list-items: the items of one list by name (A-Z), searchable by name, number or email. */
    async listItems(auth: AuthContext, q: { searchParam: string; pageNumber: number; contactListId: number }): Promise<ContactListItemPageResponse> {
      await findList(auth.companyId, q.contactListId);
      const term = q.searchParam.trim().toLowerCase();
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["contact-list-items", q.contactListId, term]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => lists.pageItemsByName(auth.companyId, q.contactListId, term, PAGE_SIZE, cursor),
      });
      return { contacts: items.map(toContactListItemResponse), hasMore };
    },
    async getItem(auth: AuthContext, id: number): Promise<ContactListItemResponse> {
      return toContactListItemResponse(await findItem(auth.companyId, id));
    },
    async createItem(auth: AuthContext, contactListId: number, input: ContactListItemInput): Promise<ContactListItemResponse> {
      await findList(auth.companyId, contactListId);
      if ((await withoutErased(auth.companyId, [{ number: numberDigits(input.number) }])).erased.length) throw new AppError("ERR_NUMBER_ERASED");
      const result = await lists.addItem(auth.companyId, contactListId, { name: input.name, number: numberDigits(input.number), email: input.email }, clock());
      if (result === "duplicate") throw new AppError("ERR_DUPLICATED_CONTACT");
      if (result === "listGone") throw new AppError("ERR_NOT_FOUND");
      const response = toContactListItemResponse(result);
      await publishItem(auth.companyId, { action: "create", record: response });
      await publishCount(auth.companyId, contactListId);
      await checkOne(result);
      return response;
    },
    async updateItem(auth: AuthContext, id: number, input: ContactListItemInput): Promise<ContactListItemResponse> {
      const current = await findItem(auth.companyId, id);
      if ((await withoutErased(auth.companyId, [{ number: numberDigits(input.number) }])).erased.length) throw new AppError("ERR_NUMBER_ERASED");
      const result = await lists.updateItem(current, { name: input.name, number: numberDigits(input.number), email: input.email }, clock());
      if (result === "duplicate") throw new AppError("ERR_DUPLICATED_CONTACT");
      if (!result) throw new AppError("ERR_NOT_FOUND");
      const response = toContactListItemResponse(result);
      await publishItem(auth.companyId, { action: "update", record: response });
      if (result.number !== current.number) await checkOne(result);
      return response;
    },
    async removeItem(auth: AuthContext, id: number): Promise<void> {
      const item = await findItem(auth.companyId, id);
      if (!(await lists.removeItem(item, clock()))) throw new AppError("ERR_NOT_FOUND");
      await publishItem(auth.companyId, { action: "delete", id, contactListId: item.contactListId });
      await publishCount(auth.companyId, item.contactListId);
    },

    // ---- background ----
    /** Job: one checkNumbers command for a batch of the list's unchecked items, then re-enqueues itself for the rest. */
    async checkNumbers(companyId: number, payload: CheckJobPayload): Promise<void> {
      if (!(await lists.findById(companyId, payload.contactListId))) return;
      const w = await checkingConnection(companyId);
      if (!w) {
        const attempt = payload.attempt ?? 1;
        if (attempt >= NO_CONNECTION_MAX_ATTEMPTS) {
          logger.warn("contact lists: no connected connection to check numbers", { companyId, contactListId: payload.contactListId });
          return;
        }
        await jobs.enqueue({ type: "feature", companyId, name: CONTACT_LIST_CHECK_JOB, payload: { ...payload, attempt: attempt + 1 } }, NO_CONNECTION_RETRY_SECONDS);
        return;
      }
      const page = await lists.pageItems(companyId, payload.contactListId, payload.cursor, CHECK_BATCH);
      await sendChecks(companyId, w.id, page.items.filter((i) => i.checkedAt === null));
      if (page.next)
        await jobs.enqueue({ type: "feature", companyId, name: CONTACT_LIST_CHECK_JOB, payload: { contactListId: payload.contactListId, cursor: page.next } }, CHECK_PAUSE_SECONDS);
    },
    /** Hook of the number.checked inbound event: records the answer on the item it was asked for (others ignored). */
    async onNumberChecked(event: Extract<InboundEvent, { type: "number.checked" }>): Promise<void> {
      if (!event.requestId.startsWith(REQUEST_PREFIX)) return;
      const [listId, itemId] = event.requestId.slice(REQUEST_PREFIX.length).split(":").map(Number);
      if (!listId || !itemId) return;
      const item = await lists.setValidity(event.companyId, listId, itemId, numberDigits(event.number), event.exists, clock());
      if (item) await publishItem(event.companyId, { action: "update", record: toContactListItemResponse(item) });
    },
    /** Job: writes the next rows of a large import, then re-enqueues itself; the last run starts the validity check. */
    async importRows(companyId: number, payload: ImportJobPayload): Promise<void> {
      if (!(await lists.findById(companyId, payload.contactListId))) return;
      const stored = await media.get(payload.key);
      if (!stored) return;
      const rows = JSON.parse(new TextDecoder().decode(stored.body)) as ImportRow[];
      const end = payload.offset + IMPORT_JOB_ROWS;
      await lists.addItems(companyId, payload.contactListId, rows.slice(payload.offset, end), clock());
      await publishItem(companyId, { action: "reload", contactListId: payload.contactListId });
      await publishCount(companyId, payload.contactListId);
      const next = end < rows.length ? { name: CONTACT_LIST_IMPORT_JOB, payload: { ...payload, offset: end } } : { name: CONTACT_LIST_CHECK_JOB, payload: { contactListId: payload.contactListId } };
      await jobs.enqueue({ type: "feature", companyId, ...next });
    },
    /** Job: deletes a deleted list's items, a page at a time. */
    async purge(companyId: number, payload: PurgeJobPayload): Promise<void> {
      for (;;) {
        const page = await lists.pageItems(companyId, payload.contactListId, undefined, 200);
        if (page.items.length === 0) return;
        await lists.purgeItems(page.items);
        if (!page.next) return;
      }
    },
  };
  return service;
};
export type ContactListsService = ReturnType<typeof createContactListsService>;
