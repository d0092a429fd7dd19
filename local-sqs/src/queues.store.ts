import { createHash, randomBytes, randomUUID } from "node:crypto";

/**
 * The queues' state, in memory, with SQS semantics: visibility timeouts, per-message and per-queue delay
 * (standard queues), redrive to a dead-letter queue after maxReceiveCount, and for FIFO queues
 * deduplication within 5 minutes and message groups (a group with a message in flight hands out nothing
 * more until that message is deleted or visible again; then it comes first).
 *
 * Every change is described by a journal record (`LogRecord`); `apply` replays them after a restart.
 * The store does no I/O: the server appends the records and waits for them to be durable before answering.
 */
export type QueueConfig = {
  name: string;
  fifo: boolean;
  visibilityTimeoutSeconds: number;
  delaySeconds: number;
  contentBasedDeduplication: boolean;
  redrive?: { deadLetterQueue: string; maxReceiveCount: number };
};

export type StoredMessage = {
  id: string;
  body: string;
  md5: string;
  groupId?: string;
  dedupId?: string;
  sentAt: number;
  seq: number;
  visibleAt: number;
  receiveCount: number;
  firstReceiveAt?: number;
  /** the handle of the latest receive; older handles neither delete nor change anything */
  handle?: string;
};

export type LogRecord =
  | { o: "s"; q: string; id: string; b: string; g?: string; d?: string; t: number; v: number; n: number }
  | { o: "r"; q: string; id: string; c: number; f: number }
  | { o: "d"; q: string; id: string }
  | { o: "p"; q: string }
  | { o: "x"; q: string; d: string; id: string; e: number };

export class SqsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly queryCode = code,
    readonly senderFault = true,
  ) {
    super(message);
  }
}

export const DEDUP_WINDOW_MS = 5 * 60_000;
export const MAX_BODY_BYTES = 262_144;

export const md5Hex = (s: string) => createHash("md5").update(s, "utf8").digest("hex");

type Queue = {
  config: QueueConfig;
  /** in send order (a FIFO queue's order; standard queues are best-effort ordered like SQS) */
  messages: Map<string, StoredMessage>;
  dedup: Map<string, { id: string; expiresAt: number; seq?: number }>;
  createdAt: number;
};

export type SendInput = { body: string; delaySeconds?: number; groupId?: string; dedupId?: string };
export type SendResult = { id: string; md5: string; seq?: number; duplicate: boolean; records: LogRecord[] };
export type Received = StoredMessage & { handle: string };

