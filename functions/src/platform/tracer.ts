import { Tracer } from "@aws-lambda-powertools/tracer";

let tracer: Tracer | undefined;

/**
 * X-Ray through Powertools Tracer, in Lambda only (infra/aws turns active tracing on): AWS SDK clients passed
 * here get a subsegment per call. Elsewhere (local platform, tests) the client is returned untouched.
 */
export const traced = <T>(client: T): T => {
  if (!process.env.AWS_LAMBDA_FUNCTION_NAME || process.env.POWERTOOLS_TRACE_ENABLED === "false") return client;
  tracer ??= new Tracer();
  return tracer.captureAWSv3Client(client as never) as T;
};
