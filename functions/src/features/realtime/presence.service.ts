import { USER_OFFLINE_AFTER_MS } from "@atende/shared/constants/business";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { UserEventData, UserResponse } from "@atende/shared/contracts/http/users";
import type { UserPresence } from "../users/users.ports";
import type { RealtimeService } from "./realtime.service";

/**
 * Users' online state: a ping (`userStatus`, every 5 minutes from each open tab) marks the user online and
 * schedules a check 5 minutes later; if no newer ping arrived by then, the user goes offline. No scan of users.
 */
export const createPresenceService = (deps: {
  users: UserPresence;
  realtime: RealtimeService;
  /** the user as GET /users/{id} answers it: the `user` event carries it whole (ADR 0068; users/user-view.ts) */
  userView: (companyId: number, userId: number) => Promise<UserResponse | null>;
  jobs: JobQueue;
  clock: () => Date;
  /** told when the check found no ping for 5 minutes (docs/adr/0044: the agent status checks the sockets then) */
  onUserOffline?: Array<(companyId: number, userId: number) => Promise<unknown>>;
}) => {
  const { users, realtime, jobs, clock } = deps;
  /**
   * The whole user, read after its online flag was written: the spec's clients replace the user they hold with the
   * event's (their signed-in user too), so a fragment would lose its queues (issue 28).
   */
  const announce = async (companyId: number, userId: number) => {
    const user = await deps.userView(companyId, userId);
    if (user) await realtime.publish<UserEventData>(companyId, "user", { action: "update", user }, { kind: "company" });
  };
  return {
    async ping(companyId: number, userId: number): Promise<void> {
      const now = clock();
      const before = await users.findById(companyId, userId);
      await users.setOnline(companyId, userId, true, now);
      await jobs.enqueue({ type: "user.offlineCheck", companyId, userId, lastSeenAt: now.toISOString() }, USER_OFFLINE_AFTER_MS / 1000 + 5);
      if (before && !before.online) await announce(companyId, userId);
    },
    async offlineCheck(companyId: number, userId: number, lastSeenAt: string): Promise<void> {
      const user = await users.findById(companyId, userId);
      if (!user) return;
      if (user.lastSeenAt && user.lastSeenAt > lastSeenAt) return; // a newer ping scheduled its own check
      if (user.online) {
        await users.setOnline(companyId, userId, false, new Date(user.lastSeenAt ?? lastSeenAt));
        await announce(companyId, userId);
      }
      // also when a retry of this check finds the user already offline (the listeners are idempotent)
      for (const fn of deps.onUserOffline ?? []) await fn(companyId, userId);
    },
  };
};
export type PresenceService = ReturnType<typeof createPresenceService>;
