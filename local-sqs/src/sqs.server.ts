import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { memoryJournal, openFileJournal, type Journal } from "./queue-log.journal";
import { createQueuesStore, SqsError, type LogRecord, type QueueConfig, type Received } from "./queues.store";

/**
 * A local stand-in for Amazon SQS, spoken to with the AWS SDK v3 (`@aws-sdk/client-sqs`, AWS JSON 1.0
 * protocol: `POST /` with `X-Amz-Target: AmazonSQS.<Action>`). See docs/adr/0010-local-sqs-stand-in.md for
 * what it guarantees and what it does not emulate.
 *
 * - A send is answered once it is on disk (when `dataDir` is set); the message is receivable at once.
 * - A long poll answers as soon as a message is visible (or when its wait is over), like SQS.
 */
export type LocalSqsOptions = {
  port?: number;
  host?: string;
  /** where the queue log lives; omit to keep everything in memory (tests) */
  dataDir?: string;
  accountId?: string;
  region?: string;
  queues: QueueDefinition[];
  /** compaction threshold of the log, bytes */
  compactBytes?: number;
};

/** A queue as CreateQueue's attributes describe it (names as in SQS). */
export type QueueDefinition = { QueueName: string; Attributes?: Record<string, string> };

export type LocalSqs = {
  endpoint: string;
  port: number;
  queueUrl: (name: string) => string;
  journal: Journal;
  stop: () => Promise<void>;
};

const toConfig = (def: QueueDefinition): QueueConfig => {
  const a = def.Attributes ?? {};
  const redrive = a.RedrivePolicy ? (JSON.parse(a.RedrivePolicy) as { deadLetterTargetArn: string; maxReceiveCount: string | number }) : undefined;
  return {
    name: def.QueueName,
    fifo: a.FifoQueue === "true",
    visibilityTimeoutSeconds: Number(a.VisibilityTimeout ?? 30),
    delaySeconds: Number(a.DelaySeconds ?? 0),
    contentBasedDeduplication: a.ContentBasedDeduplication === "true",
    ...(redrive ? { redrive: { deadLetterQueue: redrive.deadLetterTargetArn.split(":").pop() ?? "", maxReceiveCount: Number(redrive.maxReceiveCount) } } : {}),
  };
};

type Json = Record<string, unknown>;

const MAX_BATCH = 10;

