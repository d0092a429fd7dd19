import { Stack } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { type IGrantable, PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IKey } from "aws-cdk-lib/aws-kms";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { Queues } from "./queues";

/** What the Lambdas of the functions deployable reach, and the environment that points them at it. */
export interface FunctionPlatform {
  /** the variables of functions/src/platform/config.ts, including WS_MANAGEMENT_ENDPOINT */
  readonly environment: Record<string, string>;
  readonly table: ITable;
  readonly mediaBucket: IBucket;
  readonly queues: Queues;
  readonly grantManageConnections: (grantee: IGrantable) => void;
  /** the only sender address the Lambdas may use with SES */
  readonly mailFrom: string;
  /** seals the secrets companies give us (SECRETS_KMS_KEY_ID); encrypt and decrypt granted to every worker */
  readonly secretsKey?: IKey;
}

/**
 * Grants of a Lambda that runs the whole functions container (api, tick, queue consumers): the table,
 * posting to WebSocket connections, sending commands and delayed jobs, the media bucket, and SES mail
 * from MAIL_FROM only. Consuming a queue is granted by its event source, not here.
 */
export const grantWorkerAccess = (fn: IGrantable, platform: FunctionPlatform) => {
  platform.table.grantReadWriteData(fn);
  platform.grantManageConnections(fn);
  platform.queues.outbound.grantSendMessages(fn);
  platform.queues.jobs.grantSendMessages(fn);
  platform.mediaBucket.grantReadWrite(fn);
  // the Cloud API sender reports outcomes on inbound.fifo like the session host
  platform.queues.inbound.grantSendMessages(fn);
  platform.secretsKey?.grantEncryptDecrypt(fn);
  const stack = Stack.of(platform.table);
  fn.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ["ses:SendEmail", "ses:SendRawEmail"],
      resources: [stack.formatArn({ service: "ses", resource: "identity", resourceName: "*" })],
      conditions: { StringEquals: { "ses:FromAddress": platform.mailFrom } },
    }),
  );
};
