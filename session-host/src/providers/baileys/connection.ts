import { METRIC } from "@atende/shared/contracts/metric-names";
import type { HostMetrics } from "../../platform/host-metrics";
import type { Logger } from "../../platform/logger";
import { ProviderError, type AuthStore, type ProviderEvents } from "../provider.port";
import { createBaileysAuth } from "./baileys-auth";
import { wireInbound, type InboundContext } from "./inbound";
import type { JournalEntry, UpsertJournal } from "./upsert-journal";
import { MAX_QR_ATTEMPTS, reconnectDecision } from "./reconnect-policy";
import { ignoredJid, userOf, type Baileys, type Socket, type TtlCache, type createVersionLookup } from "./support";

export type ConnectionDeps = {
  log: Logger;
  baileysLog: unknown;
  events: ProviderEvents;
  auth: AuthStore;
  loadBaileys: () => Promise<Baileys>;
  version: ReturnType<typeof createVersionLookup>;
  /** kept across reconnects: the retry counts of messages a device could not decrypt */
  msgRetryCounterCache: TtlCache;
  groupMetadata: TtlCache;
  getMessage: (id: string) => Promise<unknown>;
  inbound: InboundContext;
  unlinkTimeoutMs?: number;
  /** how long a command waits for a routine reconnect to open the socket again before ERR_WAPP_NOT_INITIALIZED */
  reconnectWaitMs?: number;
  metrics?: Pick<HostMetrics, "count">;
  /** tests: the jitter of the reconnect backoff */
  random?: () => number;
  /** the connection's upsert journal, built once Baileys is loaded (upsert-journal.ts) */
  journal?: (b: Baileys) => UpsertJournal | undefined;
};

/**
 * WhatsApp's notifications that ask the companion for a passkey while linking (the web client's "Shortcake"
 * flow: Baileys issues #2672, #2684). We never answer them (docs/adr/0076).
 */
export const PASSKEY_NOTIFICATIONS = new Set(["passkey_prologue_request", "crsc_continuation"]);
type Node = { tag?: string; attrs?: Record<string, string>; content?: unknown };
/** the passkey step a raw notification node asks for, if any: by its type or by its first child's tag */
export const passkeyStepOf = (node: Node): string | undefined => {
  const type = node.attrs?.type;
  if (type && PASSKEY_NOTIFICATIONS.has(type)) return type;
  const children = Array.isArray(node.content) ? (node.content as Node[]) : [];
  return children.map((c) => c?.tag ?? "").find((tag) => PASSKEY_NOTIFICATIONS.has(tag));
};

/**
 * The connection lifecycle of one session: sockets opened and closed (ADR 0014 decides what a close means),
 * QR and pairing-code login, unlink on logout. `live()` is the socket commands may use.
 */
