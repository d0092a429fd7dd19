import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../testing/factories";
import { createTestApp, type TestApp } from "../testing/test-app";
import { createMemorySender } from "../platform/realtime/memory-sender.adapter";
import { createLogger } from "../platform/logger";
import { createWsHandler } from "../handlers/ws";
import { createWsRoot } from "./ws-root";

/**
 * The WebSocket Lambda builds its own small root (ADR 0038), not the container: its sockets must accept and refuse
 * the same tokens, and register connections the rest of the product (built by the container) publishes to.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
const sender = createMemorySender();
let handler: ReturnType<typeof createWsHandler>;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" }, { sender });
  a = await createTenant(t);
  b = await createTenant(t);
  const root = createWsRoot(t.container.config, { db: t.container.db, sender, jobs: t.jobs, clock: () => t.clock.now, logger: createLogger("silent") });
  handler = createWsHandler(root);
});

const event = (routeKey: string, connectionId: string, extra: { token?: string; body?: string } = {}) =>
  ({ requestContext: { connectionId, routeKey }, queryStringParameters: extra.token ? { token: extra.token } : undefined, body: extra.body }) as never;

describe("the WebSocket Lambda's own root", () => {
  it("accepts a valid access token and stores the connection under the user's company", async () => {
    expect(await handler(event("$connect", "ws-root-1=", { token: a.adminToken }))).toMatchObject({ statusCode: 200 });
    const conn = await t.container.repos.connections.findById("ws-root-1=");
    expect(conn).toMatchObject({ companyId: a.company.id, userId: a.admin.id });
  });

  it("refuses a missing or forged token and stores nothing", async () => {
    expect(await handler(event("$connect", "ws-root-2="))).toMatchObject({ statusCode: 401 });
    expect(await handler(event("$connect", "ws-root-3=", { token: `${a.adminToken}x` }))).toMatchObject({ statusCode: 401 });
    expect(await t.container.repos.connections.findById("ws-root-2=")).toBeFalsy();
    expect(await t.container.repos.connections.findById("ws-root-3=")).toBeFalsy();
  });

  it("joins rooms on $default, and the container's fan-out reaches the connection only in its own company", async () => {
    await handler(event("$connect", "ws-root-4=", { token: a.adminToken }));
    await handler(event("$connect", "ws-root-5=", { token: b.adminToken }));
    await handler(event("$default", "ws-root-4=", { body: JSON.stringify({ action: "joinNotification" }) }));
    expect((await t.container.repos.connections.findById("ws-root-4="))?.rooms).toContain("notification");
    const from = sender.frames.length;
    await t.container.services.realtime.publish(a.company.id, "contact", { action: "delete", contactId: 1 }, { kind: "company" });
    const to = sender.frames.slice(from).map((f) => f.connectionId);
    expect(to).toContain("ws-root-4=");
    expect(to).not.toContain("ws-root-5=");
  });

  it("forgets the connection on $disconnect", async () => {
    await handler(event("$connect", "ws-root-6=", { token: a.adminToken }));
    await handler(event("$disconnect", "ws-root-6="));
    expect(await t.container.repos.connections.findById("ws-root-6=")).toBeFalsy();
  });

  it("a website chat visitor's socket (docs/adr/0096): its token from an allowed origin only; never on the company's agent list", async () => {
    const made = await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name: "Site ws-root", provider: "webchat", allowedOrigins: ["https://shop.example"] } });
    const key = (await t.container.webchat.repo.byConnection(a.company.id, made.body.id as number))!.publicKey;
    const session = await t.call("POST", `/webchat/${key}/sessions`, { body: {}, headers: { origin: "https://shop.example" } });
    const visitor = (id: string, origin: string | undefined, token = session.body.token as string) =>
      handler({ requestContext: { connectionId: id, routeKey: "$connect" }, queryStringParameters: { webchat: key, token }, headers: origin ? { Origin: origin } : {} } as never);
    expect(await visitor("ws-root-v1=", "https://evil.example")).toMatchObject({ statusCode: 403 });
    expect(await visitor("ws-root-v2=", "https://shop.example", "forged")).toMatchObject({ statusCode: 401 });
    expect(await visitor("ws-root-v3=", "https://shop.example")).toMatchObject({ statusCode: 200 });
    expect(await t.container.webchat.repo.socket("ws-root-v3=")).toMatchObject({ companyId: a.company.id });
    expect(await t.container.webchat.repo.socket("ws-root-v1=")).toBeNull();
    expect(await t.container.repos.connections.findById("ws-root-v3=")).toBeFalsy();
    await handler(event("$disconnect", "ws-root-v3="));
    expect(await t.container.webchat.repo.socket("ws-root-v3=")).toBeNull();
    // socket opens per session are limited (the widget's backoff opens a few a minute at most)
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push(((await visitor(`ws-root-l${i}=`, "https://shop.example")) as { statusCode: number }).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    expect(statuses.at(-1)).toBe(429);
    expect(await t.container.webchat.repo.socket("ws-root-l19=")).toBeNull();
  });
});
