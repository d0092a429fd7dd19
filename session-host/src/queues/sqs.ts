import { SQSClient } from "@aws-sdk/client-sqs";

export const createSqsClient = (region: string, endpoint?: string) =>
  new SQSClient({ region, ...(endpoint ? { endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}) });
