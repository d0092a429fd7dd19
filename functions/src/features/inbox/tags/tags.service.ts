import { PAGE_SIZE } from "@atende/shared/constants/business";
import type { TagEventData, TagKanbanResponse, TagPageResponse, TagView } from "@atende/shared/contracts/http/tags";
import { can } from "@atende/shared/domain/permissions/permissions";
import type { Tag, TagInput } from "@atende/shared/domain/tags/tag";
import { hashQuery, pageByNumber, type PageCursors } from "../../../platform/db/page-cursors";
import { AppError } from "../../../platform/errors";
import type { JobQueue } from "../../../platform/queues/jobs.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { RealtimeService } from "../../realtime/realtime.service";
import type { TagsRepository } from "./tags.repository";

const DEFAULT_COLOR = "#A4CCCC";
/** "Every tag" answers (ticket tag picker, campaign tag list) are bounded: a company has tens of tags. */
const MAX_ALL = 1000;
const UNLINK_PAGE = 50;
/** Tickets taken off inline by DELETE /tags/{id}; the rest continue on the jobs queue (a request stays short). */
const INLINE_UNLINK = 100;
const UNLINK_PER_JOB = 500;
/** The `feature` job that continues taking a deleted tag off its tickets. */
export const TAG_UNLINK_JOB = "tags.unlink";

/** What deleting a tag needs from tickets: take the tag off one ticket (false when nothing was taken off: ticket gone or untagged). */
export type TicketTagRemover = (companyId: number, ticketId: number, tagId: number) => Promise<boolean>;

