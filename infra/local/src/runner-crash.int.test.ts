import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalSqs } from "@atende/local-sqs/sqs.server";
import { QUEUES } from "@atende/shared/contracts/queue-names";
import { httpJson } from "../../../e2e/support/http";
import { freePort } from "./ports";
import { REPO_ROOT } from "./platform";
import { queueDefinitions, sqsClient } from "./sqs";

/**
 * Issue 19 item 6: the runner killed (SIGKILL) while a burst of customer messages is still on inbound.fifo.
 * After a restart on the same data folder, every message the simulator handed to the platform is stored once.
 */
const dataDir = mkdtempSync(join(tmpdir(), "atende-crash-"));
const children: ChildProcess[] = [];
afterAll(() => {
  children.forEach((c) => c.kill("SIGKILL"));
  rmSync(dataDir, { recursive: true, force: true });
});

const startRunner = async () => {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "infra/local/src/main.ts")], {
    cwd: REPO_ROOT,
    // one consumer of inbound.fifo: the burst is still queued when the process dies
    env: { ...process.env, PORT: String(port), ATENDE_DATA_DIR: dataDir, LOG_LEVEL: "error", INBOUND_POLLERS: "1", ATENDE_DEMO: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`runner did not start:\n${out}`)), 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes("Ctrl-C")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`runner exited ${code}:\n${out}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
};
const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once("exit", () => r())));
const until = async <T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000, everyMs = 200) => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
};

type Conn = { companyId: number; whatsappId: number; status: string; pending: number };

describe("npm start killed during a burst of customer messages", () => {
  it("stores every message the simulator handed over exactly once after a restart", { timeout: 300_000 }, async () => {
    let run = await startRunner();
    const login = await httpJson<{ token: string; user: { companyId: number } }>(run.base, "/api/auth/login", { method: "POST", body: { email: "admin@demo.com.br", password: "Admin1234" } });
    expect(login.status).toBe(200);
    const { token } = login.data;
    const companyId = login.data.user.companyId;
    const list = await httpJson<{ id: number; name: string }[] | { whatsapps: { id: number; name: string }[] }>(run.base, "/api/whatsapp/", { token });
    const all = Array.isArray(list.data) ? list.data : list.data.whatsapps;
    const whatsappId = all.find((w) => w.name === "Simulador")!.id;
    const conn = async (base: string) => (await httpJson<Conn[]>(base, "/simulator/api/connections")).data.find((c) => c.companyId === companyId && c.whatsappId === whatsappId);
    if ((await conn(run.base))?.status !== "CONNECTED") {
      await until("QR", () => conn(run.base), (c) => c?.status === "qrcode");
      await httpJson(run.base, `/simulator/api/connections/${companyId}/${whatsappId}/scan`, { method: "POST", body: { number: "5511900000001" } });
      await until("connected", () => conn(run.base), (c) => c?.status === "CONNECTED");
    }

    // 10 customers x 10 messages, all at once
    const customers = Array.from({ length: 10 }, (_, i) => `55119${String(40000000 + i)}`);
    const handedOver: string[] = [];
    await Promise.all(
      customers.map(async (number, i) => {
        for (let k = 0; k < 10; k++) {
          const body = `crash ${i} ${k}`;
          const res = await httpJson(run.base, `/simulator/api/customers/${number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: `Crash ${i}` } });
          expect(res.status).toBe(201);
          handedOver.push(body);
        }
      }),
    );
    // the simulator's own queue (in memory, like WhatsApp's servers) is empty once the session host has put
    // every message on inbound.fifo; the moment it is, the platform dies
    await until("the simulator to hand everything over", () => conn(run.base), (c) => c?.pending === 0, 60_000, 10);
    run.child.kill("SIGKILL");
    await exited(run.child);

    // what the dead platform's queue held (read from its log, with the stand-in itself)
    const sqs = await startLocalSqs({ queues: queueDefinitions(), dataDir: join(dataDir, "sqs") });
    const client = sqsClient(sqs.endpoint);
    const attrs = await client.send(new GetQueueAttributesCommand({ QueueUrl: sqs.queueUrl(QUEUES.inbound), AttributeNames: ["ApproximateNumberOfMessages"] }));
    client.destroy();
    await sqs.stop();
    const queuedAtKill = Number(attrs.Attributes?.ApproximateNumberOfMessages);
    expect(queuedAtKill).toBeGreaterThan(0);

    run = await startRunner();
    const stored = async () => {
      const bodies: string[] = [];
      for (const status of ["pending", "open", "closed"]) {
        const tickets = await httpJson<{ tickets: { id: number; contact?: { number: string } }[] }>(run.base, `/api/tickets?status=${status}&showAll=true`, { token });
        for (const t of tickets.data.tickets ?? []) {
          if (!customers.includes(t.contact?.number ?? "")) continue;
          const msgs = await httpJson<{ messages: { body: string; fromMe: boolean }[] }>(run.base, `/api/messages/${t.id}`, { token });
          bodies.push(...(msgs.data.messages ?? []).filter((m) => !m.fromMe && m.body.startsWith("crash ")).map((m) => m.body));
        }
      }
      return bodies;
    };
    await until("every message stored", stored, (b) => new Set(b).size >= handedOver.length, 120_000, 1_000);
    await new Promise((r) => setTimeout(r, 3_000)); // a redelivered duplicate would be stored by now
    const bodies = await stored();
    expect([...bodies].sort()).toEqual([...handedOver].sort());
    run.child.kill("SIGINT");
    await exited(run.child);
  });
});
