import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { execFileSync } from "node:child_process";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { createTestApp } from "../../../functions/src/testing/test-app";
import { dynamoClient, startDynamo, type DynamoHandle } from "./dynamo";
import { freePort } from "./ports";

/**
 * Issue 27, finding 6: DynamoDB Local listens on loopback only, is started again when it dies, and the API answers
 * 503 ERR_SERVICE_UNAVAILABLE (never a 500) while it cannot be reached.
 */
let dynamo: DynamoHandle | undefined;
afterAll(async () => {
  await dynamo?.stop();
});

/** The JVM under the java-tied wrapper (the wrapper's child). */
const jvmPid = (wrapperPid: number) => Number(execFileSync("pgrep", ["-P", String(wrapperPid), "java"], { encoding: "utf8" }).trim().split("\n")[0]);
const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });

describe("DynamoDB Local under the local platform", () => {
  it("listens on 127.0.0.1 only, and comes back on the same port after its JVM is killed", async () => {
    const port = await freePort();
    dynamo = await startDynamo({ port, restart: true });
    expect(await reachable("127.0.0.1", port)).toBe(true);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === "IPv4" && !a.internal);
    // a machine with no other interface has no other address to be reached on; CI's has one
    if (external) expect(await reachable(external.address, port)).toBe(false);

    const first = dynamo.process.pid!;
    process.kill(jvmPid(first), "SIGKILL");
    const client = dynamoClient(dynamo.endpoint);
    let back = false;
    for (let i = 0; i < 120 && !back; i++) {
      await new Promise((r) => setTimeout(r, 500));
      back = dynamo.restarts === 1 && (await client.send(new ListTablesCommand({})).then(() => true, () => false));
    }
    client.destroy();
    expect(back).toBe(true);
    expect(dynamo.process.pid).not.toBe(first);
  });

  it("the API answers 503 ERR_SERVICE_UNAVAILABLE with Retry-After while the database cannot be reached", async () => {
    const closed = await freePort();
    const t = await createTestApp({ DYNAMODB_ENDPOINT: `http://127.0.0.1:${closed}` });
    const res = await t.call("POST", "/auth/login", { body: { email: "alguem@teste.com", password: "Qualquer123" } });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "ERR_SERVICE_UNAVAILABLE" });
    expect(res.headers.get("retry-after")).toBe("5");
  });
});