export const startLocalSqs = async (opts: LocalSqsOptions): Promise<LocalSqs> => {
  const account = opts.accountId ?? "000000000000";
  const region = opts.region ?? "us-east-1";
  const store = createQueuesStore(opts.queues.map(toConfig));
  const definitions = new Map(opts.queues.map((d) => [d.QueueName, d]));
  const journal = opts.dataDir ? await openFileJournal(join(opts.dataDir), store, { compactBytes: opts.compactBytes }) : memoryJournal();
  let endpoint = "";
  const queueUrl = (name: string) => `${endpoint}/${account}/${name}`;
  const arn = (name: string) => `arn:aws:sqs:${region}:${account}:${name}`;

  /** Long polls waiting on a queue; woken whenever something may have become receivable. */
  const waiters = new Map<string, Set<() => void>>();
  const wake = (queue: string) => {
    const set = waiters.get(queue);
    if (!set) return;
    waiters.delete(queue);
    set.forEach((w) => w());
  };
  const waitForChange = (queue: string, until: number, closed: { value: boolean; onClose?: () => void }) =>
    new Promise<void>((resolve) => {
      const set = waiters.get(queue) ?? new Set();
      waiters.set(queue, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        closed.onClose = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, Math.min(until - Date.now(), 2_147_000_000)));
      set.add(done);
      closed.onClose = done;
    });

  const queueName = (input: Json) => {
    const url = input.QueueUrl;
    if (typeof url !== "string" || !url) throw new SqsError("MissingParameter", "The request must contain the parameter QueueUrl.");
    const name = url.split("/").pop() ?? "";
    if (!store.has(name)) throw new SqsError("QueueDoesNotExist", "The specified queue does not exist.", "AWS.SimpleQueueService.NonExistentQueue");
    return name;
  };

  const entries = (input: Json) => {
    const list = input.Entries;
    if (!Array.isArray(list) || list.length === 0) throw new SqsError("EmptyBatchRequest", "There should be at least one SendMessageBatchRequestEntry in the request.", "AWS.SimpleQueueService.EmptyBatchRequest");
    if (list.length > MAX_BATCH) throw new SqsError("TooManyEntriesInBatchRequest", "Maximum number of entries per request are 10.", "AWS.SimpleQueueService.TooManyEntriesInBatchRequest");
    const ids = new Set(list.map((e: Json) => e.Id));
    if (ids.size !== list.length) throw new SqsError("BatchEntryIdsNotDistinct", "Two or more batch entries in the request have the same Id.", "AWS.SimpleQueueService.BatchEntryIdsNotDistinct");
    return list as Json[];
  };

  const failure = (id: unknown, err: unknown) => {
    if (err instanceof SqsError) return { Id: id, SenderFault: err.senderFault, Code: err.code, Message: err.message };
    throw err;
  };

  const sendOne = (name: string, e: Json) => {
    const res = store.send(name, {
      body: typeof e.MessageBody === "string" ? e.MessageBody : "",
      delaySeconds: e.DelaySeconds === undefined ? undefined : Number(e.DelaySeconds),
      groupId: e.MessageGroupId as string | undefined,
      dedupId: e.MessageDeduplicationId as string | undefined,
    });
    return { res, out: { MessageId: res.id, MD5OfMessageBody: res.md5, ...(res.seq !== undefined ? { SequenceNumber: String(res.seq).padStart(20, "0") } : {}) } };
  };

  const attributesOf = (m: Received, names: Set<string>) => {
    const all = names.has("All");
    const attrs: Record<string, string> = {
      SenderId: account,
      SentTimestamp: String(m.sentAt),
      ApproximateReceiveCount: String(m.receiveCount),
      ApproximateFirstReceiveTimestamp: String(m.firstReceiveAt ?? m.sentAt),
      ...(m.groupId ? { MessageGroupId: m.groupId, SequenceNumber: String(m.seq).padStart(20, "0") } : {}),
      ...(m.dedupId ? { MessageDeduplicationId: m.dedupId } : {}),
    };
    return Object.fromEntries(Object.entries(attrs).filter(([k]) => all || names.has(k)));
  };

  const queueAttributes = (name: string, wanted: string[]) => {
    const c = store.config(name);
    const n = store.counts(name);
    const def = definitions.get(name)?.Attributes ?? {};
    const attrs: Record<string, string> = {
      QueueArn: arn(name),
      ApproximateNumberOfMessages: String(n.visible),
      ApproximateNumberOfMessagesNotVisible: String(n.inFlight),
      ApproximateNumberOfMessagesDelayed: String(n.delayed),
      CreatedTimestamp: String(Math.floor(store.createdAt(name) / 1000)),
      LastModifiedTimestamp: String(Math.floor(store.createdAt(name) / 1000)),
      VisibilityTimeout: String(c.visibilityTimeoutSeconds),
      MaximumMessageSize: "262144",
      MessageRetentionPeriod: def.MessageRetentionPeriod ?? "345600",
      DelaySeconds: String(c.delaySeconds),
      ReceiveMessageWaitTimeSeconds: def.ReceiveMessageWaitTimeSeconds ?? "0",
      ...(def.RedrivePolicy ? { RedrivePolicy: def.RedrivePolicy } : {}),
      ...(c.fifo ? { FifoQueue: "true", ContentBasedDeduplication: String(c.contentBasedDeduplication) } : {}),
    };
    const all = wanted.length === 0 || wanted.includes("All");
    return Object.fromEntries(Object.entries(attrs).filter(([k]) => all || wanted.includes(k)));
  };

  const moveTasks: Json[] = [];

  const actions: Record<string, (input: Json, closed: { value: boolean; onClose?: () => void }) => Promise<Json>> = {
    async GetQueueUrl(input) {
      const name = String(input.QueueName ?? "");
      if (!store.has(name)) throw new SqsError("QueueDoesNotExist", "The specified queue does not exist.", "AWS.SimpleQueueService.NonExistentQueue");
      return { QueueUrl: queueUrl(name) };
    },
    async ListQueues(input) {
      const prefix = String(input.QueueNamePrefix ?? "");
      return { QueueUrls: [...store.queues.keys()].filter((n) => n.startsWith(prefix)).map(queueUrl) };
    },
    async CreateQueue(input) {
      const def = { QueueName: String(input.QueueName ?? ""), Attributes: (input.Attributes ?? {}) as Record<string, string> };
      if (!/^[\w-]{1,80}(\.fifo)?$/.test(def.QueueName)) throw new SqsError("InvalidParameterValue", "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length");
      if (def.QueueName.endsWith(".fifo")) def.Attributes.FifoQueue = "true";
      if (!store.has(def.QueueName)) {
        store.add(toConfig(def));
        definitions.set(def.QueueName, def);
      }
      return { QueueUrl: queueUrl(def.QueueName) };
    },
    async GetQueueAttributes(input) {
      const name = queueName(input);
      return { Attributes: queueAttributes(name, (input.AttributeNames as string[] | undefined) ?? []) };
    },
    async SendMessage(input) {
      const name = queueName(input);
      const { res, out } = sendOne(name, input);
      if (!res.duplicate) wake(name);
      await journal.append(res.records, true);
      return out;
    },
    async SendMessageBatch(input) {
      const name = queueName(input);
      const records: LogRecord[] = [];
      const Successful: Json[] = [];
      const Failed: Json[] = [];
      for (const e of entries(input)) {
        try {
          const { res, out } = sendOne(name, e);
          records.push(...res.records);
          Successful.push({ Id: e.Id, ...out });
        } catch (err) {
          Failed.push(failure(e.Id, err));
        }
      }
      if (records.length) wake(name);
      await journal.append(records, true);
      return { Successful, Failed };
    },
    async ReceiveMessage(input, closed) {
      const name = queueName(input);
      const max = Number(input.MaxNumberOfMessages ?? 1);
      if (!(max >= 1 && max <= 10)) throw new SqsError("InvalidParameterValue", "Value for parameter MaxNumberOfMessages is invalid. Reason: must be between 1 and 10, if provided.");
      const wait = Number(input.WaitTimeSeconds ?? definitions.get(name)?.Attributes?.ReceiveMessageWaitTimeSeconds ?? 0);
      if (!(wait >= 0 && wait <= 20)) throw new SqsError("InvalidParameterValue", "Value for parameter WaitTimeSeconds is invalid. Reason: must be between 0 and 20, if provided.");
      const visibility = input.VisibilityTimeout === undefined ? undefined : Number(input.VisibilityTimeout);
      const names = new Set([...((input.AttributeNames as string[]) ?? []), ...((input.MessageSystemAttributeNames as string[]) ?? [])]);
      const deadline = Date.now() + wait * 1000;
      for (;;) {
        if (closed.value) return { Messages: [] };
        const { messages, records } = store.receive(name, max, visibility);
        if (records.length) {
          // receive counts (and dead-letter moves) are logged; a move is made durable before anyone sees the result
          const moved = records.some((r) => r.o === "s");
          const written = journal.append(records, moved);
          if (moved) {
            await written;
            const dlq = store.config(name).redrive?.deadLetterQueue;
            if (dlq) wake(dlq);
          }
        }
        if (messages.length || Date.now() >= deadline) {
          return {
            Messages: messages.map((m) => ({
              MessageId: m.id,
              ReceiptHandle: m.handle,
              MD5OfBody: m.md5,
              Body: m.body,
              ...(names.size ? { Attributes: attributesOf(m, names) } : {}),
            })),
          };
        }
        await waitForChange(name, Math.min(deadline, store.nextVisibleAt(name)), closed);
      }
    },
    async DeleteMessage(input) {
      const name = queueName(input);
      const records = store.deleteMessage(name, String(input.ReceiptHandle ?? ""));
      if (records.length) wake(name); // a FIFO group may be free now
      await journal.append(records, true);
      return {};
    },
    async DeleteMessageBatch(input) {
      const name = queueName(input);
      const records: LogRecord[] = [];
      const Successful: Json[] = [];
      const Failed: Json[] = [];
      for (const e of entries(input)) {
        try {
          records.push(...store.deleteMessage(name, String(e.ReceiptHandle ?? "")));
          Successful.push({ Id: e.Id });
        } catch (err) {
          Failed.push(failure(e.Id, err));
        }
      }
      if (records.length) wake(name);
      await journal.append(records, true);
      return { Successful, Failed };
    },
    async ChangeMessageVisibility(input) {
      const name = queueName(input);
      store.changeVisibility(name, String(input.ReceiptHandle ?? ""), Number(input.VisibilityTimeout ?? 0));
      wake(name);
      return {};
    },
    async ChangeMessageVisibilityBatch(input) {
      const name = queueName(input);
      const Successful: Json[] = [];
      const Failed: Json[] = [];
      for (const e of entries(input)) {
        try {
          store.changeVisibility(name, String(e.ReceiptHandle ?? ""), Number(e.VisibilityTimeout ?? 0));
          Successful.push({ Id: e.Id });
        } catch (err) {
          Failed.push(failure(e.Id, err));
        }
      }
      wake(name);
      return { Successful, Failed };
    },
    async PurgeQueue(input) {
      const name = queueName(input);
      await journal.append(store.purge(name), true);
      return {};
    },
    /** A dead-letter queue's messages back to their source queue (or DestinationArn), all at once. */
    async StartMessageMoveTask(input) {
      const source = String(input.SourceArn ?? "").split(":").pop() ?? "";
      if (!store.has(source)) throw new SqsError("ResourceNotFoundException", "The resource that you specified for the SourceArn parameter doesn't exist.");
      const destination = input.DestinationArn
        ? (String(input.DestinationArn).split(":").pop() ?? "")
        : [...store.queues.values()].find((q) => q.config.redrive?.deadLetterQueue === source)?.config.name;
      if (!destination || !store.has(destination)) throw new SqsError("ResourceNotFoundException", "No source queue found for this dead-letter queue.");
      const { moved, records } = store.moveAll(source, destination);
      await journal.append(records, true);
      wake(destination);
      const task = {
        TaskHandle: randomUUID(),
        Status: "COMPLETED",
        SourceArn: arn(source),
        DestinationArn: arn(destination),
        ApproximateNumberOfMessagesMoved: moved,
        ApproximateNumberOfMessagesToMove: moved,
        StartedTimestamp: Date.now(),
      };
      moveTasks.unshift(task);
      return { TaskHandle: task.TaskHandle };
    },
    async ListMessageMoveTasks(input) {
      const source = arn(String(input.SourceArn ?? "").split(":").pop() ?? "");
      return { Results: moveTasks.filter((t) => t.SourceArn === source).slice(0, Number(input.MaxResults ?? 1)) };
    },
  };

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on("data", (c: Buffer) => {
        size += c.length;
        if (size > 2 * 1024 * 1024) req.destroy(new Error("request too large"));
        else chunks.push(c);
      });
      req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      req.on("error", reject);
    });

  const reply = (res: ServerResponse, status: number, body: Json, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/x-amz-json-1.0", "content-length": Buffer.byteLength(text), "x-amzn-requestid": randomUUID(), ...headers });
    res.end(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const closed: { value: boolean; onClose?: () => void } = { value: false };
    res.on("close", () => {
      closed.value = true;
      closed.onClose?.();
    });
    try {
      const target = String(req.headers["x-amz-target"] ?? "");
      const action = target.startsWith("AmazonSQS.") ? target.slice("AmazonSQS.".length) : "";
      const body = await readBody(req);
      const fn = actions[action];
      if (req.method !== "POST" || !fn) throw new SqsError("UnsupportedOperation", `Unsupported action: ${action || "(none)"}`, "AWS.SimpleQueueService.UnsupportedOperation");
      let input: Json;
      try {
        input = body ? (JSON.parse(body) as Json) : {};
      } catch {
        throw new SqsError("InvalidParameterValue", "The request body is not valid JSON.");
      }
      reply(res, 200, await fn(input, closed));
    } catch (err) {
      if (err instanceof SqsError)
        reply(res, 400, { __type: `com.amazonaws.sqs#${err.code}`, message: err.message }, { "x-amzn-query-error": `${err.queryCode};${err.senderFault ? "Sender" : "Receiver"}` });
      else reply(res, 500, { __type: "com.amazonaws.sqs#InternalError", message: String(err) }, { "x-amzn-query-error": "InternalError;Receiver" });
    }
  };

  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  endpoint = `http://${opts.host ?? "127.0.0.1"}:${port}`;

  return {
    endpoint,
    port,
    queueUrl,
    journal,
    stop: async () => {
      // wake long polls so they answer (empty) before their sockets close
      for (const name of [...waiters.keys()]) wake(name);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await journal.close();
    },
  };
};
