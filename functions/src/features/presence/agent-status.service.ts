import type { AgentStatusInput, AgentStatusRecord, AgentView, PauseReason } from "@atende/shared/contracts/http/service-levels";
import type { AgentEventData } from "@atende/shared/contracts/http/service-levels";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { can, isAdmin, type Profile } from "@atende/shared/domain/permissions/permissions";
import type { AgentStatus } from "@atende/shared/domain/service-levels/distribution";
import { AppError } from "../../platform/errors";
import type { RealtimeService } from "../realtime/realtime.service";
import type { AgentRecord, AgentsRepository } from "./agents.repository";
import { RESUME_WINDOW_MS } from "./socket-presence";

/** A user as the status panel needs one (never the password hash). */
export type AgentUser = { id: number; name: string; profile: string; queueIds: number[] };
export type AgentUsers = {
  findById(companyId: number, id: number): Promise<AgentUser | null>;
  listByCompany(companyId: number): Promise<AgentUser[]>;
};
/** Told when an attendant may take tickets again (online, back from a pause, more capacity): distribution runs. */
export type AgentAvailableListener = (companyId: number, userId: number) => Promise<unknown>;

const HISTORY_LIMIT = 200;

/**
 * Agent status (issue 13 item 1, docs/adr/0032): online, paused (with one of the company's reasons) or offline,
 * switched by the attendant in the top bar, recorded with times, set offline on sign-out; admins see everyone's
 * status, open tickets and time in status. Every change is published on `company-{id}-user` as `{action:"status"}`.
 */
