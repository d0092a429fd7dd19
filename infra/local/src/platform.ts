import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createWsHandler } from "@atende/functions/handlers/ws";
import { consumeInbound } from "@atende/functions/app/inbound-consumer";
import { consumeJobs } from "@atende/functions/app/jobs-consumer";
import { runTick } from "@atende/functions/app/tick";
import { parseConfig } from "@atende/functions/platform/config";
import { createContainer, type Container } from "@atende/functions/app/container";
import { createHttpApp } from "@atende/functions/app/http-app";
import { xlsxSpreadsheets } from "@atende/functions/platform/spreadsheets/xlsx.adapter";
import { createPromptEngine } from "@atende/functions/features/bots/prompt-engine";
import { createOpenAiCopilotProvider } from "@atende/functions/features/copilot/copilot-provider.openai";
import { createFakeBankHttp } from "./stand-ins/bank/fake-bank.http";
import { createCloudApiSimulator, type CloudApiSimulator } from "./stand-ins/cloud-api/cloud-api-simulator";
import { createCloudApiSimulatorHttp } from "./stand-ins/cloud-api/cloud-api-simulator.http";
import { wireCloudApiDemo } from "./stand-ins/cloud-api/cloud-api-demo";
import { createTelegramStandIn, wireTelegramDemo } from "./stand-ins/telegram/telegram-bot-api";
import { createMetaGraphStandIn, type MetaGraphStandIn } from "./stand-ins/meta/meta-graph-api";
import { wireMetaDemo } from "./stand-ins/meta/meta-demo";
import { createAiSimulator, type AiSimulator } from "./stand-ins/ai/ai-simulator.http";
import { registerStandIns } from "./stand-ins/local-stand-ins";
import type { SeedLogin } from "@atende/functions/features/seed/seed.service";
import { createDb } from "@atende/session-host/platform/db";
import { startHostFleet, type HostFleet } from "./host-fleet";
import { createStandInRegistry, type StandInRegistry } from "./stand-ins/registry";
import type { SimulatorNetwork } from "./stand-ins/whatsapp/network";
import { createTablePairingStore } from "./stand-ins/whatsapp/table-pairing.store";
import { startWhatsAppStandIn } from "./stand-ins/whatsapp/whatsapp-stand-in";
import { seedDemoConversations } from "./demo-seed";
import { ensureTable, localTtl, startDynamo, type DynamoHandle } from "./dynamo";
import { createPublicServer } from "./http-server";
import { freePort } from "./ports";
import { pollQueue, sqsClient, startSqs, type SqsHandle } from "./sqs";
import { createWsGateway } from "./ws-gateway";
import { demoWebchatKey, startShopStandIn, wireWebchatDemo } from "./stand-ins/shop/shop";

export const REPO_ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));

export type PlatformOptions = {
  /** where DynamoDB Local, media and mail live; omit for an in-memory platform (tests) */
  dataDir?: string;
  httpPort?: number;
  /** the demo shop's port (the website chat's demo page on another origin); a free one when absent */
  shopPort?: number;
  host?: string;
  managementPort?: number;
  dynamoPort?: number;
  sqsPort?: number;
  tableName?: string;
  seed?: boolean;
  /**
   * On the first start, also play the demo conversations (docs/adr/0012), in the background: `npm start` only. The
   * e2e platform leaves it off, so its tests start from the bare seed (users, queues, an unpaired connection).
   */
  demo?: boolean;
  tick?: boolean;
  /**
   * concurrent consumers of inbound.fifo (Lambda runs one per message group batch); the queue keeps the order per
   * chat whatever the number. Default: INBOUND_POLLERS or 4.
   */
  inboundPollers?: number;
  /** the tick's period (EventBridge: one minute); e2e runs shorten it so scheduled work is picked up sooner */
  tickIntervalMs?: number;
  logLevel?: "debug" | "info" | "warn" | "error" | "silent";
  /** overrides on the functions' environment (tests shorten token lifetimes, lower bcrypt cost ...) */
  env?: Record<string, string>;
  webDist?: string;
  /** session-host processes (SESSION_HOSTS, default 1): each its own OS process, id host-<n> */
  sessionHosts?: number;
  /** overrides on the session hosts' environment (tests and the bench shorten lease timings) */
  hostEnv?: Record<string, string>;
  /** the hosts' output: the runner's own (default) or nowhere */
  hostStdio?: "inherit" | "ignore";
};

