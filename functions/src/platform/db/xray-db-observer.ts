import type { DbObserver } from "@atende/shared/node/dynamo/lean-doc.client";
import { isThrottlingError } from "@smithy/core/retry";

/** The parts of the X-Ray SDK's Segment/Subsegment used here (Powertools' `getSegment()` returns one of them). */
export type XraySubsegment = {
  id: string;
  notTraced?: boolean;
  addAttribute(name: string, value: unknown): void;
  addThrottleFlag(): void;
  addErrorFlag(): void;
  addFaultFlag(): void;
  close(err?: unknown, remote?: boolean): void;
};
export type XraySegment = XraySubsegment & {
  trace_id?: string;
  segment?: { trace_id?: string; additionalTraceData?: Record<string, string> };
  additionalTraceData?: Record<string, string>;
  noOp?: boolean;
  addNewSubsegment(name: string): XraySubsegment;
  addNewSubsegmentWithoutSampling(name: string): XraySubsegment;
};

/**
 * What the X-Ray SDK's v3 middleware (`captureAWSv3Client`, aws-xray-sdk-core's aws3_p) records per AWS call, for a
 * call of the lean DynamoDB transport (docs/adr/0054): a "DynamoDB" subsegment in the `aws` namespace under the
 * current segment, the trace header on the request, and on its end the operation, region, request id, retries and
 * table(s), the HTTP status, throttle/error/fault flags, closed with the error when one was thrown. No segment: nothing.
 */
export const xrayDbObserver =
  (currentSegment: () => XraySegment | undefined, region: string): DbObserver =>
  (call) => {
    const segment = currentSegment();
    if (!segment) return;
    const sub = segment.notTraced ? segment.addNewSubsegmentWithoutSampling("DynamoDB") : segment.addNewSubsegment("DynamoDB");
    sub.addAttribute("namespace", "aws");
    const root = segment.segment ?? segment;
    let traceHeader = `Root=${root.trace_id};Parent=${sub.id};Sampled=${sub.notTraced ? "0" : "1"}`;
    for (const [k, v] of Object.entries(root.additionalTraceData ?? {})) traceHeader += `;${k}=${v}`;
    const input = call.input as { TableName?: string; RequestItems?: Record<string, unknown>; TransactItems?: Record<string, { TableName?: string }>[] };
    const tables = input.TableName
      ? undefined
      : input.RequestItems
        ? Object.keys(input.RequestItems)
        : input.TransactItems
          ? [...new Set(input.TransactItems.flatMap((t) => Object.values(t).flatMap((a) => (a?.TableName ? [a.TableName] : []))))]
          : undefined;
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
  };
