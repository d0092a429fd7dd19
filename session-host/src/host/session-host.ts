import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from "@aws-sdk/client-sqs";
import { METRIC } from "@atende/shared/contracts/metric-names";
import { heartbeatRoundAlive } from "../platform/health.http";
import type { HostMetrics } from "../platform/host-metrics";
import type { ConnectionStatus } from "@atende/shared/constants/business";
import { outboundCommandSchema, type InboundEvent, type OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { createTableAuthStore, LeaseLostError, type TableAuthStore } from "../auth/table-auth.store";
import type { HostConfig } from "../config";
import { createLeaseRepository, type Channel, type HeldLease } from "../leases/lease.repository";
import type { MediaStore } from "../media/media-store.port";
import type { Db } from "../platform/db";
import type { Logger } from "../platform/logger";
import { ProviderError, type Provider, type ProviderSession, type SessionIdentity } from "../providers/provider.port";
import { createInboundPublisher } from "../queues/inbound-publisher";
import { createAttemptCounter, executeCommand, failureEvent, MAX_TRANSIENT_ATTEMPTS } from "./command-executor";
import { createEventEmitter } from "./event-emitter";
import { createEventSpill } from "./event-spill";
import { createHostRegistry } from "../leases/host-registry";
import { createFleetMember, staleMargin } from "./fleet";
import { createOrphanScan } from "./fleet-scan";
import { createDrain, waitPickedUp } from "./drain";

type Running = {
  identity: SessionIdentity;
  channel: Channel;
  held: HeldLease;
  session: ProviderSession;
  auth: TableAuthStore;
  events: ReturnType<typeof createEventEmitter>;
  status: ConnectionStatus;
  lost: boolean;
  /** until when this host may act for the connection on its lease alone (last renewal's start + TTL - margin) */
  leaseValidUntil: number;
  /** events were kept in the spill because the lease's validity lapsed: replay once renewed */
  suspended: boolean;
};

/** What a command does with its queue message: done (delete it), or hand it back for the connection's owner. */
type Outcome = "done" | "handBack";

const keyOf = (id: SessionIdentity) => `${id.companyId}:${id.whatsappId}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** lease renewals of one heartbeat round in flight at once */
const RENEW_CONCURRENCY = 4;

export type SessionHostDeps = {
  config: HostConfig;
  db: Db;
  sqs: SQSClient;
  media: MediaStore;
  providers: Partial<Record<Channel, Provider>>;
  logger: Logger;
  now?: () => number;
  /** messages in/out by provider, send failures by code, the lease heartbeat (platform/host-metrics.ts) */
  metrics?: HostMetrics;
  /** false under memory pressure: no orphan or new connection is taken (platform/memory-pressure.ts) */
  canTakeConnections?: () => boolean;
};

/**
 * The session host: holds the WhatsApp sessions whose leases it owns and only translates.
 * - outbound.fifo commands -> provider actions; a command leaves the queue only after the provider accepted it,
 *   then its result goes to inbound.fifo;
 * - provider events -> inbound.fifo (see event-emitter);
 * - leases: heartbeats for its sessions (a lost lease closes that socket at once) and takeover of connections
 *   whose host stopped heartbeating.
 */
export const createSessionHost = (deps: SessionHostDeps) => {
  const { config, db, sqs, media, logger } = deps;
  const now = deps.now ?? (() => Date.now());
  const hostId = config.SESSION_HOST_ID;
  const leases = createLeaseRepository(db);
  const capacity = config.SESSION_HOST_CAPACITY;
  const fleet = createFleetMember({ registry: createHostRegistry(db), hostId, pid: process.pid, capacity, staleMs: config.SESSION_HOST_STALE_MS, now, logger: logger.child({ hostId }) });
  const publisher = createInboundPublisher(sqs, config.QUEUE_URL_INBOUND);
  const sessions = new Map<string, Running>();
  const starting = new Map<string, Promise<Running | null>>();
  /** connections another live host holds, until its lease would expire: their commands go back without a table read */
  const foreign = new Map<string, number>();
  let running = false;
  let killed = false;
  const timers: NodeJS.Timeout[] = [];
  const loops: Promise<void>[] = [];
  const log = logger.child({ hostId });
  /**
   * Fencing for what is not a conditional table write (events to inbound.fifo, commands to WhatsApp): this host acts
   * for a connection only before the moment another host could take it over, by lease expiry or by this host's
   * registry heartbeat going stale. Past it, events wait in the spill (replayed by whoever holds the lease next).
   */
  const leaseLive = (r: Running) => !r.lost && now() < Math.min(r.leaseValidUntil, fleet.validUntil());
  // memory pressure (docs/adr/0078) counts as full: the least-loaded host with room takes the connection instead
  const hasRoom = () => !fleet.draining && running && sessions.size + starting.size < capacity && deps.canTakeConnections?.() !== false;

  const providerFor = (channel: Channel): Provider => {
    const p = deps.providers[channel] ?? deps.providers[config.DEFAULT_CHANNEL];
    if (!p) throw new Error(`no provider for channel ${channel}`);
    return p;
  };

  /** The lease is gone (another host took over, or a write was refused): close that socket at once. */
  const lose = (r: Running, why: string) => {
    if (r.lost) return;
    r.lost = true;
    if (sessions.get(keyOf(r.identity)) === r) sessions.delete(keyOf(r.identity));
    log.warn("lease lost: closing session", { companyId: r.identity.companyId, whatsappId: r.identity.whatsappId, why });
    void r.session.stop().catch(() => undefined);
    r.events.close();
  };

  const startSession = async (identity: SessionIdentity, channel: Channel, held: HeldLease, acquiredAt: number, begin: "start" | "none" = "start"): Promise<Running> => {
    const ref: { r?: Running } = {};
    const auth = createTableAuthStore({ db, leases, held: () => held, onLeaseLost: () => ref.r && lose(ref.r, "auth write refused") });
    const events = createEventEmitter({
      identity,
      publisher,
      media,
      logger: log,
      // past the lease's validity: events wait in the spill until a renewal (resume) or the next holder replays them
      alive: () => !killed && !!ref.r && !ref.r.lost && (leaseLive(ref.r) || !(ref.r.suspended = true)),
      crashed: () => killed,
      spill: createEventSpill(db, identity),
      onConnection: (e) => {
        if (ref.r) ref.r.status = e.status;
      },
      // a customer's message (fromMe ones are our own sends echoed, or typed on the phone: not counted)
      onMessage: (fromMe) => fromMe || deps.metrics?.count(METRIC.messagesIn, { provider: channel }),
    });
    const session = providerFor(channel).createSession({ identity, events, auth });
    const r: Running = { identity, channel, held, session, auth, events, status: "OPENING", lost: false, leaseValidUntil: acquiredAt + config.LEASE_TTL_MS - staleMargin(config.LEASE_TTL_MS), suspended: false };
    ref.r = r;
    sessions.set(keyOf(identity), r);
    // what a previous holder kept but could not publish goes first (its events are in the spill until then)
    await events.replay();
    if (begin === "start") await session.start();
    // a host losing this lease right now may still be leaving its last events in the spill
    setTimeout(() => void events.replay(), config.LEASE_TTL_MS).unref();
    log.info("session started", { ...identity, channel, fence: held.fence });
    return r;
  };

  /** Takes the connection (when free or orphaned) and starts its session; null when another live host drives it. */
  /** `scan`: from the fleet scan, which read the lease and the registry just now (a cached foreign owner may be gone) */
  const takeOver = (identity: SessionIdentity, channel: Channel | undefined, begin: "start" | "none" = "start", scan?: { deadOwners: readonly string[] }): Promise<Running | null> => {
    const deadOwners = scan?.deadOwners ?? [];
    const key = keyOf(identity);
    const existing = sessions.get(key);
    if (existing) return Promise.resolve(existing);
    if (!scan && (foreign.get(key) ?? 0) > now()) return Promise.resolve(null);
    const pending = starting.get(key);
    if (pending) return pending;
    const task = (async () => {
      // the scan listed the lease just now: the conditional acquisition alone settles who gets it (one request less)
      const lease = scan ? undefined : await leases.get(identity);
      const deadOwner = lease?.owner !== undefined && deadOwners.includes(lease.owner);
      if (lease?.owner && lease.owner !== hostId && lease.expiresAt > now() && !deadOwner) {
        foreign.set(key, lease.expiresAt);
        return null;
      }
      // `starting` holds this takeover already
      if (fleet.draining || !running || killed || sessions.size + starting.size > capacity) return null;
      const ch = channel ?? lease?.channel ?? config.DEFAULT_CHANNEL;
      const at = now();
      const held = await leases.acquire(identity, hostId, ch, at, config.LEASE_TTL_MS, scan ? deadOwners : deadOwner ? [lease.owner!] : []);
      if (!held || killed) return null;
      foreign.delete(key);
      return startSession(identity, ch, held, at, begin);
    })().finally(() => starting.delete(key));
    starting.set(key, task);
    return task;
  };

  /**
   * Stops the session and gives the lease up. A drain (`handOver`) lets the session's auth writes finish first and
   * releases with the hand-over marker, so another host takes it at its next scan with the keys this one wrote.
   */
  const stopSession = async (r: Running, wanted: boolean, handOver = false) => {
    sessions.delete(keyOf(r.identity));
    await r.session.stop().catch(() => undefined);
    if (handOver) await r.auth.idle?.().catch(() => undefined);
    r.lost = true;
    r.events.close();
    await leases.release(r.held, wanted, handOver ? now() : undefined);
  };

  /** Waits while the session is still connecting; a session showing a QR or disconnected fails at once. */
  const waitConnected = async (r: Running, ms: number) => {
    const until = now() + ms;
    const connecting = () => r.status === "OPENING" || r.status === "PAIRING" || r.status === "CONNECTED" || Boolean(r.session.isReconnecting?.());
    while (!r.session.isConnected() && connecting() && now() < until && !r.lost && !killed) await sleep(50);
    return r.session.isConnected();
  };

  const attempts = createAttemptCounter();

  const handle = async (cmd: OutboundCommand, emit: (e: InboundEvent, chatJid?: string) => void): Promise<Outcome> => {
    const identity = { companyId: cmd.companyId, whatsappId: cmd.whatsappId };
    let r: Running | null | undefined = sessions.get(keyOf(identity));
    switch (cmd.type) {
      case "session.start": {
        if (r && (r.status === "DISCONNECTED" || r.status === "TIMEOUT" || r.status === "PASSKEY_REQUIRED")) {
          await r.session.stop();
          await r.session.start();
          return "done";
        }
        if (r) return "done";
        if (await takeOver(identity, cmd.channel)) return "done";
        if (hasRoom() || foreign.has(keyOf(identity))) return "handBack";
        // full or draining: the lease says the connection should run; the least-loaded host with room takes it
        await leases.want(identity, cmd.channel ?? config.DEFAULT_CHANNEL);
        return "done";
      }
      case "session.newQr": {
        r ??= await takeOver(identity, cmd.channel, "none");
        if (!r) return "handBack";
        await r.session.requestNewQr();
        return "done";
      }
      case "session.pairingCode": {
        r ??= await takeOver(identity, cmd.channel);
        if (!r) return "handBack";
        if (r.session.isConnected()) return "done"; // already linked: nothing to pair
        await r.session.requestPairingCode(cmd.phoneNumber);
        return "done";
      }
      case "session.stop":
      case "session.logout": {
        if (!r) {
          const lease = await leases.get(identity);
          if (lease?.owner && lease.owner !== hostId && lease.expiresAt > now()) return "handBack";
          if (cmd.type === "session.logout") r = await takeOver(identity, undefined, "none");
          if (!r) {
            await leases.unwant(identity);
            return "done";
          }
        }
        if (cmd.type === "session.logout") await r.session.logout();
        await stopSession(r, false);
        return "done";
      }
      default: {
        r ??= await takeOver(identity, undefined);
        if (!r) return "handBack";
        if (!(await waitConnected(r, config.SEND_WAIT_CONNECTED_MS))) {
          if (killed || r.lost) return "handBack";
          if (cmd.type === "send") deps.metrics?.count(METRIC.sendFailures, { code: "ERR_WAPP_NOT_INITIALIZED" });
          for (const e of [failureEvent(cmd, "ERR_WAPP_NOT_INITIALIZED")].flat()) emit(e, "chatJid" in cmd ? cmd.chatJid : undefined);
          return "done";
        }
        // past the lease's validity (renewals failing): wait for a renewal rather than bounce the command in a loop
        for (const until = now() + config.SEND_WAIT_CONNECTED_MS; !leaseLive(r) && !r.lost && !killed && now() < until; ) await sleep(100);
        if (!leaseLive(r)) return "handBack";
        try {
          const result = await executeCommand(r.session, cmd, media);
          if (killed || r.lost) return "handBack";
          attempts.delete(cmd.commandId);
          if (cmd.type === "send") deps.metrics?.count(METRIC.messagesOut, { provider: r.channel });
          for (const event of [result].flat()) emit(event, "chatJid" in cmd ? cmd.chatJid : undefined);
        } catch (err) {
          if (killed || r.lost || err instanceof LeaseLostError) return "handBack";
          const code = err instanceof ProviderError ? err.code : attempts.failed(cmd.commandId) >= MAX_TRANSIENT_ATTEMPTS ? "ERR_SENDING_WAPP_MSG" : null;
          if (!code) throw err; // transient: the command goes back to the queue and is tried again
          attempts.delete(cmd.commandId);
          log.warn("command failed", { type: cmd.type, commandId: cmd.commandId, code, err: String(err) });
          if (cmd.type === "send") deps.metrics?.count(METRIC.sendFailures, { code });
          for (const e of [failureEvent(cmd, code)].flat()) emit(e, "chatJid" in cmd ? cmd.chatJid : undefined);
        }
        return "done";
      }
    }
  };

  const extendVisibility = async (messages: Message[]) => {
    if (killed || messages.length === 0) return;
    try {
      for (let i = 0; i < messages.length; i += 10)
        await sqs.send(
          new ChangeMessageVisibilityBatchCommand({
            QueueUrl: config.QUEUE_URL_OUTBOUND,
            Entries: messages.slice(i, i + 10).map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: config.COMMAND_VISIBILITY_SECONDS })),
          }),
        );
    } catch (err) {
      log.warn("could not extend command visibility", { err: String(err) });
    }
  };

  /**
   * One message group's received commands, in order. Outcomes go to inbound.fifo in batches, and a command is
   * deleted only after the provider accepted it and its outcome is on the queue. A command that cannot run here
   * hands back itself and the rest of the group, in order.
   * A slow provider (a media upload, a session still connecting) must not let a command outlive its visibility
   * timeout: another host would receive it and the group's order would be lost. So while the group runs, its
   * commands are kept invisible.
   */
  const processGroup = async (messages: Message[]) => {
    let extending: Promise<void> = Promise.resolve();
    const timer = setInterval(() => (extending = extendVisibility(messages)), (config.COMMAND_VISIBILITY_SECONDS * 1000) / 3);
    /** before the group's commands are deleted or handed back: no extension may land after that */
    const stopExtending = async () => {
      clearInterval(timer);
      await extending;
    };
    try {
      await runGroup(messages, stopExtending);
    } finally {
      clearInterval(timer);
    }
  };

  const runGroup = async (messages: Message[], stopExtending: () => Promise<void>) => {
    const done: Message[] = [];
    const emitted: Promise<void>[] = [];
    const emit = (e: InboundEvent, chatJid?: string) => emitted.push(publisher.publish(e, chatJid));
    let handBackFrom = messages.length;
    for (const [i, m] of messages.entries()) {
      if (killed) return;
      let cmd: OutboundCommand;
      try {
        cmd = outboundCommandSchema.parse(JSON.parse(m.Body ?? ""));
      } catch (err) {
        log.error("malformed command dropped", { messageId: m.MessageId, err: String(err) });
        done.push(m);
        continue;
      }
      let outcome: Outcome;
      try {
        outcome = await handle(cmd, emit);
      } catch (err) {
        log.warn("command will be retried", { type: cmd.type, commandId: cmd.commandId, err: String(err) });
        outcome = "handBack";
      }
      if (killed) return; // a dead host neither deletes nor hands back: visibility timeout returns its messages
      if (outcome === "handBack") {
        handBackFrom = i;
        break;
      }
      done.push(m);
    }
    const published = await Promise.allSettled(emitted);
    await stopExtending();
    if (killed) return;
    if (published.some((r) => r.status === "rejected")) {
      // Outcomes not on the queue: keep the commands; they come back and the provider drops what it already has.
      log.warn("command outcomes not published; commands will be redelivered", { count: done.length });
      return;
    }
    const queueUrl = config.QUEUE_URL_OUTBOUND;
    for (let i = 0; i < done.length; i += 10)
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.slice(i, i + 10).map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle })) }));
    const back = messages.slice(handBackFrom);
    if (back.length)
      // Owned by another live host (or failed for now): back to the queue at once, in order.
      await sqs
        .send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: queueUrl, Entries: back.map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 })) }))
        .catch(() => undefined);
  };

  const pollCommands = async () => {
    while (running && !killed) {
      try {
        const out = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: config.QUEUE_URL_OUTBOUND,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: config.COMMAND_WAIT_SECONDS,
            VisibilityTimeout: config.COMMAND_VISIBILITY_SECONDS,
            MessageSystemAttributeNames: ["MessageGroupId"],
          }),
        );
        if (killed) return;
        const groups = new Map<string, Message[]>();
        for (const m of out.Messages ?? []) {
          const g = m.Attributes?.MessageGroupId ?? "";
          groups.set(g, [...(groups.get(g) ?? []), m]);
        }
        await Promise.all([...groups.values()].map(processGroup));
      } catch (err) {
        if (!running || killed) return;
        log.error("command poll failed", { err: String(err) });
        await sleep(500);
      }
    }
  };

  let lastHeartbeatAt = now();
  let failingSessions = 0;
  const heartbeat = async () => {
    let renewed = 0;
    let failed = 0;
    // renewals run RENEW_CONCURRENCY at once: one by one, a slow table could make a round of 100+ sessions outlast the TTL
    const queue = [...sessions.values()];
    const renewNext = async (): Promise<void> => {
      const r = queue.shift();
      if (!r) return;
      try {
        const at = now();
        if (!(await leases.renew(r.held, at, config.LEASE_TTL_MS))) lose(r, "heartbeat refused");
        else {
          renewed++;
          r.leaseValidUntil = at + config.LEASE_TTL_MS - staleMargin(config.LEASE_TTL_MS);
          resume(r);
        }
      } catch (err) {
        failed++;
        log.warn("heartbeat failed", { ...r.identity, err: String(err) });
      }
      return renewNext();
    };
    await Promise.all(Array.from({ length: RENEW_CONCURRENCY }, renewNext));
    // one session's failure is that session's trouble, not the host's (platform/health.http.ts)
    failingSessions = failed;
    if (heartbeatRoundAlive({ renewed, failed })) lastHeartbeatAt = now();
    deps.metrics?.onHeartbeat({ renewed, failed });
  };

  /** a session whose events waited in the spill while its validity lapsed, renewed again: publish them */
  const resume = (r: Running) => void (r.suspended && leaseLive(r) && ((r.suspended = false), r.events.replay()));
  const connectionsHeld = () => [...sessions.values()].map((r) => ({ ...r.identity, status: r.status }));
  const registryBeat = async () => {
    if (!(await fleet.beat(connectionsHeld()))) return;
    for (const r of sessions.values()) {
      resume(r);
      redial(r);
    }
  };
  /** replaced by a host that dialled after losing the lease (a takeover race): the holder dials again */
  const redial = (r: Running) =>
    r.session.wasReplaced?.() && leaseLive(r) && void r.session.start().catch((err: unknown) => log.warn("redial failed", { ...r.identity, err: String(err) }));

  /** Takes connections that should run and have no live host (fleet-scan.ts: the watch and the full scan), the least-loaded hosts first. */
  const scanOrphans = createOrphanScan({
    ...{ hostId, capacity, fleet, leases, publisher, log, now },
    load: () => sessions.size + starting.size,
    skip: (key) => sessions.has(key) || starting.has(key),
    active: () => running && !killed && !fleet.draining && deps.canTakeConnections?.() !== false,
    takeOver: (identity, channel, deadOwners) => takeOver(identity, channel, "start", { deadOwners }),
    ...{ claimed: registryBeat, metrics: deps.metrics, staleForgetMs: config.LEASE_TTL_MS * 2, scanEveryMs: config.LEASE_SCAN_MS },
  });

  const every = (ms: number, fn: () => Promise<void>) => {
    let busy = false;
    timers.push(
      setInterval(() => {
        // lease and registry heartbeats go on while a drain hands over (the scan checks that it may claim)
        if (busy || killed) return;
        busy = true;
        void fn().finally(() => (busy = false));
      }, ms),
    );
  };

  const drain = createDrain({
    ...{ fleet, log, now, timeoutMs: config.DRAIN_TIMEOUT_MS, connections: connectionsHeld },
    stopTaking: async () => {
      running = false;
      await Promise.all(loops);
      await Promise.all([...starting.values()].map((p) => p.catch(() => null)));
    },
    sessions: () => [...sessions.values()],
    handOver: (r) => stopSession(r, true, true),
    pickedUp: (batch) => waitPickedUp(leases, batch.map((r) => r.identity), now),
    stopHeartbeats: () => timers.forEach(clearInterval),
  });

  return {
    hostId,
    leases,
    /** sessions this host drives (tests, benchmarks) */
    sessions: () => [...sessions.values()].map((r) => ({ ...r.identity, status: r.status, fence: r.held.fence, auth: r.auth.stats })),
    /** for the health endpoint: sessions driven, and when the lease heartbeat last completed without a failure */
    health: () => ({ running, sessions: sessions.size, lastHeartbeatAt, failingSessions }),
    /** this host's registry membership (tests: its validity, draining) */
    fleet,
    async start() {
      running = true;
      lastHeartbeatAt = now();
      await registryBeat();
      await scanOrphans();
      every(config.SESSION_HOST_HEARTBEAT_MS, registryBeat);
      every(config.LEASE_HEARTBEAT_MS, heartbeat);
      every(Math.min(config.FLEET_WATCH_MS, config.LEASE_SCAN_MS), scanOrphans);
      for (let i = 0; i < config.COMMAND_POLLERS; i++) loops.push(pollCommands());
    },
    /** Graceful stop (SIGTERM, deploys): the drain (drain.ts), bounded by DRAIN_TIMEOUT_MS. */
    stop: drain,
    /** A crash, for tests: sockets drop, nothing is released, deleted or acknowledged any more. */
    async kill() {
      killed = true;
      running = false;
      timers.forEach(clearInterval);
      for (const r of [...sessions.values()]) {
        r.lost = true;
        await r.session.stop().catch(() => undefined);
      }
      sessions.clear();
    },
  };
};
export type SessionHost = ReturnType<typeof createSessionHost>;
