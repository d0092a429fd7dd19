import type { Tracer } from "@aws-lambda-powertools/tracer";
import { type DocClient, SdkDocClient } from "@atende/shared/node/dynamo/lean-doc.client";
import { lambdaRuntime } from "./config";
import { type XraySegment, xrayDbObserver } from "./db/xray-db-observer";

/**
 * Powertools Tracer, loaded only where it traces (in Lambda with tracing on). Importing it loads the X-Ray SDK,
 * which at load time installs an async hook (cls-hooked: init, before, after and destroy on every promise) for its
 * context — ~4% of a ticket list request's CPU in its destroy tracking alone, paid by every promise of the process
 * even where nothing is traced (the local platform, tests, a Lambda with POWERTOOLS_TRACE_ENABLED=false).
 * docs/adr/0046; in the local platform's inbound path it was ~10 % of the Node CPU per event (docs/adr/0045).
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

/**
 * X-Ray for the lean DynamoDB transport (docs/adr/0054), in Lambda with tracing on: each call gets what
 * `captureAWSv3Client` gave an SDK call (`xrayDbObserver`, platform/db/xray-db-observer.ts), under Powertools'
 * current segment. The SDK's DocumentClient (`DYNAMODB_TRANSPORT=sdk`) is captured as before. Elsewhere the client
 * is returned untouched.
 */
export const tracedDb = (doc: DocClient, region: string): DocClient => {
  if (!powertools) return doc;
  if (doc instanceof SdkDocClient) {
    traced(doc.client);
    return doc;
  }
  tracer ??= new powertools.Tracer();
  const t = tracer;
  doc.observe(xrayDbObserver(() => t.getSegment() as XraySegment | undefined, region));
  return doc;
};
