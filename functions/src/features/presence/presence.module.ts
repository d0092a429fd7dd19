import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { AgentStatusService } from "./agent-status.service";
import { agentsRoutes, pauseReasonsRoutes } from "./presence.routes";
import { AGENT_SOCKET_BACK_JOB, AGENT_SOCKETS_GONE_JOB, type AgentSocketJobPayload } from "./socket-presence";

/**
 * Agent status and pause reasons (issue 13 item 1, docs/adr/0032). The service is built before auth (sign-out sets
 * offline) from the agents' repository, which the composition root also hands to the inbox: the tickets' own
 * transactions move the slot counters (`deltaItem`, `takeSlotItem`). The routes come once the guards exist.
 * The jobs: the status follows the sockets (docs/adr/0044; queued by socket-presence.ts from the socket routes).
 */
export const createPresenceModule = (deps: { service: AgentStatusService; guards: Guards }): FeatureModule<AgentStatusService> => ({
  service: deps.service,
  routes: [
    { path: "/agents", app: agentsRoutes(deps.service, deps.guards) },
    { path: "/pause-reasons", app: pauseReasonsRoutes(deps.service, deps.guards) },
  ],
  jobs: {
    named: {
      // enqueued only by socket-presence.ts, so the payload has this shape
      [AGENT_SOCKETS_GONE_JOB]: (companyId, payload) => deps.service.socketsGone(companyId, Number((payload as AgentSocketJobPayload).userId)),
      [AGENT_SOCKET_BACK_JOB]: (companyId, payload) => deps.service.socketBack(companyId, Number((payload as AgentSocketJobPayload).userId)),
    },
  },
});
