import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { CONNECT_WINDOW_MS } from "./realtime.service";

/**
 * $connect registers the socket before it answers, and API Gateway (the local gateway too) answers GoneException to
 * posts to the connection until the handshake is complete. An event published in between met the socket's record,
 * got "gone" and removed it: the socket then opened with no record and never received anything (the live-messages
 * bench's admin socket on tmpfs, a `whatsappSession` event during its $connect).
 */
let t: TestApp;
let a: Tenant;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
});

describe.each([
  { protocol: "atende", query: {} },
  { protocol: "socketio", query: { EIO: "4", transport: "websocket" } },
] as const)("a socket still being accepted ($protocol)", ({ query }) => {
  /** $connect answered 200, the handshake not complete yet: API Gateway answers GoneException to posts */
  const accepting = async () => {
    const id = `accepting-${++seq}=`;
    t.sender.gone.add(id);
    expect((await t.container.services.sockets.connect(id, a.adminToken, { ...query, token: a.adminToken })).statusCode).toBe(200);
    return id;
  };
  const publish = () => t.container.services.realtime.publish(a.company.id, "tag", { action: "delete", tagId: 1 }, { kind: "company" });

  it("is not forgotten by an event published meanwhile: once open, it receives the next events", async () => {
    const id = await accepting();
    await publish();
    expect(await t.container.repos.connections.findById(id)).not.toBeNull();
    // the handshake completes
    t.sender.gone.delete(id);
    const mark = t.sender.frames.length;
    await publish();
    expect(t.sender.frames.slice(mark).map((f) => f.connectionId)).toContain(id);
  });

  it("is forgotten by the first event after the connect window when it never opened", async () => {
    const id = await accepting();
    t.clock.advance(CONNECT_WINDOW_MS);
    await publish();
    expect(await t.container.repos.connections.findById(id)).toBeNull();
  });
});