export const createAgentStatusService = (deps: {
  agents: AgentsRepository;
  users: AgentUsers;
  realtime: RealtimeService;
  /** the company's default capacity (setting `defaultCapacity`) */
  defaultCapacity: (companyId: number) => Promise<number>;
  onAvailable: AgentAvailableListener[];
  /** whether the user still has a socket (docs/adr/0044: the status follows the sockets) */
  hasLiveSocket: (companyId: number, userId: number) => Promise<boolean>;
  clock: () => Date;
}) => {
  const { agents, users, realtime, clock } = deps;

  const toView = (user: AgentUser, a: AgentRecord, reasons: Map<number, string>, defCap: number): AgentView => ({
    userId: user.id,
    name: user.name,
    profile: user.profile,
    queueIds: user.queueIds,
    status: a.status,
    pauseReasonId: a.status === "paused" ? a.pauseReasonId : null,
    pauseReason: a.status === "paused" && a.pauseReasonId ? (reasons.get(a.pauseReasonId) ?? null) : null,
    since: a.since,
    openTickets: Math.max(0, a.open),
    capacity: a.capacity ?? defCap,
    ownCapacity: a.capacity,
    lastAssignedAt: a.lastAssignedAt ? a.lastAssignedAt.slice(0, 24) : null,
  });
  const reasonNames = async (companyId: number) => new Map((await agents.listReasons(companyId)).map((r) => [r.id, r.name]));

  const viewOf = async (companyId: number, user: AgentUser) =>
    toView(user, await agents.get(companyId, user.id), await reasonNames(companyId), await deps.defaultCapacity(companyId));

  const publish = async (companyId: number, user: AgentUser) => {
    const agent = await viewOf(companyId, user);
    await realtime.publish<AgentEventData>(companyId, "user", { action: "status", agent }, { kind: "company" });
    return agent;
  };
  const available = async (companyId: number, userId: number) => {
    for (const fn of deps.onAvailable) await fn(companyId, userId);
  };
  const userOf = async (companyId: number, userId: number) => {
    const u = await users.findById(companyId, userId);
    if (!u) throw new AppError("ERR_NO_USER_FOUND");
    return u;
  };
  const assertAdmin = (auth: AuthContext) => {
    if (!isAdmin(auth.user.profile)) throw new AppError("ERR_NO_PERMISSION");
  };

  const change = async (companyId: number, user: AgentUser, status: AgentStatus, pauseReasonId: number | null, by: number | null) => {
    const before = await agents.get(companyId, user.id);
    if (before.status === status && (before.pauseReasonId ?? null) === pauseReasonId && before.since) {
      // offline by the system, now by the person's own choice (the switch, sign-out): no status comes back by itself
      if (before.resumeStatus) await agents.clearResume(companyId, user.id);
      return viewOf(companyId, user);
    }
    await agents.setStatus(companyId, user.id, status, pauseReasonId, by, clock());
    const view = await publish(companyId, user);
    if (status === "online") await available(companyId, user.id);
    return view;
  };

  return {
    /** GET /agents (admins and supervisors): every user of the company with status, open tickets, capacity and since when. */
    async list(auth: AuthContext): Promise<AgentView[]> {
      // supervisors read it too (the dashboard's panel; docs/adr/0101); changes stay the admins'
      if (!can(auth.user.profile as Profile, "supervisor:cockpit")) throw new AppError("ERR_NO_PERMISSION");
      const [list, records, reasons, defCap] = await Promise.all([
        users.listByCompany(auth.companyId),
        agents.list(auth.companyId),
        reasonNames(auth.companyId),
        deps.defaultCapacity(auth.companyId),
      ]);
      const byUser = new Map(records.map((a) => [a.userId, a]));
      return list
        .map((u) => toView(u, byUser.get(u.id) ?? { companyId: auth.companyId, userId: u.id, status: "offline", pauseReasonId: null, since: null, capacity: null, open: 0, seq: 0, lastAssignedAt: null, resumeStatus: null, resumePauseReasonId: null }, reasons, defCap))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    /** GET /agents/me */
    async me(auth: AuthContext): Promise<AgentView> {
      return viewOf(auth.companyId, await userOf(auth.companyId, auth.user.id));
    },
    /** PUT /agents/me/status: a pause names one of the company's reasons (ERR_PAUSE_REASON_REQUIRED / ERR_NO_PAUSE_REASON_FOUND). */
    async setStatus(auth: AuthContext, input: AgentStatusInput): Promise<AgentView> {
      const user = await userOf(auth.companyId, auth.user.id);
      let reasonId: number | null = null;
      if (input.status === "paused") {
        if (!input.pauseReasonId) throw new AppError("ERR_PAUSE_REASON_REQUIRED");
        if (!(await agents.findReason(auth.companyId, input.pauseReasonId))) throw new AppError("ERR_NO_PAUSE_REASON_FOUND");
        reasonId = input.pauseReasonId;
      }
      return change(auth.companyId, user, input.status, reasonId, auth.user.id);
    },
    /** Sign-out: the attendant is offline (nothing happens when they already were, and nothing comes back by itself). */
    async signedOut(companyId: number, userId: number): Promise<void> {
      const a = await agents.get(companyId, userId);
      if (a.status === "offline") {
        if (a.resumeStatus) await agents.clearResume(companyId, userId);
        return;
      }
      const user = await users.findById(companyId, userId);
      if (user) await change(companyId, user, "offline", null, userId);
    },
    /**
     * Job `presence.socketsGone` (docs/adr/0044), the grace after a socket went away, and the 5-minute ping check:
     * an online or paused attendant without any socket left goes offline (history row by the system, the status
     * event); what they had is remembered so a quick return gives it back. A pause ends there, its reason with it.
     */
    async socketsGone(companyId: number, userId: number): Promise<void> {
      const a = await agents.get(companyId, userId);
      if (a.status === "offline") return;
      if (await deps.hasLiveSocket(companyId, userId)) return;
      const user = await users.findById(companyId, userId);
      if (!user) return;
      const pauseReasonId = a.status === "paused" ? a.pauseReasonId : null;
      const written = await agents.setStatus(companyId, userId, "offline", null, null, clock(), {
        expect: { status: a.status, pauseReasonId: a.pauseReasonId },
        resume: { status: a.status, pauseReasonId },
      });
      if (written) await publish(companyId, user);
    },
    /**
     * Job `presence.socketBack`: a socket of theirs connected while the system held them offline. Back within
     * RESUME_WINDOW_MS: the status they had (a pause with the same reason, if it still exists); later: offline
     * until they switch (the marker is kept until their next change; it only counts within the window).
     */
    async socketBack(companyId: number, userId: number): Promise<void> {
      const a = await agents.get(companyId, userId);
      if (a.status !== "offline" || !a.resumeStatus) return;
      if (!a.since || clock().getTime() - Date.parse(a.since) > RESUME_WINDOW_MS) return;
      if (!(await deps.hasLiveSocket(companyId, userId))) return;
      const user = await users.findById(companyId, userId);
      if (!user) return;
      const reasonId = a.resumeStatus === "paused" ? a.resumePauseReasonId : null;
      if (a.resumeStatus === "paused" && (!reasonId || !(await agents.findReason(companyId, reasonId)))) return;
      const written = await agents.setStatus(companyId, userId, a.resumeStatus, reasonId, null, clock(), {
        expect: { status: "offline", pauseReasonId: a.pauseReasonId, resumeStatus: a.resumeStatus },
      });
      if (!written) return;
      await publish(companyId, user);
      if (a.resumeStatus === "online") await available(companyId, userId);
    },
    /** PUT /agents/{userId} (admins): the user's own capacity, null for the company's default. */
    async setCapacity(auth: AuthContext, userId: number, capacity: number | null): Promise<AgentView> {
      assertAdmin(auth);
      const user = await userOf(auth.companyId, userId);
      await agents.setCapacity(auth.companyId, userId, capacity);
      const view = await publish(auth.companyId, user);
      if (view.status === "online") await available(auth.companyId, userId);
      return view;
    },
    /** GET /agents/{userId}/history (admins, or the user themself): status periods, newest first. */
    async history(auth: AuthContext, userId: number): Promise<AgentStatusRecord[]> {
      if (userId !== auth.user.id) assertAdmin(auth);
      await userOf(auth.companyId, userId);
      const reasons = await reasonNames(auth.companyId);
      return (await agents.history(auth.companyId, userId, HISTORY_LIMIT)).map((h) => ({ ...h, pauseReason: h.pauseReasonId ? (reasons.get(h.pauseReasonId) ?? null) : null }));
    },

    // ---- pause reasons (the company's list, edited by admins in the settings page) ----
    listReasons(auth: AuthContext): Promise<PauseReason[]> {
      return agents.listReasons(auth.companyId);
    },
    async createReason(auth: AuthContext, name: string): Promise<PauseReason> {
      assertAdmin(auth);
      return agents.createReason(auth.companyId, name, clock());
    },
    async renameReason(auth: AuthContext, id: number, name: string): Promise<PauseReason> {
      assertAdmin(auth);
      if (!(await agents.renameReason(auth.companyId, id, name))) throw new AppError("ERR_NO_PAUSE_REASON_FOUND");
      return (await agents.findReason(auth.companyId, id))!;
    },
    async removeReason(auth: AuthContext, id: number): Promise<void> {
      assertAdmin(auth);
      if (!(await agents.removeReason(auth.companyId, id))) throw new AppError("ERR_NO_PAUSE_REASON_FOUND");
    },
  };
};
export type AgentStatusService = ReturnType<typeof createAgentStatusService>;
