import type { JobQueue } from "../../platform/queues/jobs.port";
import type { AgentsRepository } from "./agents.repository";

/**
 * The agent status follows the sockets (docs/adr/0044). The socket routes ($connect/$disconnect, in the WebSocket
 * Lambda or the local gateway) only read the attendant's item and queue a job; the jobs Lambda decides with the
 * whole status service (history, realtime event, distribution):
 * - `presence.socketsGone`, queued OFFLINE_GRACE_SECONDS after a socket of an available attendant went away: when
 *   no socket of theirs is left, they go offline (a reload or a network blip reconnects within the grace);
 * - `presence.socketBack`, queued when a socket connects while the system holds them offline: they get back the
 *   status they had, if they return within RESUME_WINDOW_MS.
 */
export const AGENT_SOCKETS_GONE_JOB = "presence.socketsGone";
export const AGENT_SOCKET_BACK_JOB = "presence.socketBack";
export type AgentSocketJobPayload = { userId: number };

/**
 * How long an attendant without any socket stays as they were (a reload, a network blip, the client's backoff).
 * Config `AGENT_OFFLINE_GRACE_SECONDS` (the end-to-end tests shorten it).
 */
export const OFFLINE_GRACE_SECONDS = 30;
/** Back within this time of being taken offline by the system: the status they had is given back. */
export const RESUME_WINDOW_MS = 30 * 60_000;

export const createSocketPresenceListeners = (deps: { agents: Pick<AgentsRepository, "get">; jobs: JobQueue; graceSeconds?: number }) => ({
  /** A socket of the user went away: unless they are offline already, check again after the grace. */
  async disconnected(companyId: number, userId: number): Promise<void> {
    const agent = await deps.agents.get(companyId, userId);
    if (agent.status === "offline") return;
    await deps.jobs.enqueue({ type: "feature", companyId, name: AGENT_SOCKETS_GONE_JOB, payload: { userId } }, deps.graceSeconds ?? OFFLINE_GRACE_SECONDS);
  },
  /** A socket of the user connected: if the system took them offline, give their status back (the job decides). */
  async connected(companyId: number, userId: number): Promise<void> {
    const agent = await deps.agents.get(companyId, userId);
    if (agent.status !== "offline" || !agent.resumeStatus) return;
    await deps.jobs.enqueue({ type: "feature", companyId, name: AGENT_SOCKET_BACK_JOB, payload: { userId } });
  },
});
export type SocketPresenceListeners = ReturnType<typeof createSocketPresenceListeners>;
