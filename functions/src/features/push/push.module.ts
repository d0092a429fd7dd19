import webpush from "web-push";
import type { Db } from "../../platform/db/client";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { Outbound } from "../../platform/net/outbound-fetch";
import { vapidKeysFromFile, vapidKeysFromSecret, type VapidKeys } from "./push-keys";
import { createPushRules, type PushRules } from "./push-rules";
import { createPushSender, type PushSenderDeps } from "./push-sender";
import { createPushRepository } from "./push.repository";
import { pushRoutes } from "./push.routes";
import { createPushService, type PushService } from "./push.service";

/** Where the VAPID pair comes from (config): AWS's generated secret, the local `.data` file, else the JWT secret (tests). */
export const vapidKeysOf = (config: { VAPID_SECRET?: string; VAPID_KEY_FILE?: string; JWT_SECRET: string }): VapidKeys =>
  config.VAPID_SECRET
    ? vapidKeysFromSecret(config.VAPID_SECRET)
    : config.VAPID_KEY_FILE
      ? vapidKeysFromFile(config.VAPID_KEY_FILE, () => webpush.generateVAPIDKeys())
      : vapidKeysFromSecret(`vapid:${config.JWT_SECRET}`);

/** Web Push (issue 32, docs/adr/0097): routes, the rules other features' events call, and the two jobs that send. */
export const createPushModule = (
  deps: Omit<PushSenderDeps, "repo" | "webpush" | "fetch"> & { db: Db; guards: Guards; outbound: Outbound },
): FeatureModule<PushService> & { rules: PushRules } => {
  const repo = createPushRepository(deps.db);
  const service = createPushService({ repo, jobs: deps.jobs, keys: deps.keys, guardOn: deps.outbound.on, checkUrl: deps.outbound.checkSavedUrl, clock: deps.clock });
  const sender = createPushSender({ ...deps, repo, webpush, fetch: deps.outbound.fetch });
  return {
    service,
    rules: createPushRules(service),
    routes: [{ path: "/push", app: pushRoutes(service, deps.guards) }],
    jobs: { typed: { "push.notify": (job) => sender.notify(job.companyId, job.event), "push.deliver": (job) => sender.retry(job) } },
  };
};