export type Platform = {
  url: string;
  httpPort: number;
  container: Container;
  dynamo: DynamoHandle;
  sqs: SqsHandle;
  logins: SeedLogin[] | null;
  seededNow: boolean;
  /** the demo conversations being played (resolves when done; rejects on failure); null when not asked for */
  demo: Promise<void> | null;
  env: Record<string, string>;
  stop: () => Promise<void>;
  /** the session-host processes (SESSION_HOSTS), watched and restarted by the runner */
  hosts: HostFleet;
  /** the simulated WhatsApp network (outside the hosts; they dial it at `simulatorWireUrl`) */
  network: SimulatorNetwork;
  simulatorWireUrl: string;
  /** the stand-ins of outside services under /simulator, and the simulator page's tabs */
  standIns: StandInRegistry;
  simulatorUrl: string;
  /** the demo shop (another origin) carrying the website chat widget */
  shopUrl: string;
  /** Meta's Cloud API stand-in (/simulator/cloudapi; its Graph API under /simulator/cloudapi/graph/v23.0) */
  cloudApi: CloudApiSimulator;
  /** the AI stand-in at /simulator/ai (what it was asked: `aiSimulator.requests`) */
  aiSimulator: AiSimulator;
  /** Meta's Graph API stand-in for Messenger and Instagram (/simulator/meta) */
  metaGraph: MetaGraphStandIn;
};

const listen = (server: Server, port: number, host: string) =>
  new Promise<number>((res, rej) => {
    server.once("error", rej);
    server.listen(port, host, () => res((server.address() as { port: number }).port));
  });

