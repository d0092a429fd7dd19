import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { SESSION_HOST_REGISTRY_PK, type SessionHostResponse } from "@atende/shared/contracts/http/session-hosts";
import { makeOperator } from "../../testing/operator";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let opToken: string;

/** a registry item as a session host writes it on its heartbeat (session-host/src/leases/host-registry.ts) */
const beat = async (host: SessionHostResponse) =>
  t.container.db.doc.send(new PutCommand({ TableName: t.container.db.tableName, Item: { pk: SESSION_HOST_REGISTRY_PK, sk: host.hostId, ...host, ttl: Math.floor(host.lastHeartbeatAt / 1000) + 3600 } }));

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  opToken = await makeOperator(t, await createTenant(t));
});

describe("GET /session-hosts", () => {
  it("the platform operator sees the live session hosts with their connections; a host silent for longer than the stale time is gone", async () => {
    const now = t.clock.now.getTime();
    const arn = "arn:aws:ecs:sa-east-1:123456789012:task/atende/0a1b2c3d";
    await beat({ hostId: arn, pid: 1, capacity: 50, draining: false, lastHeartbeatAt: now - 1_000, connections: [{ companyId: a.company.id, whatsappId: 3, status: "CONNECTED" }] });
    await beat({ hostId: "host-2", pid: 4242, capacity: 50, draining: true, lastHeartbeatAt: now - 500, connections: [] });
    await beat({ hostId: "host-dead", pid: 7, capacity: 50, draining: false, lastHeartbeatAt: now - 60_000, connections: [{ companyId: a.company.id, whatsappId: 4, status: "CONNECTED" }] });
    const res = await t.call("GET", "/session-hosts", { token: opToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { hostId: arn, pid: 1, capacity: 50, draining: false, lastHeartbeatAt: now - 1_000, connections: [{ companyId: a.company.id, whatsappId: 3, status: "CONNECTED" }] },
      { hostId: "host-2", pid: 4242, capacity: 50, draining: true, lastHeartbeatAt: now - 500, connections: [] },
    ]);
  });

  it("a company admin or user is refused with the catalogue's error; no token is 401", async () => {
    for (const token of [a.adminToken, a.userToken]) {
      const res = await t.call("GET", "/session-hosts", { token });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("ERR_NO_PERMISSION");
    }
    expect((await t.call("GET", "/session-hosts")).status).toBe(401);
  });
});
