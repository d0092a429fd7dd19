import { SQSClient } from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { QUEUES } from "@atende/shared/contracts/queue-names";
export type SqsHandle = {
    endpoint: string;
    queueUrls: Record<keyof typeof QUEUES, string>;
    stop: () => Promise<void>;
};
/** local-aws-sqs (the SQS wire protocol, in process) with the same queues and dead-letter queues as AWS. */
export declare const startSqs: (port: number) => Promise<SqsHandle>;
export declare const sqsClient: (endpoint: string) => SQSClient;
/**
 * Lambda's SQS event source mapping, on one machine: long-polls a queue, hands batches to the same
 * handler the Lambda runs, deletes what succeeded and leaves batchItemFailures for redelivery.
 */
export declare const pollQueue: (client: SQSClient, queueUrl: string, handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>, onError: (err: unknown) => void) => {
    stop: () => Promise<void>;
};