export const createQueuesStore = (configs: QueueConfig[], clock: () => number = Date.now) => {
  const queues = new Map<string, Queue>();
  let seq = 1;
  const add = (config: QueueConfig) => {
    if (!queues.has(config.name)) queues.set(config.name, { config, messages: new Map(), dedup: new Map(), createdAt: clock() });
  };
  configs.forEach(add);

  const queue = (name: string) => {
    const q = queues.get(name);
    if (!q) throw new SqsError("QueueDoesNotExist", "The specified queue does not exist.", "AWS.SimpleQueueService.NonExistentQueue");
    return q;
  };

  const pruneDedup = (q: Queue, now: number) => {
    for (const [k, v] of q.dedup) if (v.expiresAt <= now) q.dedup.delete(k);
  };

  const send = (name: string, input: SendInput): SendResult => {
    const q = queue(name);
    const now = clock();
    if (Buffer.byteLength(input.body, "utf8") > MAX_BODY_BYTES)
      throw new SqsError("InvalidParameterValue", `One or more parameters are invalid. Reason: Message must be shorter than ${MAX_BODY_BYTES} bytes.`);
    if (input.body.length === 0) throw new SqsError("MissingParameter", "The request must contain the parameter MessageBody.");
    const md5 = md5Hex(input.body);
    if (q.config.fifo) {
      if (!input.groupId) throw new SqsError("MissingParameter", "The request must contain the parameter MessageGroupId.");
      if (input.delaySeconds)
        throw new SqsError("InvalidParameterValue", "Value for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.");
      const dedupId = input.dedupId ?? (q.config.contentBasedDeduplication ? createHash("sha256").update(input.body).digest("hex") : undefined);
      if (!dedupId)
        throw new SqsError(
          "InvalidParameterValue",
          "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
        );
      pruneDedup(q, now);
      const seen = q.dedup.get(dedupId);
      if (seen) return { id: seen.id, md5, seq: seen.seq, duplicate: true, records: [] };
      const m = insert(q, { body: input.body, md5, groupId: input.groupId, dedupId, sentAt: now, visibleAt: now + q.config.delaySeconds * 1000 });
      q.dedup.set(dedupId, { id: m.id, expiresAt: now + DEDUP_WINDOW_MS, seq: m.seq });
      return { id: m.id, md5, seq: m.seq, duplicate: false, records: [sendRecord(name, m)] };
    }
    if (input.groupId) throw new SqsError("InvalidParameterValue", "Value for parameter MessageGroupId is invalid. Reason: The request include parameter that is not valid for this queue type.");
    const delay = input.delaySeconds ?? q.config.delaySeconds;
    if (delay < 0 || delay > 900) throw new SqsError("InvalidParameterValue", "Value for parameter DelaySeconds is invalid. Reason: must be between 0 and 900, if provided.");
    const m = insert(q, { body: input.body, md5, sentAt: now, visibleAt: now + delay * 1000 });
    return { id: m.id, md5, duplicate: false, records: [sendRecord(name, m)] };
  };

  const insert = (q: Queue, m: Omit<StoredMessage, "id" | "seq" | "receiveCount">, id: string = randomUUID(), n = seq++): StoredMessage => {
    const full: StoredMessage = { ...m, id, seq: n, receiveCount: 0 };
    q.messages.set(id, full);
    return full;
  };

  const sendRecord = (q: string, m: StoredMessage): LogRecord => ({
    o: "s",
    q,
    id: m.id,
    b: m.body,
    ...(m.groupId ? { g: m.groupId } : {}),
    ...(m.dedupId ? { d: m.dedupId } : {}),
    t: m.sentAt,
    v: m.visibleAt,
    n: m.seq,
  });

  /** Moves a message to the dead-letter queue (same id and body, as SQS does). */
  const deadLetter = (name: string, q: Queue, m: StoredMessage, records: LogRecord[]) => {
    const dlqName = q.config.redrive!.deadLetterQueue;
    const dlq = queues.get(dlqName);
    q.messages.delete(m.id);
    records.push({ o: "d", q: name, id: m.id });
    if (!dlq) return; // SQS would refuse such a redrive policy; the message is dropped like an expired one
    const moved = insert(dlq, { body: m.body, md5: m.md5, groupId: m.groupId, dedupId: m.dedupId, sentAt: m.sentAt, visibleAt: clock() }, m.id);
    records.push(sendRecord(dlqName, moved));
  };

  const receive = (name: string, max: number, visibilitySeconds?: number): { messages: Received[]; records: LogRecord[] } => {
    const q = queue(name);
    const now = clock();
    const visibility = (visibilitySeconds ?? q.config.visibilityTimeoutSeconds) * 1000;
    const out: Received[] = [];
    const records: LogRecord[] = [];
    const redrive = q.config.redrive;
    const take = (m: StoredMessage) => {
      if (redrive && m.receiveCount >= redrive.maxReceiveCount) {
        deadLetter(name, q, m, records);
        return;
      }
      m.receiveCount++;
      m.firstReceiveAt ??= now;
      m.visibleAt = now + visibility;
      m.handle = `${m.id}.${m.receiveCount}.${randomBytes(8).toString("hex")}`;
      records.push({ o: "r", q: name, id: m.id, c: m.receiveCount, f: m.firstReceiveAt });
      out.push(m as Received);
    };
    if (!q.config.fifo) {
      // (a dead-letter move deletes the current entry: safe while iterating a Map)
      for (const m of q.messages.values()) {
        if (out.length >= max) break;
        if (m.visibleAt <= now) take(m);
      }
    } else {
      // A group with any message in flight (or delayed) hands out nothing. The others, oldest first, each give
      // as many messages as fit before the next group is opened (SQS: "as many messages with the same message
      // group ID as possible", which lets other consumers work on other groups).
      const groups = new Map<string, StoredMessage[]>();
      const blocked = new Set<string>();
      for (const m of q.messages.values()) {
        const g = m.groupId ?? "";
        if (m.visibleAt > now) blocked.add(g);
        else {
          const list = groups.get(g);
          if (list) list.push(m);
          else groups.set(g, [m]);
        }
      }
      for (const [g, messages] of groups) {
        if (blocked.has(g)) continue;
        for (const m of messages) {
          if (out.length >= max) break;
          take(m);
        }
        if (out.length >= max) break;
      }
    }
    return { messages: out.map((m) => ({ ...m })), records };
  };

  const byHandle = (q: Queue, handle: string) => {
    const id = handle.split(".")[0] ?? "";
    const m = q.messages.get(id);
    return m && m.handle === handle ? m : undefined;
  };

  const validHandle = (handle: string) => /^[0-9a-f-]{36}\.\d+\.[0-9a-f]{16}$/.test(handle);

  const deleteMessage = (name: string, handle: string): LogRecord[] => {
    const q = queue(name);
    if (!validHandle(handle)) throw new SqsError("ReceiptHandleIsInvalid", `The input receipt handle "${handle}" is not a valid receipt handle.`);
    const m = byHandle(q, handle);
    // SQS: a stale handle (the message was received again since) succeeds without deleting
    if (!m) return [];
    q.messages.delete(m.id);
    return [{ o: "d", q: name, id: m.id }];
  };

  const changeVisibility = (name: string, handle: string, seconds: number) => {
    const q = queue(name);
    if (!validHandle(handle)) throw new SqsError("ReceiptHandleIsInvalid", `The input receipt handle "${handle}" is not a valid receipt handle.`);
    if (seconds < 0 || seconds > 43_200) throw new SqsError("InvalidParameterValue", "Value for parameter VisibilityTimeout is invalid. Reason: must be between 0 and 43200.");
    const m = byHandle(q, handle);
    if (!m)
      throw new SqsError(
        "InvalidParameterValue",
        `Value ${handle} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.`,
      );
    const now = clock();
    if (m.visibleAt <= now) throw new SqsError("MessageNotInflight", "The message referred to isn't in flight.", "AWS.SimpleQueueService.MessageNotInflight");
    m.visibleAt = now + seconds * 1000;
  };

  const purge = (name: string): LogRecord[] => {
    queue(name).messages.clear();
    return [{ o: "p", q: name }];
  };

  /** Moves every message of `from` to `to` as new messages (a dead-letter queue redrive). */
  const moveAll = (from: string, to: string): { moved: number; records: LogRecord[] } => {
    const src = queue(from);
    const dst = queue(to);
    const records: LogRecord[] = [];
    let moved = 0;
    for (const m of [...src.messages.values()]) {
      if (m.visibleAt > clock()) continue;
      src.messages.delete(m.id);
      records.push({ o: "d", q: from, id: m.id });
      const now = clock();
      const copy = insert(dst, {
        body: m.body,
        md5: m.md5,
        groupId: dst.config.fifo ? (m.groupId ?? "redrive") : undefined,
        dedupId: dst.config.fifo ? randomUUID() : undefined,
        sentAt: now,
        visibleAt: now,
      });
      if (copy.dedupId) dst.dedup.set(copy.dedupId, { id: copy.id, expiresAt: now + DEDUP_WINDOW_MS, seq: copy.seq });
      records.push(sendRecord(to, copy));
      moved++;
    }
    return { moved, records };
  };

  const counts = (name: string) => {
    const q = queue(name);
    const now = clock();
    let visible = 0;
    let inFlight = 0;
    let delayed = 0;
    for (const m of q.messages.values()) {
      if (m.visibleAt <= now) visible++;
      else if (m.receiveCount > 0) inFlight++;
      else delayed++;
    }
    return { visible, inFlight, delayed };
  };

  /** When the next message of the queue becomes visible (a long poll's wake-up), if any is waiting. */
  const nextVisibleAt = (name: string) => {
    const now = clock();
    let next = Infinity;
    for (const m of queue(name).messages.values()) if (m.visibleAt > now && m.visibleAt < next) next = m.visibleAt;
    return next;
  };

  /** Replays a journal record (a restart). In-flight messages come back visible. */
  const apply = (r: LogRecord) => {
    const q = queues.get(r.q);
    if (!q) return;
    switch (r.o) {
      case "s": {
        seq = Math.max(seq, r.n + 1);
        if (q.messages.has(r.id)) return;
        insert(q, { body: r.b, md5: md5Hex(r.b), groupId: r.g, dedupId: r.d, sentAt: r.t, visibleAt: r.v }, r.id, r.n);
        if (r.d) q.dedup.set(r.d, { id: r.id, expiresAt: r.t + DEDUP_WINDOW_MS, seq: r.n });
        return;
      }
      case "r": {
        const m = q.messages.get(r.id);
        if (m) {
          m.receiveCount = Math.max(m.receiveCount, r.c);
          m.firstReceiveAt = r.f;
        }
        return;
      }
      case "d":
        q.messages.delete(r.id);
        return;
      case "p":
        q.messages.clear();
        return;
      case "x":
        if (r.e > clock()) q.dedup.set(r.d, { id: r.id, expiresAt: r.e });
        return;
    }
  };

  /** The records that rebuild the current state (compaction). */
  const snapshot = (): LogRecord[] => {
    const now = clock();
    const out: LogRecord[] = [];
    for (const [name, q] of queues) {
      pruneDedup(q, now);
      for (const [d, v] of q.dedup) out.push({ o: "x", q: name, d, id: v.id, e: v.expiresAt });
      for (const m of q.messages.values()) {
        // in flight now, visible again after a restart (its receiver is gone); a delay is kept
        out.push(sendRecord(name, m.receiveCount > 0 ? { ...m, visibleAt: m.sentAt } : m));
        if (m.receiveCount > 0) out.push({ o: "r", q: name, id: m.id, c: m.receiveCount, f: m.firstReceiveAt ?? m.sentAt });
      }
    }
    return out;
  };

  return {
    queues,
    add,
    has: (name: string) => queues.has(name),
    config: (name: string) => queue(name).config,
    createdAt: (name: string) => queue(name).createdAt,
    send,
    receive,
    deleteMessage,
    changeVisibility,
    purge,
    moveAll,
    counts,
    nextVisibleAt,
    apply,
    snapshot,
  };
};

export type QueuesStore = ReturnType<typeof createQueuesStore>;
