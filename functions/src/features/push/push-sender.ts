import { createHash } from "node:crypto";
import type { JobMessage, PushEvent, PushNotification } from "@atende/shared/contracts/job-messages";
import type { Profile } from "@atende/shared/domain/permissions/permissions";
import type { Logger } from "../../platform/logger";
import { METRIC } from "@atende/shared/contracts/metric-names";
import type { Metrics } from "../../platform/metrics";
import type { OutboundFetch } from "../../platform/net/outbound-fetch";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { VapidKeys } from "./push-keys";
import { PUSH_TEXTS } from "./push-texts";
import type { PushPreferences, PushRepository, PushSubscriptionRecord } from "./push.repository";

export type PushUrgency = "very-low" | "low" | "normal" | "high";
type DeliverJob = Extract<JobMessage, { type: "push.deliver" }>;

/** How long a push service keeps an undelivered notification (a phone that is off for a while still gets it). */
export const PUSH_TTL_SECONDS = 4 * 3600;
/** 429 and 5xx: tried again through the jobs queue, at most this many times, waiting RETRY_BASE_SECONDS · 2^attempt */
export const PUSH_MAX_ATTEMPTS = 5;
const RETRY_BASE_SECONDS = 10;
const PUSH_TIMEOUT_MS = 10_000;

/** The part of `web-push` the sender uses: it builds the encrypted (aes128gcm), VAPID-signed request; we send it. */
export type WebPushRequests = {
  generateRequestDetails(
    subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
    payload: string,
    options: { vapidDetails: { subject: string; publicKey: string; privateKey: string }; TTL: number; urgency: PushUrgency; topic?: string; contentEncoding: "aes128gcm" },
  ): { method: string; headers: Record<string, string | number>; body: Buffer | null; endpoint: string };
};

export type PushUser = { id: number; profile: Profile; queueIds: number[]; allTicket: "enabled" | "desabled" };

export type PushSenderDeps = {
  repo: PushRepository;
  jobs: JobQueue;
  fetch: OutboundFetch;
  webpush: WebPushRequests;
  keys: VapidKeys;
  subject: string;
  users: (companyId: number) => Promise<PushUser[]>;
  /** the attendant status (docs/adr/0032): paused and offline get no queue pushes */
  agentStatus: (companyId: number, userId: number) => Promise<string>;
  /** whether one of the user's sockets watches the room (the ticket open on screen: `ticket:<uuid>`) */
  watching: (companyId: number, userId: number, room: string) => Promise<boolean>;
  contactName: (companyId: number, contactId: number) => Promise<string | null>;
  company: (companyId: number) => Promise<{ timezone: string; previews: boolean }>;
  metrics: Metrics;
  logger: Logger;
  clock: () => Date;
};

const PREF_OF: Record<PushEvent["kind"], keyof PushPreferences | null> = { waiting: "waiting", message: "message", transfer: "transfer", chat: "chat", announcement: "announcement", whisper: null, direct: null };

/** "HH:MM" now in the time zone; quiet hours may cross midnight (22:00–07:00); equal ends mean none. */
export const inQuietHours = (now: Date, timeZone: string, start: string | null, end: string | null): boolean => {
  if (!start || !end || start === end) return false;
  let hm: string;
  try {
    hm = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(now);
  } catch {
    hm = now.toISOString().slice(11, 16);
  }
  return start < end ? hm >= start && hm < end : hm >= start || hm < end;
};

