import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

/**
 * ADR 0068: a Socket.IO client configured with `<origin>/api` connects namespace /api; every packet for it then
 * carries `/api,`. Before its connect packet, an event goes on both served namespaces (the client buffers its own).
 */
let t: TestApp;
let a: Tenant;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
});

const sockets = () => t.container.services.sockets;
const open = async () => {
  const id = `ns-${++seq}=`;
  expect((await sockets().connect(id, a.adminToken, { token: a.adminToken, EIO: "4", transport: "websocket" })).statusCode).toBe(200);
  return id;
};
const framesTo = (id: string, from: number) => t.sender.frames.slice(from).filter((f) => f.connectionId === id).map((f) => f.frame);
const publishTag = () => t.container.services.realtime.publish(a.company.id, "tag", { action: "delete", tagId: 7 }, { kind: "company" });
const tagEvent = () => JSON.stringify([`company-${a.company.id}-tag`, { action: "delete", tagId: 7 }]);

describe("Socket.IO namespaces", () => {
  it("sends an event on both namespaces until the client connects one, then on its namespace only, after its ack and ready", async () => {
    const id = await open();
    let mark = t.sender.frames.length;
    await publishTag();
    expect(framesTo(id, mark)).toEqual([`42${tagEvent()}`, `42/api,${tagEvent()}`]);

    mark = t.sender.frames.length;
    expect((await sockets().message(id, "40/api,")).statusCode).toBe(200);
    const [ack, ready] = framesTo(id, mark) as string[];
    expect(ack).toMatch(/^40\/api,\{"sid":"s[\w-]+"\}$/);
    expect(ready).toBe('42/api,["ready"]');
    expect((await t.container.repos.connections.findById(id))?.namespace).toBe("/api");

    mark = t.sender.frames.length;
    await publishTag();
    expect(framesTo(id, mark)).toEqual([`42/api,${tagEvent()}`]);
  });

  it("keeps the joins sent on /api and answers their acks there", async () => {
    const id = await open();
    await sockets().message(id, "40/api,");
    const mark = t.sender.frames.length;
    expect((await sockets().message(id, '42/api,5["joinTickets","open"]')).statusCode).toBe(200);
    expect((await t.container.repos.connections.findById(id))?.rooms).toEqual(["tickets:open"]);
    expect(framesTo(id, mark)).toEqual(["43/api,5[]"]);
  });

  it("refuses another namespace, and ends an /api session with a disconnect on /api", async () => {
    const id = await open();
    let mark = t.sender.frames.length;
    await sockets().message(id, "40/admin,");
    expect(framesTo(id, mark)).toEqual(['44/admin,{"message":"Invalid namespace"}']);
    expect((await sockets().message(id, '42/admin,["joinTickets","open"]')).statusCode).toBe(400);

    await sockets().message(id, "40/api,");
    mark = t.sender.frames.length;
    await t.container.services.realtime.closeUserSockets(a.company.id, a.admin.id);
    expect(framesTo(id, mark)).toEqual(["41/api,"]);
    expect(t.sender.gone.has(id)).toBe(true);
  });
});
