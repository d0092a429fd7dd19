import * as z from "zod";
import { CONNECTION_STATUSES } from "../../constants/business";

/**
 * One session host's registry item (docs/adr/0070): written by the host on every registry heartbeat
 * (`SESSIONHOST#REGISTRY`, sort key = hostId, with a TTL) and answered as is by `GET /api/session-hosts`
 * (platform operator only). `hostId`: the ECS task ARN in AWS, `host-<n>` locally. `capacity`: sessions the host
 * takes at most (SESSION_HOST_CAPACITY). `draining`: it is handing its connections over (SIGTERM) and takes none.
 * `lastHeartbeatAt`: epoch ms of its last registry write; a host silent for SESSION_HOST_STALE_MS is dead and
 * other hosts take its connections.
 */
export const sessionHostConnectionSchema = z.object({
  companyId: z.number().int(),
  whatsappId: z.number().int(),
  status: z.enum(CONNECTION_STATUSES),
});
export const sessionHostSchema = z.object({
  hostId: z.string().min(1),
  pid: z.number().int(),
  capacity: z.number().int().nonnegative(),
  draining: z.boolean(),
  lastHeartbeatAt: z.number().int(),
  connections: z.array(sessionHostConnectionSchema),
});
export type SessionHostConnection = z.infer<typeof sessionHostConnectionSchema>;
export type SessionHostResponse = z.infer<typeof sessionHostSchema>;

/** The registry partition and the item TTL (seconds after the last heartbeat DynamoDB may delete a silent host). */
export const SESSION_HOST_REGISTRY_PK = "SESSIONHOST#REGISTRY";
export const SESSION_HOST_REGISTRY_TTL_SECONDS = 3_600;
/** a host whose registry item is older than this is dead (SESSION_HOST_STALE_MS's default; the API lists only live ones) */
export const SESSION_HOST_STALE_MS_DEFAULT = 8_000;

/**
 * Sessions per host when SESSION_HOST_CAPACITY is not set (session-host config, the ECS task's environment and
 * its autoscaling target), derived from the `session-fleet` bench (docs/scale.md, ADR 0073): a 1 GiB task kept
 * under 80 % holds 819 MiB; an empty host uses ~126 MiB RSS; a session costs ~0.26 MiB on the host side plus a
 * Baileys socket's own buffers and caches (~27 MiB, the middle of the 20–40 MB assumption no bench measures yet):
 * (819 − 126) / 27.3 ≈ 25.
 */
export const SESSION_HOST_CAPACITY_DEFAULT = 25;