export const toTagView = (t: Tag): TagView => ({
  id: t.id,
  companyId: t.companyId,
  name: t.name,
  color: t.color,
  kanban: t.kanban,
  ticketsCount: t.ticketsCount ?? 0,
  userId: t.userId ?? null,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

/** Spec 3 section 6: the kanban switch is for admin and supervisor; kanban tags (the board's lanes) are theirs to change. */
const canSwitchKanban = (auth: AuthContext) => can(auth.user.profile, "kanban:switch");
const byName = (a: Tag, b: Tag) => a.name.localeCompare(b.name);

export const createTagsService = (deps: {
  tags: TagsRepository;
  realtime: RealtimeService;
  cursors: PageCursors;
  /** takes a deleted tag off one ticket: the tickets service's, given at construction (tickets are built first) */
  ticketTags: TicketTagRemover;
  jobs: JobQueue;
  clock: () => Date;
  /** tickets unlinked inside the delete request before handing over to a job (tests lower it) */
  inlineUnlink?: number;
}) => {
  const { tags, realtime, cursors, ticketTags, jobs, clock, inlineUnlink = INLINE_UNLINK } = deps;

  const find = async (auth: AuthContext, id: number): Promise<Tag> => {
    const tag = await tags.findById(auth.companyId, id);
    if (!tag) throw new AppError("ERR_NOT_FOUND");
    return tag;
  };
  const publish = (companyId: number, data: TagEventData) => realtime.publish<TagEventData>(companyId, "tag", data, { kind: "company" });

  /**
   * Takes a deleted tag off up to `budget` of its tickets (each ticket in its own transaction, which also drops the
   * link); when links remain, a job continues. Views never show a deleted tag meanwhile (they map ids to live tags).
   */
  const unlink = async (companyId: number, tagId: number, budget: number) => {
    let done = 0;
    for (;;) {
      // links are deleted as we go: every round reads the first remaining page
      const page = await tags.pageLinkedTicketIds(companyId, tagId, Math.min(UNLINK_PAGE, budget - done));
      for (const ticketId of page.ticketIds) {
        const taken = await ticketTags(companyId, ticketId, tagId);
        if (!taken) await tags.removeLink(companyId, tagId, ticketId);
      }
      done += page.ticketIds.length;
      if (!page.next) return;
      if (done >= budget) {
        await jobs.enqueue({ type: "feature", companyId, name: TAG_UNLINK_JOB, payload: { tagId } });
        return;
      }
    }
  };

  return {
    /** GET /tags/list: every tag, A-Z (ticket tag picker). */
    async list(auth: AuthContext): Promise<TagView[]> {
      return (await tags.listByCompany(auth.companyId)).sort(byName).slice(0, MAX_ALL).map(toTagView);
    },
    /** GET /tags/ (tags page): A-Z, names containing the lower-cased search, 20 a page. */
    async page(auth: AuthContext, q: { searchParam: string; pageNumber: number }): Promise<TagPageResponse> {
      const term = q.searchParam.trim().toLowerCase();
      const { items, hasMore } = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["tags", term]),
        page: q.pageNumber,
        now: clock(),
        fetch: (cursor) => tags.page(auth.companyId, term, PAGE_SIZE, cursor),
      });
      return { tags: items.map(toTagView), count: await tags.count(auth.companyId, term), hasMore };
    },
    /** GET /tags?companyId=: every tag of the caller's company in the page's shape (the id given is ignored: the token decides). */
    async all(auth: AuthContext): Promise<TagPageResponse> {
      const list = await this.list(auth);
      return { tags: list, count: list.length, hasMore: false };
    },
    /** GET /tags/kanban: the board's lanes. */
    async kanban(auth: AuthContext): Promise<TagKanbanResponse> {
      return { lista: (await tags.listByCompany(auth.companyId)).filter((t) => t.kanban === 1).sort(byName).map(toTagView) };
    },
    async get(auth: AuthContext, id: number): Promise<TagView> {
      return toTagView(await find(auth, id));
    },
    async create(auth: AuthContext, input: TagInput): Promise<TagView> {
      const kanban = input.kanban ?? 0;
      if (kanban === 1 && !canSwitchKanban(auth)) throw new AppError("ERR_NO_PERMISSION");
      const tag = await tags.create(auth.companyId, { name: input.name, color: input.color || DEFAULT_COLOR, kanban, userId: auth.user.id }, clock());
      if (!tag) throw new AppError("ERR_DUPLICATED_NAME");
      const view = toTagView(tag);
      await publish(auth.companyId, { action: "create", tag: view });
      return view;
    },
    async update(auth: AuthContext, id: number, input: Partial<TagInput>): Promise<TagView> {
      const before = await find(auth, id);
      const kanban = input.kanban ?? before.kanban;
      if ((before.kanban === 1 || kanban !== before.kanban) && !canSwitchKanban(auth)) throw new AppError("ERR_NO_PERMISSION");
      const fields = { name: input.name ?? before.name, color: input.color || before.color, kanban, updatedAt: clock().toISOString() };
      const result = await tags.update(before, fields);
      if (result === "duplicate") throw new AppError("ERR_DUPLICATED_NAME");
      if (result === "gone") throw new AppError("ERR_NOT_FOUND");
      const view = toTagView((await tags.findById(auth.companyId, id)) ?? { ...before, ...fields });
      await publish(auth.companyId, { action: "update", tag: view });
      return view;
    },
    /** DELETE /tags/{id}: the tag goes first (no new links can form), then it is taken off its tickets. */
    async remove(auth: AuthContext, id: number): Promise<void> {
      const tag = await find(auth, id);
      if (tag.kanban === 1 && !canSwitchKanban(auth)) throw new AppError("ERR_NO_PERMISSION");
      await tags.remove(tag);
      await publish(auth.companyId, { action: "delete", tagId: id });
      await unlink(tag.companyId, tag.id, inlineUnlink);
    },
    /** The TAG_UNLINK_JOB: continues taking a deleted tag off its tickets. */
    async continueUnlink(companyId: number, tagId: number): Promise<void> {
      if (await tags.findById(companyId, tagId)) return; // not deleted: nothing to do
      await unlink(companyId, tagId, UNLINK_PER_JOB);
    },
  };
};
export type TagsService = ReturnType<typeof createTagsService>;