export const createConnection = (deps: ConnectionDeps) => {
  const { log, events, auth, loadBaileys, version, msgRetryCounterCache, groupMetadata } = deps;
  const baileysLog = deps.baileysLog as never;
  const report = deps.inbound.report;
  let sock: Socket | undefined;
  let authState: Awaited<ReturnType<typeof createBaileysAuth>> | undefined;
  let stopped = false;
  /**
   * stopped by a 440: another client attached these credentials (the host dials again if its lease is live). At most
   * 3 times in 10 minutes: a 440 that keeps coming is not a late host's dial, and stops as ADR 0014 says.
   */
  let replaced = false;
  let replacedAt: number[] = [];
  let connected = false;
  let attempt = 0;
  let lastCode: number | undefined;
  let sameInARow = 0;
  let qrCount = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  /** pairing-code login: the number asked for (waiting for the socket's QR stage) and the code WhatsApp gave */
  let pairing: { phoneNumber: string; code?: string; waiting: boolean } | undefined;
  /** the current socket reached the QR stage (registration): the moment a pairing code may be requested */
  let awaitingQr = false;
  /** the QR on screen (kept on the event that brings the pairing code: the admin may still scan instead) */
  let lastQr = "";
  /**
   * A routine reconnect is under way (a transient close of a linked session): commands wait for the socket to
   * open again, at most `reconnectWaitMs`, instead of failing at once.
   */
  let reconnecting = false;
  const waiters = new Set<{ done: (ok: boolean) => void }>();
  const wake = (ok: boolean) => {
    for (const w of waiters) w.done(ok);
    waiters.clear();
  };
  const setReconnecting = (on: boolean) => {
    reconnecting = on;
    if (!on) wake(connected);
  };

  const connectionState = (status: "DISCONNECTED" | "OPENING", extra: { retries?: number; reason?: string; loggedOut?: boolean } = {}) =>
    report(events.connection({ status, qrcode: "", ...extra }));

  /** the journal's leftovers are replayed once per session start (they are this holder's from then on) */
  let replayed = false;
  const leftovers = async (b: Baileys): Promise<JournalEntry[]> => {
    try {
      deps.inbound.journal ??= deps.journal?.(b);
    } catch (err) {
      // a folder that cannot be written must not keep the number offline: it connects, unjournaled, and says so
      log.error("upsert journal unavailable: upserts are not journaled", { err: String(err) });
    }
    if (replayed || !deps.inbound.journal) return [];
    try {
      const entries = await deps.inbound.journal.pending();
      replayed = true;
      return entries;
    } catch (err) {
      log.warn("journaled upserts not read yet: tried again at the next socket", { err: String(err) });
      return [];
    }
  };

  const clearSession = async () => {
    authState = undefined;
    await auth.clear();
  };

  const connect = async () => {
    const b = await loadBaileys();
    if (stopped) return;
    authState ??= await createBaileysAuth(b, auth, baileysLog);
    const replay = await leftovers(b);
    if (stopped) return;
    const saving = authState;
    const s = b.makeWASocket({
      auth: saving.state,
      version: await version.current(b, log),
      logger: baileysLog,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      browser: b.Browsers.ubuntu("Atende"),
      msgRetryCounterCache,
      cachedGroupMetadata: async (jid) => groupMetadata.get(jid),
      shouldIgnoreJid: (jid) => ignoredJid(jid),
      getMessage: async (key) => (key.id ? ((await deps.getMessage(key.id)) as never) : undefined),
    });
    if (stopped) {
      s.end(undefined);
      return;
    }
    sock = s;

    // queued behind the connection's other auth writes (see createTableAuthStore), never beside them
    s.ev.on("creds.update", () => void saving.saveCreds().catch((err) => log.error("creds not saved", { err: String(err) })));

    // raw nodes: WhatsApp asking for a passkey during linking (Baileys has no handler for it and would hang)
    s.ws.on("CB:notification", (node: Node) => {
      const step = passkeyStepOf(node);
      if (step && sock === s && !connected) passkeyGate(step);
    });

    s.ev.on("connection.update", (u) => {
      if (sock !== s) return;
      if (u.qr) {
        qrCount++;
        if (qrCount > MAX_QR_ATTEMPTS) {
          void report(events.connection({ status: "TIMEOUT", qrcode: "", retries: qrCount }));
          stopped = true;
          s.end(undefined);
          return;
        }
        awaitingQr = true;
        lastQr = u.qr;
        void report(events.connection({ status: "qrcode", qrcode: u.qr, retries: qrCount, ...(pairing?.code ? { pairingCode: pairing.code } : {}) }));
        if (pairing && !pairing.code && !pairing.waiting) void askPairingCode(s);
      }
      if (u.isNewLogin) {
        pairing = undefined;
        void report(events.connection({ status: "PAIRING", qrcode: "" }));
      }
      if (u.connection === "open") {
        connected = true;
        pairing = undefined;
        attempt = 0;
        sameInARow = 0;
        lastCode = undefined;
        qrCount = 0;
        setReconnecting(false);
        log.info("connected", { number: userOf(s.user?.id) });
        void report(events.connection({ status: "CONNECTED", qrcode: "", number: userOf(s.user?.id) }));
      }
      if (u.connection === "close") onClose(s, u.lastDisconnect?.error);
    });

    wireInbound(s, b, deps.inbound, replay);
  };

  /**
   * Asks WhatsApp for a pairing code on a socket at the QR stage (Baileys: only before registration, once the
   * socket is connecting; it stores the number as `creds.me` and sends companion_hello). The code goes out on
   * a connection event and stays on every later QR event until the phone pairs.
   */
  const askPairingCode = async (s: Socket) => {
    const p = pairing;
    if (!p || sock !== s) return;
    p.waiting = true;
    try {
      const code = await s.requestPairingCode(p.phoneNumber);
      if (pairing !== p || sock !== s) return;
      p.code = code;
      log.info("pairing code issued", { phoneNumber: p.phoneNumber });
      await report(events.connection({ status: "qrcode", qrcode: lastQr, retries: qrCount, pairingCode: code }));
    } catch (err) {
      log.warn("pairing code not issued", { err: String(err) });
      if (pairing === p) pairing = undefined;
    } finally {
      p.waiting = false;
    }
  };

  /**
   * WhatsApp asked for a passkey while linking: stop waiting (the phone would hang on "continue on your other
   * device"), clear the half-made link (it can never log in), count it and show PASSKEY_REQUIRED. Nothing is
   * answered: a malformed answer to the WebAuthn step risks a ban (docs/adr/0076).
   */
  const passkeyGate = (step: string) => {
    log.warn("WhatsApp asked for a passkey while linking: not supported, the connection waits for the owner", { step });
    deps.metrics?.count(METRIC.passkeyRequired);
    stopped = true;
    pairing = undefined;
    halt();
    setReconnecting(false);
    void (async () => {
      await clearSession();
      await events.connection({ status: "PASSKEY_REQUIRED", qrcode: "", reason: "passkeyRequired" });
    })().catch((err) => log.error("passkey handling failed", { err: String(err) }));
  };

  /** A socket closed: the decision of ADR 0014 for its status code. */
  const onClose = (s: Socket, error: unknown) => {
    if (sock !== s) return;
    const wasLinked = connected || reconnecting;
    connected = false;
    sock = undefined;
    awaitingQr = false;
    lastQr = "";
    // a pairing code asked for but never entered: Baileys left the number as creds.me, so the next socket would
    // try to log in as an unregistered device; back to registration (the code is asked for again on its QR)
    if (pairing && authState && !authState.state.creds.registered && authState.state.creds.me?.name === "~") {
      authState.state.creds.me = undefined;
      authState.state.creds.pairingCode = undefined;
      pairing.code = undefined;
      const saving = authState;
      void saving.saveCreds().catch((err) => log.error("creds not saved", { err: String(err) }));
    }
    if (stopped) return setReconnecting(false);
    const code = (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
    sameInARow = code === lastCode ? sameInARow + 1 : 1;
    lastCode = code;
    const decision = reconnectDecision(code, attempt++, deps.random ?? Math.random, sameInARow);
    setReconnecting(wasLinked && (decision.action === "reconnect" || decision.action === "refreshVersion"));
    log.info("connection closed", { code, reason: decision.reason, action: decision.action, attempt, err: String(error ?? "") });
    const later = (ms: number) => {
      retryTimer = setTimeout(() => void connect().catch((err) => log.error("reconnect failed", { err: String(err) })), ms);
    };
    switch (decision.action) {
      case "reconnect":
        if (decision.alert) {
          // never cleared for a 500 (ADR 0014): backed off, and someone is told
          log.error("WhatsApp keeps refusing the session (500): reconnecting with backoff, auth kept", { code, inARow: sameInARow });
          deps.metrics?.count(METRIC.badSessionCloses);
        }
        if (decision.delayMs > 0) void connectionState(attempt > 1 || decision.alert ? "DISCONNECTED" : "OPENING", { retries: attempt, reason: decision.reason });
        later(decision.delayMs);
        return;
      case "refreshVersion":
        version.forget(); // looked up again before the next socket
        void connectionState("OPENING", { retries: attempt, reason: decision.reason });
        later(decision.delayMs);
        return;
      case "stop":
        stopped = true;
        replaced = decision.reason === "connectionReplaced";
        if (replaced) replacedAt = [...replacedAt.filter((t) => Date.now() - t < 600_000), Date.now()];
        log.warn("connection stopped: not reconnecting", { code, reason: decision.reason });
        void connectionState("DISCONNECTED", { retries: attempt, reason: decision.reason });
        return;
      case "logout":
        log.warn("session unusable: clearing it", { code, reason: decision.reason });
        void (async () => {
          await clearSession();
          await events.connection({ status: "DISCONNECTED", qrcode: "", loggedOut: true, reason: decision.reason });
          qrCount = 0;
          attempt = 0;
          if (decision.newQr && !stopped) await connect();
          else stopped = true;
        })().catch((err) => log.error("logout handling failed", { err: String(err) }));
        return;
    }
  };

  /**
   * Unlinks this device from the phone (a phone allows four linked devices: a cleared session must not leave
   * a ghost behind). With the socket down, one is opened just for that. False when it could not be done.
   */
  const unlink = async (): Promise<boolean> => {
    if (sock && connected) {
      try {
        await sock.logout();
        return true;
      } catch (err) {
        log.warn("unlink failed", { err: String(err) });
        return false;
      }
    }
    const b = await loadBaileys();
    authState ??= await createBaileysAuth(b, auth, baileysLog);
    if (!authState.state.creds.me) return true; // never paired: nothing linked
    const state = authState;
    const s = b.makeWASocket({ auth: state.state, version: await version.current(b, log), logger: baileysLog, markOnlineOnConnect: false, browser: b.Browsers.ubuntu("Atende") });
    s.ev.on("creds.update", () => void state.saveCreds().catch(() => undefined));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("socket did not open")), deps.unlinkTimeoutMs ?? 20_000);
        s.ev.on("connection.update", (u) => {
          if (u.connection === "open") {
            clearTimeout(timer);
            resolve();
          }
          if (u.connection === "close") {
            clearTimeout(timer);
            const code = (u.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
            // 401: the phone already removed this device
            if (code === 401) resolve();
            else reject(new Error(`socket closed (${code ?? "?"})`));
          }
        });
      });
      if (s.user) await s.logout();
      return true;
    } catch (err) {
      log.warn("could not unlink the device: it may still be listed on the phone", { err: String(err) });
      return false;
    } finally {
      s.end(undefined);
    }
  };

  function halt() {
    stopped = true;
    connected = false;
    reconnecting = false;
    wake(false);
    if (retryTimer) clearTimeout(retryTimer);
    const s = sock;
    sock = undefined;
    s?.end(undefined);
  }

  /** the open socket; during a routine reconnect, once it is open again (bounded), else ERR_WAPP_NOT_INITIALIZED */
  const ready = async (): Promise<Socket> => {
    if (sock && connected) return sock;
    if (reconnecting && !stopped) {
      const ok = await new Promise<boolean>((resolve) => {
        const w = {
          done: (v: boolean) => {
            clearTimeout(timer);
            resolve(v);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          resolve(false);
        }, deps.reconnectWaitMs ?? 15_000);
        waiters.add(w);
      });
      if (ok && sock && connected) return sock;
    }
    throw new ProviderError("ERR_WAPP_NOT_INITIALIZED");
  };

  return {
    ready,
    isConnected: () => connected,
    /** a linked session's socket closed for a routine reason and is on its way back */
    isReconnecting: () => reconnecting && !stopped,
    wasReplaced: () => replaced && stopped && replacedAt.length <= 3,
    async start() {
      stopped = false;
      replaced = false;
      attempt = 0;
      sameInARow = 0;
      await events.connection({ status: "OPENING", qrcode: "" });
      await connect();
    },
    async stop() {
      halt();
    },
    async logout() {
      if (retryTimer) clearTimeout(retryTimer);
      stopped = true;
      const unlinked = await unlink();
      halt();
      await clearSession();
      await events.connection({ status: "DISCONNECTED", qrcode: "", loggedOut: true, ...(unlinked ? {} : { reason: "unlinkFailed" }) });
    },
    async requestNewQr() {
      if (retryTimer) clearTimeout(retryTimer);
      stopped = true;
      const unlinked = await unlink();
      halt();
      if (!unlinked) log.warn("new QR: the previous device could not be unlinked; remove it from the phone's linked devices");
      pairing = undefined;
      await clearSession();
      qrCount = 0;
      attempt = 0;
      stopped = false;
      await connect();
    },
    async requestPairingCode(phoneNumber: string) {
      if (connected) return;
      pairing = { phoneNumber, waiting: false };
      if (sock && awaitingQr) return askPairingCode(sock);
      if (!sock && stopped) {
        // stopped (timed out or disconnected): a new socket; the code is asked for at its first QR
        stopped = false;
        qrCount = 0;
        attempt = 0;
        await connect();
      }
    },
  };
};
