/**
 * The one DynamoDB table. Shared by the CDK stack, the local runner and the tests,
 * so every environment has exactly the same keys and indexes (docs/adr/0002-single-table.md).
 */
export const TABLE_KEYS = { partitionKey: "pk", sortKey: "sk" } as const;

export const TABLE_INDEXES = [
  { indexName: "gsi1", partitionKey: "gsi1pk", sortKey: "gsi1sk" },
  { indexName: "gsi2", partitionKey: "gsi2pk", sortKey: "gsi2sk" },
  { indexName: "gsi3", partitionKey: "gsi3pk", sortKey: "gsi3sk" },
] as const;

export type IndexName = (typeof TABLE_INDEXES)[number]["indexName"];

/** Attribute DynamoDB's TTL deletes items by (epoch seconds). */
export const TTL_ATTRIBUTE = "ttl";

/** The CreateTable input, in the SDK's shape, for DynamoDB Local and tests. */
export const createTableInput = (tableName: string) => ({
  TableName: tableName,
  BillingMode: "PAY_PER_REQUEST" as const,
  AttributeDefinitions: [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...TABLE_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey])].map(
    (name) => ({ AttributeName: name, AttributeType: "S" as const }),
  ),
  KeySchema: [
    { AttributeName: TABLE_KEYS.partitionKey, KeyType: "HASH" as const },
    { AttributeName: TABLE_KEYS.sortKey, KeyType: "RANGE" as const },
  ],
  GlobalSecondaryIndexes: TABLE_INDEXES.map((i) => ({
    IndexName: i.indexName,
    KeySchema: [
      { AttributeName: i.partitionKey, KeyType: "HASH" as const },
      { AttributeName: i.sortKey, KeyType: "RANGE" as const },
    ],
    Projection: { ProjectionType: "ALL" as const },
  })),
});
