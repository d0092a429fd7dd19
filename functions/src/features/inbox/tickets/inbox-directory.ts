import { COMPANY_SETTING_DEFAULTS, type CompanySettingKey } from "@atende/shared/constants/settings";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Tag } from "@atende/shared/domain/tags/tag";
import type { InboxCompany, InboxQueue, InboxReads, InboxUser, InboxWhatsapp } from "../inbox-ports";
import type { TagsRepository } from "../tags/tags.repository";
import { contactCardOf, type TicketCard } from "./tickets.repository";

/** The small per-company lists a ticket view needs (queues, users, connections, tags: plan-limited, few). */
export type Directory = {
  company: InboxCompany | null;
  queues: Map<number, InboxQueue>;
  users: Map<number, InboxUser>;
  whatsapps: Map<number, InboxWhatsapp>;
  tags: Map<number, Tag>;
  setting(key: CompanySettingKey): string;
};

/**
 * The longest a company's directory is reused on one instance (issue 15: no per-instance cache may show anyone a list
 * more than a second old). Its names and colours reach the cards of the search's answers and of the realtime ticket
 * frames (a renamed queue, user or tag, a connection's status), so a longer reuse could leave a card stale for longer
 * than that; a larger `ttlMs` is capped to this (docs/adr/0050).
 */
export const DIRECTORY_REUSE_MAX_MS = 1000;

/** The lookups read through the other features' narrow interfaces (inbox-ports.ts) and the inbox's own tags. */
export const createInboxDirectory = (
  deps: Pick<InboxReads, "companies" | "queues" | "users" | "whatsapps" | "settings"> & { tags: Pick<TagsRepository, "findById" | "listByCompany"> },
  reuseMs = 0,
) => {
  const ttlMs = Math.min(DIRECTORY_REUSE_MAX_MS, reuseMs);
  const cache = new Map<number, { at: number; value: Promise<Directory> }>();
  const fresh = async (companyId: number): Promise<Directory> => {
    const [company, queues, users, whatsapps, settings, tags] = await Promise.all([
      deps.companies.findById(companyId),
      deps.queues.listByCompany(companyId),
      deps.users.listByCompany(companyId),
      deps.whatsapps.listByCompany(companyId),
      deps.settings.list(companyId),
      deps.tags.listByCompany(companyId),
    ]);
    const values = new Map(settings.map((s) => [s.key, s.value]));
    return {
      company,
      queues: new Map(queues.map((q) => [q.id, q])),
      users: new Map(users.map((u) => [u.id, u])),
      whatsapps: new Map(whatsapps.map((w) => [w.id, w])),
      tags: new Map(tags.map((t) => [t.id, t])),
      setting: (key) => values.get(key) ?? COMPANY_SETTING_DEFAULTS[key],
    };
  };
  /**
   * The unit of work that loads the directory has read its queues (as of when the directory was read, ≤ 1 s ago): the
   * SLA planner's and the bot resolver's queue read answer from them (docs/adr/0058: one GetItem fewer per message
   * on a ticket in a queue). The answer waits for that, so every read after it finds them.
   */
  const remembered = (companyId: number, entry: { at: number; value: Promise<Directory> }): Promise<Directory> =>
    deps.queues.remember
      ? entry.value.then((dir) => {
          deps.queues.remember?.(companyId, [...dir.queues.values()], entry.at);
          return dir;
        })
      : entry.value;
  const withCompany = new WeakSet<Directory>();
  /**
   * Queues, users, connections and tags a list's cards named, each reused for `ttlMs` (≤ 1 s, the same rule as the
   * whole directory's; docs/adr/0057): a list page whose names were read within the second reads none of them.
   */
  const reused = new Map<string, { at: number; value: Promise<unknown> }>();
  const reusing =
    <T>(kind: string, companyId: number, find: (id: number) => Promise<T | null>) =>
    (id: number): Promise<T | null> => {
      const k = `${companyId}#${kind}#${id}`;
      const hit = reused.get(k);
      if (hit && Date.now() - hit.at < ttlMs) return hit.value as Promise<T | null>;
      const value = find(id);
      reused.delete(k);
      reused.set(k, { at: Date.now(), value });
      // a miss (a deleted queue, a failed read) is not kept
      value.then((v) => v === null && reused.delete(k), () => reused.delete(k));
      if (reused.size > 5000) reused.delete(reused.keys().next().value!);
      return value;
    };
  const byIds = async <T extends { id: number }>(ids: Iterable<number | null | undefined>, have: Map<number, T> | undefined, find: (id: number) => Promise<T | null>) => {
    const out = new Map(have ?? []);
    const missing = [...new Set([...ids].filter((id): id is number => id != null && !out.has(id)))];
    for (const found of await Promise.all(missing.map(find))) if (found) out.set(found.id, found);
    return out;
  };
  return {
    /**
     * Only what some tickets need, by point reads, instead of the company's lists: the named queues, users,
     * connections and tags (absent ones are simply not in the maps), and the company with its settings when
     * `settings` is asked (without it `company` is null and `setting()` throws). `base`: entries already loaded.
     */
    async loadFor(
      companyId: number,
      need: { queueIds: (number | null | undefined)[]; userIds: (number | null | undefined)[]; whatsappIds: (number | null | undefined)[]; tagIds: number[]; settings: boolean },
      base?: Directory,
      /** reuse entries read within `ttlMs` (≤ 1 s) on this instance: the lists' cards (docs/adr/0057); writes never do */
      opts: { reuse?: boolean } = {},
    ): Promise<Directory> {
      const withSettings = need.settings && !(base && withCompany.has(base));
      const reuse = !!opts.reuse && ttlMs > 0;
      const find = <T>(kind: string, read: (id: number) => Promise<T | null>) => (reuse ? reusing(kind, companyId, read) : read);
      const [queues, users, whatsapps, tags, company, settings] = await Promise.all([
        byIds(need.queueIds, base?.queues, find("q", (id) => deps.queues.findById(companyId, id))),
        byIds(need.userIds, base?.users, find("u", (id) => deps.users.findById(companyId, id))),
        byIds(need.whatsappIds, base?.whatsapps, find("w", (id) => deps.whatsapps.findById(companyId, id))),
        byIds(need.tagIds, base?.tags, find("t", (id) => deps.tags.findById(companyId, id))),
        withSettings ? deps.companies.findById(companyId) : null,
        withSettings ? deps.settings.list(companyId) : null,
      ]);
      const values = settings ? new Map(settings.map((x) => [x.key, x.value])) : null;
      const dir: Directory = {
        company: withSettings ? company : (base?.company ?? null),
        queues,
        users,
        whatsapps,
        tags,
        setting: values
          ? (key) => values.get(key) ?? COMPANY_SETTING_DEFAULTS[key]
          : (base?.setting ??
            ((key) => {
              throw new Error(`inbox directory: settings not loaded (${key})`);
            })),
      };
      if (withSettings || (base && withCompany.has(base))) withCompany.add(dir);
      return dir;
    },
    /** The company's lookups, reused for `ttlMs` (≤ 1 s; the inbound pipeline loads them for every message). */
    load(companyId: number, opts: { fresh?: boolean } = {}): Promise<Directory> {
      const hit = cache.get(companyId);
      if (!opts.fresh && hit && Date.now() - hit.at < ttlMs) return remembered(companyId, hit);
      const entry = { at: Date.now(), value: fresh(companyId) };
      if (ttlMs > 0) {
        cache.set(companyId, entry);
        entry.value.catch(() => cache.delete(companyId));
        if (cache.size > 1000) cache.delete(cache.keys().next().value!);
      }
      return remembered(companyId, entry);
    },
  };
};
export type InboxDirectory = ReturnType<typeof createInboxDirectory>;

