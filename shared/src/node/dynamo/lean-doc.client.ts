import { createHash, createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import * as ddb from "@aws-sdk/client-dynamodb";
import { defaultProvider } from "@aws-sdk/credential-provider-node";
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { marshall, unmarshall } from "@aws-sdk/util-dynamodb";
import { isServerError, isThrottlingError, isTransientError, StandardRetryStrategy } from "@smithy/core/retry";
import { SignatureV4 } from "@smithy/signature-v4";

/**
 * A lighter DynamoDB transport under the `Db` port (docs/adr/0054). Callers keep sending `@aws-sdk/lib-dynamodb`
 * command objects (`db.doc.send(new QueryCommand({...}))`); for the commands below the call is: the command's input
 * marshalled exactly as the DocumentClient does (its own key nodes, util-dynamodb, `removeUndefinedValues`), one
 * JSON POST (`X-Amz-Target: DynamoDB_20120810.<Op>`) over a keep-alive agent signed with the SDK's SigV4 signer and
 * credential chain, the SDK's standard retry strategy around it, and the answer's items unmarshalled as the
 * DocumentClient does. Errors are the SDK's own exception classes with the same fields. Any other command goes
 * through a real DocumentClient, created on first use.
 *
 * Node only: imported by functions and session-host through `@atende/shared/node/...`, never by the web.
 */

/** What an observer sees of one call (the DocumentClient's view: input before marshalling). */
export type DbCall = { operation: string; input: Record<string, unknown> };
/** How a call ended: the output as returned to the caller, or the error thrown. */
export type DbCallOutcome = { output?: Record<string, unknown>; error?: unknown; httpStatusCode?: number; requestId?: string; attempts: number };
/** Called as a call starts; may add request headers (e.g. X-Ray's trace header) and be told how it ended. */
export type DbObserver = (call: DbCall) => void | { headers?: Record<string, string>; done?: (outcome: DbCallOutcome) => void };

export type DocClient = {
  send: DynamoDBDocumentClient["send"];
  /** Adds an observer of every call sent through this client; returns its removal. */
  observe(observer: DbObserver): () => void;
  destroy(): void;
};

export type LeanDocClientOptions = {
  region: string;
  /** The endpoint (DynamoDB Local); `https://dynamodb.<region>.amazonaws.com` when absent. */
  endpoint?: string;
  /** Static credentials; the SDK's Node provider chain (env, ECS/Fargate task role, IMDS ...) when absent. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  maxAttempts?: number;
};

/** The SDK's DynamoDB client default (AWS_MAX_ATTEMPTS is not read: nothing of ours sets it). */
export const DEFAULT_MAX_ATTEMPTS = 4;

const OPERATIONS = new Map<unknown, string>([
  [GetCommand, "GetItem"],
  [PutCommand, "PutItem"],
  [UpdateCommand, "UpdateItem"],
  [DeleteCommand, "DeleteItem"],
  [QueryCommand, "Query"],
  [ScanCommand, "Scan"],
  [BatchGetCommand, "BatchGetItem"],
  [BatchWriteCommand, "BatchWriteItem"],
  [TransactWriteCommand, "TransactWriteItems"],
  [TransactGetCommand, "TransactGetItems"],
]);

// ---- the DocumentClient's translation, driven by each command's own key nodes (lib-dynamodb's processKeysInObj) ----
type KeyNodes = Record<string, unknown> | unknown[] | null;
type Fn = (v: unknown) => unknown;
const NEXT_LEVEL = "*";
const processObj = (obj: unknown, fn: Fn, keyNodes: KeyNodes | undefined): unknown => {
  if (obj === undefined) return undefined;
  if (keyNodes == null) return fn(obj);
  const keys = Object.keys(keyNodes);
  if (keys.length === 1 && keys[0] === NEXT_LEVEL) {
    const acc: Record<string, unknown> | unknown[] = Array.isArray(obj) ? [] : {};
    for (const [k, v] of Object.entries(obj ?? {})) if (typeof v !== "function") (acc as Record<string, unknown>)[k] = processObj(v, fn, (keyNodes as Record<string, KeyNodes>)[NEXT_LEVEL]);
    return acc;
  }
  if (keys.length === 0) return processAllKeys(obj, fn);
  return processKeys(obj as Record<string, unknown>, fn, keyNodes as Record<string, KeyNodes>);
};
const processKeys = (obj: Record<string, unknown>, fn: Fn, keyNodes: Record<string, KeyNodes>) => {
  let acc: Record<string, unknown>;
  if (Array.isArray(obj)) acc = obj.filter((i) => typeof i !== "function") as never;
  else {
    acc = {};
    for (const k in obj) if (Object.hasOwn(obj, k) && typeof obj[k] !== "function") acc[k] = obj[k];
  }
  for (const nodeKey in keyNodes) {
    if (typeof obj[nodeKey] === "function") continue;
    const v = processObj(obj[nodeKey], fn, keyNodes[nodeKey]);
    if (v !== undefined && typeof v !== "function") acc[nodeKey] = v;
  }
  return acc;
};
const processAllKeys = (obj: unknown, fn: Fn): unknown => {
  if (Array.isArray(obj)) return obj.filter((i) => typeof i !== "function").map((i) => processObj(i, fn, null));
  const acc: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    if (typeof v === "function") continue;
    const out = processObj(v, fn, null);
    if (out !== undefined && typeof out !== "function") acc[k] = out;
  }
  return acc;
};
const MARSHALL = { removeUndefinedValues: true, convertTopLevelContainer: true };
const UNMARSHALL = { convertWithoutMapWrapper: true };
const marshallValue: Fn = (v) => marshall(v as never, MARSHALL);
const unmarshallValue: Fn = (v) => unmarshall(v as never, UNMARSHALL);

// ---- JSON with binary attributes (B, BS) as base64, as the SDK's JSON protocol sends and reads them ----
function binaryToBase64(this: Record<string, unknown>, key: string, value: unknown) {
  const raw = this[key];
  return raw instanceof Uint8Array ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("base64") : value;
}
const fromBase64 = (s: string) => {
  const b = Buffer.from(s, "base64");
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};
const binaryReviver = (key: string, value: unknown) => {
  if (key === "B" && typeof value === "string") return fromBase64(value);
  if (key === "BS" && Array.isArray(value) && value.every((v) => typeof v === "string")) return value.map(fromBase64);
  return value;
};
const parseBody = (text: string): Record<string, unknown> => {
  if (!text) return {};
  return JSON.parse(text, text.includes('"B":') || text.includes('"BS":') ? binaryReviver : undefined) as Record<string, unknown>;
};

// ---- errors: the SDK's classes, name from `__type` (after '#'), message, $metadata, the body's fields ----
let exceptionClasses: Map<string, new (opts: never) => Error> | undefined;
const exceptionClass = (name: string) => {
  if (!exceptionClasses) {
    exceptionClasses = new Map();
    for (const value of Object.values(ddb)) {
      if (typeof value === "function" && value.prototype instanceof ddb.DynamoDBServiceException) {
        exceptionClasses.set((value as unknown as { name: string }).name, value as never);
      }
    }
  }
  return exceptionClasses.get(name);
};
/** The SDK's sanitizeErrorCode: "a.b#Name:extra" → "Name". */
const errorCode = (raw: string) => {
  let v = raw;
  if (v.includes(",")) v = v.split(",")[0]!;
  if (v.includes(":")) v = v.split(":")[0]!;
  if (v.includes("#")) v = v.split("#")[1]!;
  return v;
};
type Metadata = { httpStatusCode?: number; requestId?: string; extendedRequestId?: string; cfId?: string; attempts?: number; totalRetryDelay?: number };
type Mutable = Record<string, unknown>;
/** @smithy's decorateServiceException: the body's fields where the error has none, `message` from message/Message. */
const decorate = (err: Error, body: Mutable) => {
  const e = err as unknown as Mutable;
  for (const [k, v] of Object.entries(body)) if (v !== undefined && (e[k] == undefined || e[k] === "")) e[k] = v;
  e.message = e.message || e.Message || "UnknownError";
  delete e.Message;
  return err;
};
/** What the SDK's JSON 1.0 protocol throws for an error answer (@aws-sdk/core's handleError), field for field. */
const serviceError = (status: number, headers: http.IncomingHttpHeaders, body: Mutable, $metadata: Metadata) => {
  const header = headers["x-amzn-errortype"];
  const code = errorCode(String((typeof header === "string" ? header : undefined) ?? body.__type ?? body.code ?? "Unknown"));
  const errorMetadata = { $metadata, $fault: status < 500 ? "client" : "server" };
  const Cls = exceptionClass(code);
  if (!Cls) {
    body.message = body.message ?? body.Message ?? "UnknownError";
    return decorate(Object.assign(new ddb.DynamoDBServiceException({ name: code } as never), errorMetadata), body);
  }
  const err = new Cls({} as never) as Error & Mutable;
  const modeled: Mutable = {};
  // the class's own fields are its modeled members (e.g. Message, CancellationReasons, Item)
  for (const k of Object.keys(err)) if (k !== "name" && k !== "$fault" && k !== "$retryable" && body[k] != null) modeled[k] = body[k];
  const message = body.message ?? body.Message ?? "UnknownError";
  return decorate(Object.assign(err, errorMetadata, { $fault: err.$fault, message }, modeled), body);
};

// ---- SigV4's hash, on node:crypto ----
type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (d: SourceData) => (typeof d === "string" ? d : ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : new Uint8Array(d));
class Sha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret !== undefined ? createHmac("sha256", bytes(secret)) : createHash("sha256");
  }
  update(data: SourceData) {
    this.hash.update(bytes(data));
  }
  digest() {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string };
