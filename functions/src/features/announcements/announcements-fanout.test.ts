import { describe, expect, it } from "vitest";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import type { AnnouncementsRepository } from "./announcements.repository";
import { ANNOUNCEMENT_FANOUT_JOB, createAnnouncementsService, type FanOutPayload } from "./announcements.service";
import type { RealtimeService } from "../realtime/realtime.service";
import type { PageCursors } from "../../platform/db/page-cursors";
import type { MediaStore } from "../../platform/storage/media-store.port";

/** 250 companies, listed 100 at a time by cursor, as the companies index pages them. */
const companyIds = async (limit: number, cursor?: string) => {
  const from = cursor ? Number(cursor) : 0;
  const ids = Array.from({ length: Math.min(limit, 250 - from) }, (_, i) => from + i + 1);
  return { ids, cursor: from + limit < 250 ? String(from + limit) : undefined };
};

describe("announcement fan-out", () => {
  it("reaches every company once, one page of companies per job", async () => {
    const published: number[] = [];
    const queued: JobMessage[] = [];
    const svc = createAnnouncementsService({
      announcements: {} as AnnouncementsRepository, // not used by the fan-out
      media: {} as MediaStore,
      cursors: {} as PageCursors,
      realtime: { publish: async (companyId: number) => (published.push(companyId), 1) } as unknown as RealtimeService,
      jobs: { enqueue: async (job) => void queued.push(job) },
      companyIds,
      clock: () => new Date(),
    });
    const data = { action: "delete", id: 7 } as const;
    await svc.fanOut(1, { data });
    let jobs = 1;
    while (queued.length) {
      const job = queued.shift()!;
      expect(job).toMatchObject({ type: "feature", name: ANNOUNCEMENT_FANOUT_JOB, companyId: 1 });
      await svc.fanOut(1, (job as Extract<JobMessage, { type: "feature" }>).payload as FanOutPayload);
      jobs++;
    }
    expect(jobs).toBe(3);
    expect(published).toHaveLength(250);
    expect(new Set(published).size).toBe(250);
  });
});
