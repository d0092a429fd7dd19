import type { TestProject } from "vitest/node";
import "../../../../functions/src/testing/provided-context";
import { startDynamo } from "../dynamo";
import { freePort } from "../ports";

/** One in-memory DynamoDB Local for the whole int run; each test file makes its own table. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamo({ port: await freePort() });
  project.provide("dynamoEndpoint", dynamo.endpoint);
  return async () => {
    await dynamo.stop();
  };
}
