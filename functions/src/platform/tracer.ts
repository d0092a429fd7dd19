import { Tracer } from "@aws-lambda-powertools/tracer";
import { lambdaRuntime } from "./config";

let tracer: Tracer | undefined;

/**
 * X-Ray through Powertools Tracer, in Lambda only (infra/aws turns active tracing on): AWS SDK clients passed
 * here get a subsegment per call. Elsewhere (local platform, tests) the client is returned untouched.
 */
export const traced = <T>(client: T): T => {
  const runtime = lambdaRuntime();
  if (!runtime.functionName || !runtime.traceEnabled) return client;
  tracer ??= new Tracer();
  return tracer.captureAWSv3Client(client as never) as T;
};
