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
 * The locks are shared by every client wrapped with the same `locks` map.
 */
export type GroupLocks = Map<string, { handles: Set<string>; expiresAt: number }>;

export const withFifoGroupLocks = (client: SQSClient, locks: GroupLocks): SQSClient => {
  const release = (handle: string | undefined) => {
    for (const [group, lock] of locks) {
      if (handle && lock.handles.delete(handle) && lock.handles.size === 0) locks.delete(group);
    }
  };
  const send = async (command: unknown) => {
    if (command instanceof ReceiveMessageCommand) {
      const input = command.input;
      const out = await client.send(new ReceiveMessageCommand({ ...input, MessageSystemAttributeNames: [...new Set([...(input.MessageSystemAttributeNames ?? []), "MessageGroupId" as const])] }));
      const now = Date.now();
      const kept: Message[] = [];
      const returned: Message[] = [];
      for (const m of out.Messages ?? []) {
        const group = m.Attributes?.MessageGroupId ?? "";
        const lock = locks.get(group);
        const mine = lock?.handles.has(m.ReceiptHandle ?? "");
        if (lock && lock.expiresAt > now && lock.handles.size > 0 && !mine && !kept.some((k) => k.Attributes?.MessageGroupId === group)) {
          returned.push(m);
          continue;
        }
        if (!lock || lock.expiresAt <= now) locks.set(group, { handles: new Set(), expiresAt: now + (input.VisibilityTimeout ?? 30) * 1000 });
        locks.get(group)?.handles.add(m.ReceiptHandle ?? "");
        kept.push(m);
      }
      if (returned.length)
        await client.send(
          new ChangeMessageVisibilityBatchCommand({ QueueUrl: input.QueueUrl, Entries: returned.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 })) }),
        );
      return { ...out, Messages: kept };
    }
    if (command instanceof DeleteMessageCommand) {
      const res = await client.send(command);
      release(command.input.ReceiptHandle);
      return res;
    }
    if (command instanceof DeleteMessageBatchCommand || command instanceof ChangeMessageVisibilityBatchCommand) {
      const res = await client.send(command as never);
      for (const e of command.input.Entries ?? []) release(e.ReceiptHandle);
      return res;
    }
    if (command instanceof ChangeMessageVisibilityCommand) {
      const res = await client.send(command);
      release(command.input.ReceiptHandle);
      return res;
    }
    return client.send(command as never);
  };
  return new Proxy(client, { get: (target, prop) => (prop === "send" ? send : Reflect.get(target, prop)) });
};
