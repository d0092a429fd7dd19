import type { TestProject } from "vitest/node";
import { freePort } from "../../../infra/local/src/ports";
import { startDynamo } from "../../../infra/local/src/dynamo";

declare module "vitest" {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/** One in-memory DynamoDB Local for the whole int run; each test file makes its own table. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamo({ port: await freePort() });
  project.provide("dynamoEndpoint", dynamo.endpoint);
  return async () => {
    await dynamo.stop();
  };
}