/** Adds an observer to a client's list; the returned function removes it. */
const addObserver = (observers: DbObserver[], observer: DbObserver) => {
  observers.push(observer);
  return () => {
    const i = observers.indexOf(observer);
    if (i >= 0) observers.splice(i, 1);
  };
};

type Flight = { observers: { done?: (o: DbCallOutcome) => void }[]; headers: Record<string, string> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class LeanDocClient implements DocClient {
  private readonly url: URL;
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;
  private readonly signer: SignatureV4;
  private readonly retry: StandardRetryStrategy;
  private readonly observers: DbObserver[] = [];
  private sdk?: DynamoDBDocumentClient;

  constructor(private readonly opts: LeanDocClientOptions) {
    this.url = new URL(opts.endpoint ?? `https://dynamodb.${opts.region}.amazonaws.com`);
    const secure = this.url.protocol === "https:";
    // the SDK's node-http-handler keeps sockets alive with at most 50 per host; the same here
    this.agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 50 }) : new http.Agent({ keepAlive: true, maxSockets: 50 });
    this.request = secure ? https.request : http.request;
    // the SDK client's own default: the Node chain (env, ECS/Fargate task role, web identity, IMDS ...), memoized and
    // refreshed before expiry
    const credentials = opts.credentials ? async () => opts.credentials! : defaultProvider();
    this.signer = new SignatureV4({ credentials, region: opts.region, service: "dynamodb", sha256: Sha256 });
    // the DynamoDB client's defaults in this SDK (resolveRetryConfig with Retry.v2026): 4 attempts, 25 ms base delay
    this.retry = new StandardRetryStrategy({ maxAttempts: opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS, baseDelay: 25 });
  }

  observe(observer: DbObserver) {
    return addObserver(this.observers, observer);
  }

  destroy() {
    this.agent.destroy();
    this.sdk?.destroy();
  }

  /** The DocumentClient for commands this transport does not speak (none of the code's today). */
  private fallback() {
    this.sdk ??= DynamoDBDocumentClient.from(
      new ddb.DynamoDBClient({ region: this.opts.region, ...(this.opts.endpoint ? { endpoint: this.opts.endpoint } : {}), ...(this.opts.credentials ? { credentials: this.opts.credentials } : {}) }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    return this.sdk;
  }

  send: DocClient["send"] = ((command: { input: Record<string, unknown>; inputKeyNodes: KeyNodes; outputKeyNodes: KeyNodes }, ...rest: unknown[]) => {
    const operation = OPERATIONS.get(command.constructor);
    if (!operation || rest.length) return (this.fallback().send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
    return this.call(operation, command);
  }) as never;

  private async call(operation: string, command: { input: Record<string, unknown>; inputKeyNodes: KeyNodes; outputKeyNodes: KeyNodes }) {
    const flight: Flight = { observers: [], headers: {} };
    for (const observe of this.observers) {
      const o = observe({ operation, input: command.input });
      if (o) {
        if (o.headers) Object.assign(flight.headers, o.headers);
        flight.observers.push(o);
      }
    }
    let outcome: DbCallOutcome = { attempts: 0 };
    try {
      const wire = processKeys(command.input, marshallValue, command.inputKeyNodes as Record<string, KeyNodes>);
      // the SDK fills the idempotency token of a transaction (the same on its retries)
      if (operation === "TransactWriteItems" && wire.ClientRequestToken === undefined) wire.ClientRequestToken = randomUUID();
      const body = JSON.stringify(wire, binaryToBase64);
      const { answer, $metadata } = await this.withRetries(operation, body, flight.headers);
      outcome = { attempts: $metadata.attempts ?? 1, httpStatusCode: $metadata.httpStatusCode, requestId: $metadata.requestId };
      const data = processKeys(parseBody(answer.text), unmarshallValue, command.outputKeyNodes as Record<string, KeyNodes>);
      const output = { $metadata, ...data };
      outcome.output = output;
      return output;
    } catch (error) {
      const m = (error as { $metadata?: Metadata }).$metadata;
      outcome = { error, attempts: m?.attempts ?? outcome.attempts, httpStatusCode: m?.httpStatusCode, requestId: m?.requestId };
      throw error;
    } finally {
      for (const o of flight.observers) o.done?.(outcome);
    }
  }

  /** The SDK's retry middleware (v2 strategy): same error types, same token bucket, same delays. */
  private async withRetries(operation: string, body: string, extraHeaders: Record<string, string>) {
    let token = await this.retry.acquireInitialRetryToken("");
    let attempts = 0;
    let totalRetryDelay = 0;
    for (;;) {
      let failure: Error & { $metadata?: Metadata };
      try {
        const answer = await this.post(operation, body, extraHeaders);
        const $metadata: Metadata = {
          httpStatusCode: answer.status,
          requestId: header(answer.headers, "x-amzn-requestid") ?? header(answer.headers, "x-amzn-request-id") ?? header(answer.headers, "x-amz-request-id"),
          extendedRequestId: header(answer.headers, "x-amz-id-2"),
          cfId: header(answer.headers, "x-amz-cf-id"),
        };
        if (answer.status >= 300) {
          let parsed: Record<string, unknown> = {};
          try {
            parsed = parseBody(answer.text);
          } catch {
            // not JSON (a proxy's page): the status decides
          }
          throw serviceError(answer.status, answer.headers, parsed, $metadata);
        }
        this.retry.recordSuccess(token);
        $metadata.attempts = attempts + 1;
        $metadata.totalRetryDelay = totalRetryDelay;
        return { answer, $metadata };
      } catch (e) {
        failure = e instanceof Error ? e : Object.assign(new Error(), e);
      }
      const f = failure as never;
      const errorType = isThrottlingError(f) ? "THROTTLING" : isTransientError(f) ? "TRANSIENT" : isServerError(f) ? "SERVER_ERROR" : "CLIENT_ERROR";
      try {
        token = await this.retry.refreshRetryTokenForRetry(token, { errorType, error: failure } as never);
      } catch {
        failure.$metadata = { ...(failure.$metadata ?? {}), attempts: attempts + 1, totalRetryDelay };
        throw failure;
      }
      attempts = token.getRetryCount();
      const delay = token.getRetryDelay();
      totalRetryDelay += ((token as { $retryLog?: { acquisitionDelay?: number } }).$retryLog?.acquisitionDelay ?? 0) + delay;
      if (delay > 0) await sleep(delay);
    }
  }

  private async post(operation: string, body: string, extraHeaders: Record<string, string>): Promise<Answer> {
    const u = this.url;
    const signed = await this.signer.sign({
      method: "POST",
      protocol: u.protocol,
      hostname: u.hostname,
      port: u.port ? Number(u.port) : undefined,
      path: u.pathname || "/",
      query: {},
      headers: {
        host: u.host,
        "content-type": "application/x-amz-json-1.0",
        "x-amz-target": `DynamoDB_20120810.${operation}`,
        "content-length": String(Buffer.byteLength(body)),
        ...extraHeaders,
      },
      body,
    } as never);
    return new Promise<Answer>((resolve, reject) => {
      const req = this.request(
        { protocol: u.protocol, hostname: u.hostname, port: u.port || undefined, path: u.pathname || "/", method: "POST", headers: (signed as unknown as { headers: Record<string, string> }).headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8") }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }
}

const header = (h: http.IncomingHttpHeaders, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};


/**
 * The SDK's DocumentClient behind the same port (`DYNAMODB_TRANSPORT=sdk`): the way back if the lean transport
 * misbehaves somewhere, and the A/B of docs/adr/0054. Observers see the same calls (a middleware at the initialize
 * step, as the tests' counters used to be); headers they ask for are not added (X-Ray traces this client itself).
 */
export class SdkDocClient implements DocClient {
  readonly client: ddb.DynamoDBClient;
  private readonly doc: DynamoDBDocumentClient;
  private readonly observers: DbObserver[] = [];
  send: DocClient["send"];

  constructor(opts: LeanDocClientOptions) {
    this.client = new ddb.DynamoDBClient({ region: opts.region, ...(opts.endpoint ? { endpoint: opts.endpoint } : {}), ...(opts.credentials ? { credentials: opts.credentials } : {}) });
    // docs/adr/0046: the logger middleware copied every call's input and output for a no-op logger
    this.client.middlewareStack.remove("loggerMiddleware");
    this.doc = DynamoDBDocumentClient.from(this.client, { marshallOptions: { removeUndefinedValues: true } });
    this.doc.middlewareStack.add(
      (next, context) => async (args) => {
        if (!this.observers.length) return next(args);
        const call = { operation: String(context.commandName).replace(/Command$/, ""), input: args.input as Record<string, unknown> };
        const flights = this.observers.map((o) => o(call)).filter((f) => !!f);
        let outcome: DbCallOutcome = { attempts: 0 };
        try {
          const out = await next(args);
          const output = out.output as Record<string, unknown> & { $metadata: Metadata };
          outcome = { output, attempts: output.$metadata.attempts ?? 1, httpStatusCode: output.$metadata.httpStatusCode, requestId: output.$metadata.requestId };
          return out;
        } catch (error) {
          const m = (error as { $metadata?: Metadata }).$metadata;
          outcome = { error, attempts: m?.attempts ?? 0, httpStatusCode: m?.httpStatusCode, requestId: m?.requestId };
          throw error;
        } finally {
          for (const f of flights) f.done?.(outcome);
        }
      },
      { step: "initialize", name: "observeCalls" },
    );
    this.send = this.doc.send.bind(this.doc) as DocClient["send"];
  }

  observe(observer: DbObserver) {
    return addObserver(this.observers, observer);
  }

  destroy() {
    this.doc.destroy();
  }
}

/** The port's client: the lean transport unless `transport` is "sdk". */
export const createDocClient = (opts: LeanDocClientOptions & { transport?: "lean" | "sdk" }): DocClient =>
  opts.transport === "sdk" ? new SdkDocClient(opts) : new LeanDocClient(opts);
