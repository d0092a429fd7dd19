import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { AttributeType, BillingMode, Table } from "aws-cdk-lib/aws-dynamodb";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";
import { stageOf } from "./stage";
import { TABLE_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from "@atende/shared/table/table-definition";

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

/**
 * Tenant data: the single DynamoDB table (built from the shared table definition, so AWS, the local
 * runner and the tests have the same keys and indexes) and the media bucket (message attachments).
 * In prod the table is retained with point-in-time recovery; staging's goes with its stack. The media bucket
 * is retained in every stage (customer files; CloudFormation cannot delete a bucket that is not empty).
 */
export class Data extends Construct {
  readonly table: Table;
  readonly mediaBucket: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stage = stageOf(this);

    this.table = new Table(this, "Table", {
      partitionKey: stringKey(TABLE_KEYS.partitionKey),
      sortKey: stringKey(TABLE_KEYS.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: stage.pointInTimeRecovery },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: stage.name === "prod",
      removalPolicy: stage.removalPolicy,
    });
    for (const index of TABLE_INDEXES) {
      // ProjectionType ALL, as in createTableInput(): repositories read whole items from the indexes.
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
      });
    }

    this.mediaBucket = new Bucket(this, "MediaBucket", {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(7) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
