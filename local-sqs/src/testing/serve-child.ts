import { startLocalSqs, type QueueDefinition } from "../sqs.server";

/**
 * The stand-in as its own process, for crash tests: `tsx serve-child.ts <dataDir> <queues as JSON>`;
 * prints `listening <endpoint>` once it answers.
 */
const [dataDir, queues] = process.argv.slice(2);
const sqs = await startLocalSqs({ dataDir, queues: JSON.parse(queues ?? "[]") as QueueDefinition[] });
console.log(`listening ${sqs.endpoint}`);
