import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from "@aws-sdk/client-sqs";

/**
 * SQS FIFO hands out no message of a group while an earlier one of that group is in flight; that is what
 * keeps commands in order when several hosts receive from one queue. The local emulator (local-aws-sqs)
 * does not lock groups, so tests with several receivers wrap their clients in this shim, which restores the
 * AWS behaviour: messages of a group locked by another receiver go straight back to the queue.
 *
 * Every client wrapped with the same `GroupLocks` shares the locks, and their calls take turns: a receive
 * (with the registration of its locks and the return of what it may not keep), a delete and a visibility
 * change are each one step. The emulator makes that necessary:
 * - it answers a receive by scanning the queue every 10 ms and appending what became visible since, so a
 *   message handed back during a receive lands after later messages of its group already taken;
 * - two answers read in the other order than the emulator wrote them would let a later message be taken
 *   while the earlier one is still held (or just handed back).
 * So receives are short polls (one at a time; waiting happens between turns), and a lock outlives the
 * emulator's visibility timeout by a margin: when it expires, the held messages are visible again and come
 * first.
 */
export type GroupLocks = {
  groups: Map<string, { handles: Set<string>; expiresAt: number }>;
  /** the step in progress; the next one waits for it */
  turn: Promise<unknown>;
};

const EXPIRY_MARGIN_MS = 1_000;
const POLL_GAP_MS = 25;

export const createGroupLocks = (): GroupLocks => ({ groups: new Map(), turn: Promise.resolve() });

export const withFifoGroupLocks = (client: SQSClient, locks: GroupLocks): SQSClient => {
  const inTurn = <T>(step: () => Promise<T>): Promise<T> => {
    const mine = locks.turn.then(step);
    locks.turn = mine.catch(() => undefined);
    return mine;
  };
  const release = (handle: string | undefined) => {
    for (const [group, lock] of locks.groups) {
      if (handle && lock.handles.delete(handle) && lock.handles.size === 0) locks.groups.delete(group);
    }
  };
  const extend = (handle: string | undefined, seconds: number) => {
    for (const lock of locks.groups.values()) if (handle && lock.handles.has(handle)) lock.expiresAt = Date.now() + seconds * 1000 + EXPIRY_MARGIN_MS;
  };

  /** One short poll: keeps the messages of groups nobody holds, returns the rest to the queue at once. */
  const receiveOnce = async (input: ReceiveMessageCommand["input"]) => {
    const out = await client.send(
      new ReceiveMessageCommand({
        ...input,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: [...new Set([...(input.MessageSystemAttributeNames ?? []), "MessageGroupId" as const])],
      }),
    );
    const now = Date.now();
    const kept: Message[] = [];
    const returned: Message[] = [];
    const taken = new Set<string>();
    for (const m of out.Messages ?? []) {
      const group = m.Attributes?.MessageGroupId ?? "";
      const lock = locks.groups.get(group);
      if (lock && lock.expiresAt > now && !taken.has(group)) {
        returned.push(m);
        continue;
      }
      if (!taken.has(group)) locks.groups.set(group, { handles: new Set(), expiresAt: now + (input.VisibilityTimeout ?? 30) * 1000 + EXPIRY_MARGIN_MS });
      locks.groups.get(group)?.handles.add(m.ReceiptHandle ?? "");
      taken.add(group);
      kept.push(m);
    }
    if (returned.length)
      await client.send(
        new ChangeMessageVisibilityBatchCommand({ QueueUrl: input.QueueUrl, Entries: returned.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 })) }),
      );
    return { ...out, Messages: kept };
  };

  const receive = async (input: ReceiveMessageCommand["input"]) => {
    const until = Date.now() + (input.WaitTimeSeconds ?? 0) * 1000;
    for (;;) {
      const out = await inTurn(() => receiveOnce(input));
      if (out.Messages.length || Date.now() >= until) return out;
      await new Promise((r) => setTimeout(r, POLL_GAP_MS));
    }
  };

  const send = async (command: unknown) => {
    if (command instanceof ReceiveMessageCommand) return receive(command.input);
    if (command instanceof DeleteMessageCommand)
      return inTurn(async () => {
        const res = await client.send(command);
        release(command.input.ReceiptHandle);
        return res;
      });
    if (command instanceof ChangeMessageVisibilityCommand)
      return inTurn(async () => {
        const res = await client.send(command);
        const seconds = command.input.VisibilityTimeout ?? 0;
        if (seconds > 0) extend(command.input.ReceiptHandle, seconds);
        else release(command.input.ReceiptHandle);
        return res;
      });
    if (command instanceof DeleteMessageBatchCommand)
      return inTurn(async () => {
        const res = await client.send(command);
        for (const e of command.input.Entries ?? []) release(e.ReceiptHandle);
        return res;
      });
    if (command instanceof ChangeMessageVisibilityBatchCommand)
      return inTurn(async () => {
        const res = await client.send(command);
        for (const e of command.input.Entries ?? []) {
          if ((e.VisibilityTimeout ?? 0) > 0) extend(e.ReceiptHandle, e.VisibilityTimeout ?? 0);
          else release(e.ReceiptHandle);
        }
        return res;
      });
    return client.send(command as never);
  };
  return new Proxy(client, { get: (target, prop) => (prop === "send" ? send : Reflect.get(target, prop)) });
};
