import type { Tracer } from "@aws-lambda-powertools/tracer";
import { type DocClient, SdkDocClient } from "@atende/shared/node/dynamo/lean-doc.client";
import { isThrottlingError } from "@smithy/core/retry";
import { lambdaRuntime } from "./config";

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

type Subsegment = {
  id: string;
  notTraced?: boolean;
  addAttribute(name: string, value: unknown): void;
  addThrottleFlag(): void;
  addErrorFlag(): void;
  addFaultFlag(): void;
  close(err?: unknown, remote?: boolean): void;
};
type SegmentLike = Subsegment & {
  trace_id?: string;
  segment?: { trace_id?: string; additionalTraceData?: Record<string, string> };
  additionalTraceData?: Record<string, string>;
  noOp?: boolean;
  addNewSubsegment(name: string): Subsegment;
  addNewSubsegmentWithoutSampling(name: string): Subsegment;
};

/**
 * X-Ray for the lean DynamoDB transport (docs/adr/0054), in Lambda with tracing on: what `captureAWSv3Client` gave
 * each SDK call — a "DynamoDB" subsegment in the `aws` namespace with the operation, region, request id, retries and
 * table, the HTTP status, throttle/error/fault flags, and the trace header passed to DynamoDB — through the
 * transport's observer hook. Elsewhere the client is returned untouched.
 */
export const tracedDb = (doc: DocClient, region: string): DocClient => {
  if (!powertools) return doc;
  if (doc instanceof SdkDocClient) {
    traced(doc.client);
    return doc;
  }
  tracer ??= new powertools.Tracer();
  const t = tracer;
  doc.observe((call) => {
    const segment = t.getSegment() as SegmentLike | undefined;
    if (!segment) return;
    const sub = segment.notTraced ? segment.addNewSubsegmentWithoutSampling("DynamoDB") : segment.addNewSubsegment("DynamoDB");
    sub.addAttribute("namespace", "aws");
    const root = segment.segment ?? segment;
    let traceHeader = `Root=${root.trace_id};Parent=${sub.id};Sampled=${sub.notTraced ? "0" : "1"}`;
    for (const [k, v] of Object.entries(root.additionalTraceData ?? {})) traceHeader += `;${k}=${v}`;
    const input = call.input as { TableName?: string; RequestItems?: Record<string, unknown>; TransactItems?: unknown[] };
    const tables = input.TableName ? undefined : input.RequestItems ? Object.keys(input.RequestItems) : undefined;
    return {
      headers: segment.noOp ? undefined : { "X-Amzn-Trace-Id": traceHeader },
      done: (o) => {
        sub.addAttribute("aws", {
          operation: call.operation,
          region,
          request_id: o.requestId,
          retries: o.attempts,
          ...(input.TableName ? { table_name: input.TableName } : {}),
          ...(tables ? { table_names: tables } : {}),
        });
        if (o.httpStatusCode) sub.addAttribute("http", { response: { status: o.httpStatusCode } });
        const status = o.httpStatusCode ?? 0;
        if ((o.error && isThrottlingError(o.error as never)) || status === 429) sub.addThrottleFlag();
        if (status >= 500) sub.addFaultFlag();
        else if (status >= 400) sub.addErrorFlag();
        if (o.error) {
          const e = o.error as Error;
          sub.close({ message: e.message, name: e.name, stack: e.stack }, true);
        } else sub.close();
      },
    };
  });
  return doc;
};
