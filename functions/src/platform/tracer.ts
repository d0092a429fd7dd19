import type { Tracer } from "@aws-lambda-powertools/tracer";
import { lambdaRuntime } from "./config";

/**
 * Powertools Tracer is loaded only where it is used (a Lambda with tracing on): importing it loads the X-Ray SDK,
 * whose context (cls-hooked) enables an async hook with a destroy callback at import time, so every promise of the
 * process pays for it even when nothing is traced. In the local platform (one process playing every Lambda) that
 * was ~10 % of the Node CPU per inbound event (docs/adr/0045).
 */
const runtime = lambdaRuntime();
const powertools = runtime.functionName && runtime.traceEnabled ? await import("@aws-lambda-powertools/tracer") : null;

let tracer: Tracer | undefined;

/**
 * X-Ray through Powertools Tracer, in Lambda only (infra/aws turns active tracing on): AWS SDK clients passed
 * here get a subsegment per call. Elsewhere (local platform, tests) the client is returned untouched.
 */
export const traced = <T>(client: T): T => {
  if (!powertools) return client;
  tracer ??= new powertools.Tracer();
  return tracer.captureAWSv3Client(client as never) as T;
};
