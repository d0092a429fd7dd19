import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { traced } from "../tracer";
import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";
import type { CommandQueue } from "./commands.port";

export const createSqsCommandQueue = (opts: { queueUrl: string; region: string; endpoint?: string }): CommandQueue => {
  const client = traced(new SQSClient({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
  }));
  return {
    async send(command) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: opts.queueUrl,
          MessageBody: JSON.stringify(command),
          MessageGroupId: String(command.whatsappId),
          MessageDeduplicationId: command.commandId,
        }),
      );
    },
  };
};

/** Tests: keeps every command in order. */
export const createMemoryCommandQueue = () => {
  const sent: OutboundCommand[] = [];
  const queue: CommandQueue & { sent: OutboundCommand[] } = {
    sent,
    async send(command) {
      sent.push(command);
    },
  };
  return queue;
};