/** Secrets made once per data folder, so tokens survive a restart. */
const localSecrets = (dataDir: string | undefined) => {
  const make = () => ({ JWT_SECRET: randomBytes(32).toString("hex"), JWT_REFRESH_SECRET: randomBytes(32).toString("hex") });
  if (!dataDir) return make();
  const file = join(dataDir, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as ReturnType<typeof make>;
  const secrets = make();
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
};

/** Starts every part of the platform on this machine: the same handlers, table, queues and WebSocket contract as AWS. */
export const startPlatform = async (opts: PlatformOptions = {}): Promise<Platform> => {
  const host = opts.host ?? "127.0.0.1";
  const dataDir = opts.dataDir ? resolve(opts.dataDir) : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const stops: (() => Promise<void> | void)[] = [];
  let stopping = false;
  const stop = async () => {
    stopping = true;
    for (const s of stops.reverse()) await Promise.resolve(s()).catch(() => undefined);
  };

  try {
    const dynamo = await startDynamo({ port: opts.dynamoPort ?? (await freePort()), dataDir: dataDir && join(dataDir, "dynamodb"), restart: true });
    stops.push(dynamo.stop);
    const tableName = opts.tableName ?? "atende";
    // DynamoDB Local's TTL sweeper only where the data persists (docs/adr/0056)
    await ensureTable(dynamo.endpoint, tableName, { ttl: localTtl(dataDir !== undefined) });

    // with a data folder, queued messages survive a crash (.data/sqs/queues.log)
    const sqs = await startSqs(opts.sqsPort ?? (await freePort()), dataDir && join(dataDir, "sqs"));
    stops.push(sqs.stop);

    const managementPort = opts.managementPort ?? (await freePort());
    const env: Record<string, string> = {
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      ...localSecrets(dataDir),
      COOKIE_SECURE: "false",
      WS_MANAGEMENT_ENDPOINT: `http://127.0.0.1:${managementPort}`,
      SQS_ENDPOINT: sqs.endpoint,
      QUEUE_URL_INBOUND: sqs.queueUrls.inbound,
      QUEUE_URL_OUTBOUND: sqs.queueUrls.outbound,
      QUEUE_URL_JOBS: sqs.queueUrls.jobs,
      MEDIA_DIR: dataDir ? join(dataDir, "media") : join(REPO_ROOT, ".data", "tmp-media", randomBytes(4).toString("hex")),
      MAIL_DIR: dataDir ? join(dataDir, "mail") : join(REPO_ROOT, ".data", "tmp-mail", randomBytes(4).toString("hex")),
      LOG_LEVEL: opts.logLevel ?? "info",
      WHATSAPP_CHANNEL: "simulator",
      // Pix through the local fake bank (docs/billing.md); its notifications carry this secret
      PAYMENTS_PROVIDER: "fake",
      PAYMENTS_WEBHOOK_SECRET: randomBytes(24).toString("hex"),
      // company secrets (prompt API keys ...) sealed under a key file kept with the data; in memory: a temp one
      ...(dataDir ? { SECRETS_KEY_FILE: join(dataDir, "secret.key") } : {}),
      // Web Push (docs/adr/0097): the VAPID pair, generated once and kept beside the data
      ...(dataDir ? { VAPID_KEY_FILE: join(dataDir, "vapid.json") } : {}),
      // the SDK's DocumentClient instead of the lean transport, for an A/B (docs/adr/0054)
      ...(process.env.DYNAMODB_TRANSPORT ? { DYNAMODB_TRANSPORT: process.env.DYNAMODB_TRANSPORT } : {}),
      ...opts.env,
    };
    // the port is known before the container exists, so Azure speech can point at the AI simulator on this origin
    const httpPort0 = opts.httpPort || (await freePort());
    const origin = `http://${host === "0.0.0.0" ? "localhost" : host}:${httpPort0}`;
    env.AZURE_SPEECH_BASE_URL ??= `${origin}/simulator/ai/azure/{region}`;
    // DialogFlow integrations talk to the local stand-in (/simulator/dialogflow), never to Google; Typebot and
    // webhook integrations may point at the local stand-ins on this machine (docs/integrations.md)
    env.DIALOGFLOW_TOKEN_URL ??= `${origin}/simulator/dialogflow/token`;
    env.DIALOGFLOW_API_BASE ??= `${origin}/simulator/dialogflow`;
    // the outbound guard (docs/adr/0062) is off here so the stand-ins on 127.0.0.1 answer; OUTBOUND_GUARD=on turns it on
    env.OUTBOUND_GUARD ??= process.env.OUTBOUND_GUARD === "on" ? "on" : "off";
    // one process plays every Lambda: all heavy ports (functions/src/app/lambda-roles.ts)
    const container = createContainer(parseConfig(env), { spreadsheets: xlsxSpreadsheets, promptEngine: createPromptEngine, copilotProvider: createOpenAiCopilotProvider });

    const gateway = createWsGateway(createWsHandler(container) as never);
    await listen(gateway.management, managementPort, "127.0.0.1");
    stops.push(() => new Promise<void>((r) => gateway.management.close(() => r())));
    stops.push(() => gateway.closeAll());

    // Lambda's event source mapping for inbound.fifo, on one machine.
    const inbound = pollQueue(
      sqsClient(sqs.endpoint),
      sqs.queueUrls.inbound,
      (event) => consumeInbound(container, event),
      (err) => container.logger.error("inbound poll failed", { err: String(err) }),
      { pollers: opts.inboundPollers ?? Number(process.env.INBOUND_POLLERS ?? 4) },
    );
    stops.push(inbound.stop);

    // WhatsApp's stand-in, outside the session hosts as WhatsApp is: its network holds what customers send while
    // no host is attached; pairings persist in the table (a restart keeps phones linked).
    const whatsapp = await startWhatsAppStandIn({
      pairing: createTablePairingStore(createDb({ tableName, endpoint: dynamo.endpoint, region: "us-east-1" })),
      qrRefreshMs: 60_000,
    });
    stops.push(whatsapp.close);
    // The session hosts, each its own process (SESSION_HOSTS=N): consume outbound.fifo, feed inbound.fifo, dial
    // the network. Stable ids (host-<n>): after a restart a host continues its own sessions at once.
    const hosts = startHostFleet({
      count: Math.max(1, opts.sessionHosts ?? Number(process.env.SESSION_HOSTS ?? 1)),
      env: { ...env, DEFAULT_CHANNEL: "simulator", COMMAND_WAIT_SECONDS: "1", SIMULATOR_NETWORK_URL: whatsapp.wire.url, ...opts.hostEnv },
      repoRoot: REPO_ROOT,
      log: (msg, fields) => container.logger.warn(msg, fields),
      stdio: opts.hostStdio,
    });
    stops.push(hosts.stop);
    // several pollers, as Lambda runs several batches at once: a bot waiting for its model holds one batch only
    const jobsPoller = pollQueue(
      sqsClient(sqs.endpoint),
      sqs.queueUrls.jobs,
      (event) => consumeJobs(container, event),
      (err) => container.logger.error("jobs poll failed", { err: String(err) }),
      { pollers: 4 },
    );
    stops.push(jobsPoller.stop);

    const app = createHttpApp(container);
    // the fake bank's page and API sit beside the WhatsApp simulator (/simulator/bank), local only like it; so do the
    // bots' stand-ins (/simulator/ai: OpenAI-compatible API and Azure speech, docs/bots.md)
    const fakeBankHttp = container.fakeBank ? createFakeBankHttp(container.fakeBank) : null;
    // Meta's Cloud API stand-in beside them (/simulator/cloudapi): one test number from the start
    const cloudApi = createCloudApiSimulator();
    // its credentials are answered here once (the simulator keeps the token only as a hash and never lists secrets)
    const demoNumber = cloudApi.addNumber({ phoneNumberId: "100000000000001", wabaId: "200000000000001", verifiedName: "Atende Demo" });
    const cloudApiHttp = createCloudApiSimulatorHttp(cloudApi);
    const aiSimulator = createAiSimulator();
    const metaGraph = createMetaGraphStandIn();
    // every stand-in registers once: its prefix under /simulator, and its tab on the simulator page (stand-ins/README.md)
    const standIns = createStandInRegistry().register(whatsapp.standIn);
    registerStandIns(standIns, { cloudApi: (req) => cloudApiHttp.fetch(req), ai: (req) => aiSimulator.fetch(req), bank: fakeBankHttp && ((req) => fakeBankHttp.fetch(req)), meta: metaGraph.fetch });
    // Telegram's Bot API stand-in and the page that plays a Telegram user (issue 31)
    standIns.register({
      id: "telegram",
      prefix: "/simulator/telegram",
      fetch: createTelegramStandIn().fetch,
      tab: { path: "/simulator/telegram", order: 15, label: { pt: "Telegram", en: "Telegram", es: "Telegram" } },
    });
    // the demo shop on its own origin, carrying the website chat's one line (issue 31; stand-ins/shop)
    const shop = await startShopStandIn({ appUrl: origin, host, port: opts.shopPort ?? (await freePort()), keyOf: () => demoWebchatKey(container) });
    stops.push(shop.close);
    standIns.register(shop.standIn);
    const server = createPublicServer({
      fetch: app.fetch,
      gateway,
      webDist: opts.webDist ?? join(REPO_ROOT, "web", "dist"),
      runtimeConfig: () => ({ wsPath: "/ws" }),
      simulator: (req) => standIns.route(req),
    });
    const httpPort = await listen(server, httpPort0, host);
    stops.push(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );

    let logins: SeedLogin[] | null = null;
    let seededNow = false;
    if (opts.seed !== false && !(await container.services.seed.isSeeded())) {
      logins = await container.services.seed.seed();
      seededNow = true;
      // Demo connections start like any new one: their QR waits on the simulator page.
      let cursor: string | undefined;
      do {
        const page = await container.repos.companies.listPage(100, cursor);
        for (const company of page.items) await container.services.whatsapps.startAllOfCompany(company.id);
        cursor = page.cursor;
      } while (cursor);
    } else if (opts.seed !== false) {
      const { DEMO_LOGINS } = await import("@atende/functions/features/seed/seed.service");
      logins = DEMO_LOGINS;
    }

    if (opts.tick !== false) {
      // The one-minute EventBridge tick, aligned to the minute like a rate(1 minute) rule.
      const period = opts.tickIntervalMs ?? 60_000;
      let timer: NodeJS.Timeout;
      const schedule = () => {
        timer = setTimeout(async () => {
          await runTick(container);
          schedule();
        }, period - (Date.now() % period));
      };
      schedule();
      stops.push(() => clearTimeout(timer));
    }

    const url = `http://${host === "0.0.0.0" ? "localhost" : host}:${httpPort}`;
    container.fakeBank?.setWebhook({ url: `${url}/api/subscription/webhook` });
    // the demo company also gets a Cloud API connection wired to the simulator (docs/cloud-api.md "On one machine")
    if (opts.demo && seededNow) {
      const { DEMO_LOGINS } = await import("@atende/functions/features/seed/seed.service");
      const admin = DEMO_LOGINS.find((l) => l.role === "admin");
      if (admin) await wireCloudApiDemo({ url, sim: cloudApi, number: demoNumber, login: admin, logger: container.logger }).catch((err) => container.logger.warn("cloud-api demo failed", { err: String(err) }));
      if (admin) await wireTelegramDemo({ url, login: admin }).catch((err) => container.logger.warn("telegram demo failed", { err: String(err) }));
      if (admin) await wireWebchatDemo({ url, shopUrl: shop.url, login: admin }).catch((err) => container.logger.warn("webchat demo failed", { err: String(err) }));
    }
    // the demo company's Messenger and Instagram connections on the Graph stand-in (in memory: its pages and callbacks
    // are made again on every start)
    if (opts.demo && logins) {
      const admin = logins.find((l) => l.role === "admin");
      if (admin) await wireMetaDemo({ url, graph: metaGraph, login: admin, create: seededNow }).catch((err) => container.logger.warn("meta demo failed", { err: String(err) }));
    }
    // full-text search (docs/adr/0035): history written before the index existed is indexed once, in the background
    void container.services.searchBackfillPlatformOnce({ fresh: seededNow }).catch((err) => container.logger.warn("search backfill failed", { err: String(err) }));
    const demo = opts.demo && seededNow ? seedDemoConversations({ url, network: whatsapp.network, container, stopped: () => stopping }) : null;
    demo?.catch((err) => container.logger.warn("demo conversations not completed", { err: String(err) }));
    return { url, httpPort, container, dynamo, sqs, logins, seededNow, demo, env, stop, hosts, network: whatsapp.network, simulatorWireUrl: whatsapp.wire.url, standIns, simulatorUrl: `${url}/simulator`, shopUrl: shop.url, aiSimulator, cloudApi, metaGraph };
  } catch (e) {
    await stop();
    throw e;
  }
};
