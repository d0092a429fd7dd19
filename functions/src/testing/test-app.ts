import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import "./provided-context";
import { createTableInput } from "@atende/shared/table/table-definition";
import { parseConfig } from "../platform/config";
import { createContainer, type Container, type Overrides } from "../app/container";
import { createHttpApp } from "../app/http-app";
import { createLogger } from "../platform/logger";
import { createMemoryCommandQueue } from "../platform/queues/sqs-commands.adapter";
import { createMemoryJobQueue } from "../platform/queues/sqs-jobs.adapter";
import { createMemorySender } from "../platform/realtime/memory-sender.adapter";
import type { SocketSender } from "../platform/realtime/sender.port";
import { createCheckedSender } from "./checked-sender";
import { createMemoryMailer } from "../platform/mail/memory-mail.adapter";
import { xlsxSpreadsheets } from "../platform/spreadsheets/xlsx.adapter";
import { createPromptEngine } from "../features/bots/prompt-engine";
import { createOpenAiCopilotProvider } from "../features/copilot/copilot-provider.openai";

export type TestClock = { now: Date; advance(ms: number): void; set(d: Date | string): void };

/**
 * A fresh table in the shared DynamoDB Local, the real container and Hono app over it, an in-memory socket
 * sender (or a given one, e.g. a real gateway's) and a controllable clock. Use one per test file (beforeAll).
 */
export const createTestApp = async (env: Record<string, string> = {}, opts: { sender?: SocketSender; overrides?: Pick<Overrides, "inbound" | "graphFetch" | "telegramFetch" | "secrets" | "metrics" | "outbound"> } = {}) => {
  const endpoint = inject("dynamoEndpoint");
  const tableName = `t_${randomBytes(6).toString("hex")}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  client.destroy();

  const clock: TestClock = {
    now: new Date(),
    advance(ms) {
      this.now = new Date(this.now.getTime() + ms);
    },
    set(d) {
      this.now = new Date(d);
    },
  };
  const sender = createMemorySender();
  const commands = createMemoryCommandQueue();
  const jobs = createMemoryJobQueue();
  const mailer = createMemoryMailer();
  const config = parseConfig({
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    JWT_SECRET: randomBytes(32).toString("hex"),
    JWT_REFRESH_SECRET: randomBytes(32).toString("hex"),
    BCRYPT_ROUNDS: "4",
    COOKIE_SECURE: "false",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    // like the local platform: the stand-ins live on loopback; the SSRF tests pass OUTBOUND_GUARD=on (docs/adr/0062)
    OUTBOUND_GUARD: "off",
    ...env,
  });
  const container: Container = createContainer(config, {
    // every frame checked against its event's payload schema (ADR 0068; realtime-payloads.setup.ts)
    sender: createCheckedSender(opts.sender ?? sender),
    commands,
    jobs,
    mailer,
    clock: () => clock.now,
    logger: createLogger((process.env.TEST_LOG_LEVEL as "silent") ?? "silent"),
    // one container plays every Lambda here: all heavy ports (app/lambda-roles.ts)
    spreadsheets: xlsxSpreadsheets,
    promptEngine: createPromptEngine,
    copilotProvider: createOpenAiCopilotProvider,
    ...opts.overrides,
  });
  const app = createHttpApp(container);

  /**
   * Calls the app like a browser would: JSON in, JSON out, optional bearer token and cookie. The request arrives
   * as through the local Node server, from the socket address `address` (default 127.0.0.1); `env` replaces that
   * adapter env (e.g. a Lambda event's `{ requestContext }`).
   */
  const call = async (
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; cookie?: string; headers?: Record<string, string>; rawBody?: string; address?: string; env?: unknown } = {},
  ) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.cookie = opts.cookie;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    const res = await app.request(`/api${path}`, {
      method,
      headers,
      body: opts.rawBody ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
    }, opts.env ?? { incoming: { socket: { remoteAddress: opts.address ?? "127.0.0.1" } } });
    const text = await res.text();
    let json: any; // test responses are asserted field by field
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status: res.status, body: json, headers: res.headers };
  };

  return { container, app, call, sender, commands, jobs, mailer, clock, tableName };
};
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
