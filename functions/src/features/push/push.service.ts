import { createPublicKey } from "node:crypto";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { PushEvent, PushNotification } from "@atende/shared/contracts/job-messages";
import type { PushPreferencesBody, PushPublicKeyResponse } from "@atende/shared/contracts/http/push";
import type { pushSubscriptionInputSchema } from "@atende/shared/contracts/http/push";
import type * as z from "zod";
import { AppError } from "../../platform/errors";
import type { JobQueue } from "../../platform/queues/jobs.port";
import { afterWork } from "../../platform/unit-of-work";
import type { VapidKeys } from "./push-keys";
import type { PushRepository } from "./push.repository";

/** A user's devices: a phone, a laptop, a tablet... more is refused (a leak of old subscriptions, not a real need). */
export const MAX_DEVICES_PER_USER = 10;

const decode = (b64url: string): Buffer | null => (/^[A-Za-z0-9_-]+={0,2}$/.test(b64url) ? Buffer.from(b64url, "base64url") : null);

/** keys.p256dh: the uncompressed P-256 point (65 bytes, 0x04 ‖ x ‖ y) on the curve; keys.auth: 16 bytes. */
export const checkPushKeys = (p256dh: string, auth: string): void => {
  const point = decode(p256dh);
  const secret = decode(auth);
  if (!point || point.length !== 65 || point[0] !== 4 || !secret || secret.length !== 16) throw new AppError("ERR_PUSH_INVALID_KEYS");
  try {
    createPublicKey({ key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, format: "jwk" });
  } catch {
    throw new AppError("ERR_PUSH_INVALID_KEYS");
  }
};

export type PushServiceDeps = {
  repo: PushRepository;
  jobs: JobQueue;
  keys: VapidKeys;
  /** the outbound guard is on (AWS): an endpoint must be https and public (`checkUrl`, ERR_URL_NOT_ALLOWED otherwise) */
  guardOn: boolean;
  checkUrl: (url: string) => Promise<void>;
  clock: () => Date;
};

/** The push subscriptions API and the notifier other features call (docs/adr/0097). */
export const createPushService = (deps: PushServiceDeps) => {
  const { repo, jobs, clock } = deps;

  /**
   * Queued when the unit of work ends (after its writes committed and its frames went out): the job decides and sends.
   * `committed`: the caller is told after its own transaction committed (the inbox's ticket-change listener), so the
   * job is queued at once instead of after the rest of the work (greetings, bots): a waiting customer's push leaves sooner.
   */
  const emit = (companyId: number, event: PushEvent, opts: { committed?: boolean } = {}) =>
    opts.committed ? jobs.enqueue({ type: "push.notify", companyId, event }) : afterWork(() => jobs.enqueue({ type: "push.notify", companyId, event }));

  return {
    publicKey: (): PushPublicKeyResponse => ({ publicKey: deps.keys.publicKey }),

    async subscribe(auth: AuthContext, input: z.output<typeof pushSubscriptionInputSchema>): Promise<{ endpoint: string }> {
      const url = new URL(input.endpoint);
      if (url.protocol !== "https:" && (deps.guardOn || url.protocol !== "http:")) throw new AppError("ERR_PUSH_ENDPOINT_NOT_ALLOWED");
      if (deps.guardOn) await deps.checkUrl(input.endpoint).catch(() => Promise.reject(new AppError("ERR_PUSH_ENDPOINT_NOT_ALLOWED")));
      checkPushKeys(input.keys.p256dh, input.keys.auth);
      const userId = auth.user.id;
      const mine = await repo.listByUser(auth.companyId, userId);
      if (!mine.some((s) => s.endpoint === input.endpoint) && mine.length >= MAX_DEVICES_PER_USER) throw new AppError("ERR_PUSH_TOO_MANY_DEVICES");
      await repo.put(auth.companyId, { userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, lang: input.lang, createdAt: clock().toISOString() });
      return { endpoint: input.endpoint };
    },

    /** Only the caller's own subscription: another user's endpoint is not found (and stays). Logout calls it too. */
    async unsubscribe(auth: AuthContext, endpoint: string): Promise<void> {
      if (!(await repo.remove(auth.companyId, auth.user.id, endpoint))) throw new AppError("ERR_PUSH_SUBSCRIPTION_NOT_FOUND");
    },

    getPreferences: (auth: AuthContext) => repo.preferences(auth.companyId, auth.user.id),
    async setPreferences(auth: AuthContext, prefs: PushPreferencesBody) {
      await repo.setPreferences(auth.companyId, auth.user.id, prefs);
      return prefs;
    },

    /** A domain event that may notify (the rules, push-rules.ts): queued after the unit of work. */
    emit,
    /** Other features' own notifications (e.g. a supervisor's whisper): the users' devices, quiet hours respected. */
    notifyUsers: (companyId: number, userIds: number[], notification: PushNotification, opts: { urgency?: "normal" | "high" } = {}) =>
      userIds.length ? emit(companyId, { kind: "direct", userIds, notification, urgency: opts.urgency ?? "normal" }) : Promise.resolve(),
  };
};
export type PushService = ReturnType<typeof createPushService>;