/** A contact, or the card's copy of one a ticket carries (docs/adr/0057). */
type ContactShown = Pick<Contact, "id" | "name" | "number" | "email" | "profilePicUrl" | "isGroup" | "extraInfo">;

export const contactSummary = (c: ContactShown | null | undefined): TicketView["contact"] => (c ? contactCardOf(c) : null);

/** The API / realtime shape of a ticket (explicit mapper: internal fields never leak). */
export const toTicketView = (t: TicketCard, dir: Directory, contact: ContactShown | null | undefined): TicketView => {
  const queue = t.queueId !== null ? dir.queues.get(t.queueId) : undefined;
  const user = t.userId !== null ? dir.users.get(t.userId) : undefined;
  const whatsapp = t.whatsappId !== null ? dir.whatsapps.get(t.whatsappId) : undefined;
  return {
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    userId: t.userId,
    user: user ? { id: user.id, name: user.name } : null,
    queueId: t.queueId,
    queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
    whatsappId: t.whatsappId,
    whatsapp: whatsapp ? { id: whatsapp.id, name: whatsapp.name, status: whatsapp.status, provider: whatsapp.provider } : null,
    contactId: t.contactId,
    contact: contactSummary(contact),
    lastMessage: t.lastMessage,
    updatedAt: t.updatedAt,
    createdAt: t.createdAt,
    version: t.version,
    unreadMessages: t.unreadMessages,
    tags: t.tagIds.flatMap((id) => {
      const tag = dir.tags.get(id);
      return tag ? [{ id: tag.id, name: tag.name, color: tag.color }] : [];
    }),
    presence: t.presence,
    isGroup: t.isGroup,
    chatbot: t.chatbot,
    useIntegration: t.useIntegration,
    promptId: t.promptId,
    integrationId: t.integrationId,
    protocol: t.cycle.protocol ?? null,
    sla: t.cycle.sla ?? null,
  };
};
