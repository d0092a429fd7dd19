import type { FeatureModule } from "../../platform/modules/feature-module";
import type { ConnectionsRepository } from "./connections.repository";
import { createPresenceService, type PresenceService } from "./presence.service";
import { createRealtimeService, type RealtimeService } from "./realtime.service";
import { createSocketsService, SOCKET_OPEN_JOB, SOCKET_PING_JOB, type SocketJobPayload, type SocketsService } from "./sockets.service";

/**
 * The realtime feature in two modules, because it sits at both ends of the build order (docs/adr/0024-feature-modules.md):
 * the fan-out (every feature publishes through it, so it is built first) and the sockets (they authenticate
 * through the auth service, so they are built after it).
 */
export const createRealtimeModule = (deps: Parameters<typeof createRealtimeService>[0]): FeatureModule<RealtimeService> => ({
  service: createRealtimeService(deps),
  // the company's socket list (read once per event, docs/adr/0039) read with the event's first round trip instead of
  // after its writes (docs/adr/0058): for a customer's message (not our own echo, which is usually dropped as a
  // duplicate, nor a group's, which a company may ignore by setting) and for a receipt, edit or a message command's
  // result (beside the message's update)
  inboundEarly: {
    message: (e) => {
      if (!e.message.fromMe && !e.message.isGroup) deps.connections.listByCompany(e.companyId).catch(() => undefined);
    },
    "message.update": (e) => void deps.connections.listByCompany(e.companyId).catch(() => undefined),
    "command.result": (e) => {
      // a send's, edit's or reaction's result names its message; a result of another command (a rejected call) does not
      if (e.messageId !== undefined) deps.connections.listByCompany(e.companyId).catch(() => undefined);
    },
  },
});

/** Sockets and presence: $connect/$default/$disconnect, the user.offlineCheck job and the Socket.IO jobs. */
export const createSocketsModule = (
  deps: Omit<Parameters<typeof createSocketsService>[0], "presence" | "users"> & Parameters<typeof createPresenceService>[0] & { connections: ConnectionsRepository },
): FeatureModule<{ sockets: SocketsService; presence: PresenceService }> => {
  const presence = createPresenceService(deps);
  const sockets = createSocketsService({ ...deps, presence });
  return {
    service: { sockets, presence },
    jobs: {
      typed: { "user.offlineCheck": (job) => presence.offlineCheck(job.companyId, job.userId, job.lastSeenAt) },
      // enqueued only by the sockets service (Socket.IO open packet and heartbeat, ADR 0013)
      named: {
        [SOCKET_OPEN_JOB]: (companyId, payload) => sockets.sendOpen(companyId, (payload as SocketJobPayload).connectionId),
        [SOCKET_PING_JOB]: (companyId, payload) => sockets.sendPing(companyId, (payload as SocketJobPayload).connectionId, Number((payload as SocketJobPayload).seq ?? 0)),
      },
    },
  };
};
