import { execSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./ports";
import { REPO_ROOT } from "./platform";

/** The one-command runner, as a user runs it: a child process on its own data folder. */
const dataDir = mkdtempSync(join(tmpdir(), "atende-runner-"));
const children: ChildProcess[] = [];

const javaFor = (dir: string) => {
  try {
    return execSync(`pgrep -f -- "[j]ava .*-dbPath ${join(dir, "dynamodb")}"`).toString().trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

const startRunner = async () => {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "infra/local/src/main.ts")], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), ATENDE_DATA_DIR: dataDir, LOG_LEVEL: "error" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`runner did not start:\n${out}`)), 90_000);
    child.stdout!.on("data", () => {
      if (out.includes("Ctrl-C")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`runner exited ${code}:\n${out}`)));
  });
  return { child, port, output: () => out };
};

const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null ? r() : child.once("exit", () => r())));
const waitGone = async (dir: string) => {
  for (let i = 0; i < 50 && javaFor(dir).length > 0; i++) await new Promise((r) => setTimeout(r, 200));
  return javaFor(dir);
};

afterAll(() => {
  children.forEach((c) => c.kill("SIGKILL"));
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start (infra/local/src/main.ts)", () => {
  it("seeds on first start, prints the URL and logins, and Ctrl-C leaves no JVM behind", async () => {
    const run = await startRunner();
    expect(run.output()).toContain(`http://127.0.0.1:${run.port}`);
    expect(run.output()).toContain("admin@demo.com.br");
    expect(run.output()).toContain("First start");
    const login = await fetch(`http://127.0.0.1:${run.port}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@demo.com.br", password: "Admin1234" }),
    });
    expect(login.status).toBe(200);
    expect(javaFor(dataDir).length).toBeGreaterThan(0);
    run.child.kill("SIGINT");
    await exited(run.child);
    expect(await waitGone(dataDir)).toEqual([]);
  }, 150_000); // a first start compiles and seeds the whole demo: on a busy 2-core machine that passed 60 s

  it("a second start reuses the data, and a killed runner (SIGKILL) still takes its JVM down", async () => {
    const run = await startRunner();
    expect(run.output()).toContain("Data kept");
    const login = await fetch(`http://127.0.0.1:${run.port}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "atendente@demo.com.br", password: "Atende1234" }),
    });
    expect(login.status).toBe(200);
    run.child.kill("SIGKILL");
    await exited(run.child);
    expect(await waitGone(dataDir)).toEqual([]);
  }, 120_000);
});