/** The push service's Topic header (at most 32 base64url characters): repeats of one tag replace each other there too. */
const topicOf = (tag: string) => createHash("sha256").update(tag).digest("base64url").slice(0, 32);
const clip = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The jobs that decide who gets a push and send it (docs/adr/0097): never run in the inbound path. */
export const createPushSender = (deps: PushSenderDeps) => {
  const { repo, webpush, keys, logger, metrics } = deps;

  /** Who may get the event's push, before preferences and quiet hours. */
  const recipients = async (companyId: number, event: PushEvent): Promise<number[]> => {
    switch (event.kind) {
      case "waiting": {
        const { queueId } = event.ticket;
        const users = (await deps.users(companyId)).filter((u) => (queueId !== null ? u.queueIds.includes(queueId) : u.profile === "admin" && u.allTicket === "enabled"));
        const online = await Promise.all(users.map(async (u) => ((await deps.agentStatus(companyId, u.id)) === "online" ? u.id : null)));
        return online.filter((id): id is number => id !== null);
      }
      case "message": {
        const owner = event.ticket.userId;
        if (owner === null || (await deps.watching(companyId, owner, `ticket:${event.ticket.uuid}`))) return [];
        return [owner];
      }
      case "transfer":
      case "whisper":
        return event.ticket.userId !== null ? [event.ticket.userId] : [];
      case "announcement":
        return (await deps.users(companyId)).map((u) => u.id);
      case "chat":
      case "direct":
        return event.userIds;
    }
  };

  /** The notification in the device's language; customer text only when the company allows previews. */
  const notificationOf = async (companyId: number, event: PushEvent, sub: PushSubscriptionRecord, company: () => Promise<{ previews: boolean }>): Promise<PushNotification> => {
    const tx = PUSH_TEXTS[sub.lang] ?? PUSH_TEXTS.pt;
    switch (event.kind) {
      case "waiting":
      case "message":
      case "transfer": {
        const name = (await deps.contactName(companyId, event.contactId)) || tx.unknownContact;
        const url = `/tickets/${event.ticket.uuid}`;
        const tag = `ticket-${event.ticket.uuid}`;
        if (event.kind === "waiting") return { title: tx.waitingTitle, body: tx.waitingBody(name), url, tag };
        if (event.kind === "transfer") return { title: tx.transferTitle, body: tx.transferBody(name), url, tag };
        const previews = (await company()).previews;
        return { title: tx.messageTitle, body: previews && event.preview ? `${name}: ${clip(event.preview)}` : tx.messageFrom(name), url, tag };
      }
      case "chat": {
        const previews = (await company()).previews;
        return { title: tx.chatTitle(event.from), body: previews && event.preview ? clip(event.preview) : tx.chatFrom(event.from), url: `/chats/${event.chatUuid}`, tag: `chat-${event.chatUuid}` };
      }
      case "whisper": {
        const previews = (await company()).previews;
        const url = `/tickets/${event.ticket.uuid}`;
        return { title: tx.whisperTitle(event.from), body: previews && event.preview ? clip(event.preview) : tx.whisperBody, url, tag: `whisper-${event.ticket.uuid}` };
      }
      case "announcement":
        return { title: tx.announcementTitle, body: clip(event.title), url: "/announcements", tag: `announcement-${event.id}` };
      case "direct":
        return event.notification;
    }
  };

  const urgencyOf = (event: PushEvent): PushUrgency => (event.kind === "waiting" || event.kind === "message" || event.kind === "whisper" || (event.kind === "direct" && event.urgency === "high") ? "high" : "normal");

  /** One request to one subscription: 404/410 forget it, 429/5xx (and network failures) try again later. */
  const deliver = async (companyId: number, sub: PushSubscriptionRecord, notification: PushNotification, urgency: PushUrgency, attempt: number): Promise<number> => {
    const details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(notification), {
      vapidDetails: { subject: deps.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: PUSH_TTL_SECONDS,
      urgency,
      topic: topicOf(notification.tag),
      contentEncoding: "aes128gcm",
    });
    let status = 0;
    try {
      // fetch sets Content-Length from the body itself (undici refuses one given by hand)
      const headers = Object.fromEntries(Object.entries(details.headers).filter(([k]) => k.toLowerCase() !== "content-length").map(([k, v]) => [k, String(v)]));
      const res = await deps.fetch(details.endpoint, { method: details.method, headers, body: details.body, timeoutMs: PUSH_TIMEOUT_MS, maxBodyBytes: 64 * 1024 });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      logger.warn("push: request failed", { companyId, userId: sub.userId, err: String(err), cause: String((err as { cause?: unknown }).cause ?? "") });
    }
    if (status >= 200 && status < 300) {
      metrics.count(METRIC.pushSent);
      return status;
    }
    if (status === 404 || status === 410) {
      logger.info("push: subscription gone", { companyId, userId: sub.userId, status });
      await repo.remove(companyId, sub.userId, sub.endpoint);
      return status;
    }
    if (status === 0 || status === 429 || status >= 500) {
      metrics.count(METRIC.pushFailures);
      if (attempt < PUSH_MAX_ATTEMPTS) {
        const job: DeliverJob = { type: "push.deliver", companyId, userId: sub.userId, endpoint: sub.endpoint, notification, urgency, attempt: attempt + 1 };
        await deps.jobs.enqueue(job, Math.min(900, RETRY_BASE_SECONDS * 2 ** attempt));
      } else logger.warn("push: gave up", { companyId, userId: sub.userId, status });
      return status;
    }
    metrics.count(METRIC.pushFailures);
    logger.warn("push: refused by the push service", { companyId, userId: sub.userId, status });
    return status;
  };

  return {
    /** The `push.notify` job: who, what they want, when, then one request per device. */
    async notify(companyId: number, event: PushEvent): Promise<void> {
      const users = [...new Set(await recipients(companyId, event))];
      const pref = PREF_OF[event.kind];
      const now = deps.clock();
      const urgency = urgencyOf(event);
      let info: ReturnType<PushSenderDeps["company"]> | undefined;
      const company = () => (info ??= deps.company(companyId));
      await Promise.all(
        users.map(async (userId) => {
          const prefs = await repo.preferences(companyId, userId);
          if (pref && !prefs[pref]) return;
          if (prefs.quietStart && inQuietHours(now, (await company()).timezone, prefs.quietStart, prefs.quietEnd)) return;
          const subs = await repo.listByUser(companyId, userId);
          await Promise.all(subs.map(async (sub) => deliver(companyId, sub, await notificationOf(companyId, event, sub, company), urgency, 1)));
        }),
      );
    },
    /** The `push.deliver` job: one subscription again (it may be gone meanwhile). */
    async retry(job: DeliverJob): Promise<void> {
      const sub = await repo.find(job.companyId, job.userId, job.endpoint);
      if (sub) await deliver(job.companyId, sub, job.notification, job.urgency, job.attempt);
    },
  };
};
export type PushSender = ReturnType<typeof createPushSender>;
