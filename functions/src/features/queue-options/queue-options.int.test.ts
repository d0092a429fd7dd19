import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let outsider: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  outsider = await createTenant(t, { queues: [] });
});

const create = (body: Record<string, unknown>, token = a.adminToken) => t.call("POST", "/queue-options", { token, body });

describe("/queue-options: the recursive chatbot tree", () => {
  it("adds top-level and nested options, lists each level, numbers them in order", async () => {
    const queueId = a.queues[0]!.id;
    const top1 = await create({ queueId, title: "Comprar", message: "Veja nosso catálogo" });
    const top2 = await create({ queueId, title: "Trocar", message: "Trocas em 7 dias" });
    expect(top1.status).toBe(201);
    expect(top1.body).toMatchObject({ queueId, parentId: null, option: "1" });
    expect(top2.body.option).toBe("2");
    const child = await create({ queueId, parentId: top1.body.id, title: "À vista", message: "10% de desconto" });
    expect(child.body).toMatchObject({ parentId: top1.body.id, option: "1" });
    const grandchild = await create({ queueId, parentId: child.body.id, title: "Pix" });
    expect(grandchild.status).toBe(201);

    const top = await t.call("GET", `/queue-options?queueId=${queueId}&parentId=-1`, { token: a.adminToken });
    expect(top.body.map((o: { title: string }) => o.title)).toEqual(["Comprar", "Trocar"]);
    const level2 = await t.call("GET", `/queue-options?queueId=${queueId}&parentId=${top1.body.id}`, { token: a.adminToken });
    expect(level2.body.map((o: { title: string }) => o.title)).toEqual(["À vista"]);

    // the chatbot reads the same tree through the service
    const children = await t.container.services.queueOptions.listChildren(a.company.id, queueId, null);
    expect(children.map((o) => o.option)).toEqual(["1", "2"]);
  });

  it("edits a node and deletes a node with everything below it", async () => {
    const queueId = a.queues[1]!.id;
    const root = await create({ queueId, title: "Suporte" });
    const child = await create({ queueId, parentId: root.body.id, title: "Internet" });
    await create({ queueId, parentId: child.body.id, title: "Lenta" });
    const put = await t.call("PUT", `/queue-options/${root.body.id}`, { token: a.adminToken, body: { title: "Suporte técnico", message: "Escolha" } });
    expect(put.body).toMatchObject({ title: "Suporte técnico", message: "Escolha", option: "1" });
    const del = await t.call("DELETE", `/queue-options/${root.body.id}`, { token: a.adminToken });
    expect(del.status).toBe(200);
    expect(await t.container.repos.queueOptions.listByQueue(a.company.id, queueId)).toEqual([]);
  });

  it("attaches media to a node", async () => {
    const queueId = a.queues[0]!.id;
    const node = await create({ queueId, title: "Catálogo" });
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array([37, 80, 68, 70])], { type: "application/pdf" }), "catalogo.pdf");
    const res = await t.app.request(`/api/queue-options/${node.body.id}/media-upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ mediaName: "catalogo.pdf" });
  });

  it("refuses a parent of another queue and bad input, storing nothing", async () => {
    const root = await create({ queueId: a.queues[0]!.id, title: "Raiz" });
    const wrong = await create({ queueId: a.queues[1]!.id, parentId: root.body.id, title: "Filho" });
    expect(wrong).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect((await create({ queueId: a.queues[0]!.id, title: "" })).body.error).toBe("ERR_VALIDATION");
    expect((await create({ title: "Sem fila" })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/queue-options", { token: a.adminToken })).body.error).toBe("ERR_VALIDATION");
    expect(await t.container.repos.queueOptions.listChildren(a.company.id, a.queues[1]!.id, null)).toEqual([]);
  });

  it("is for admins only", async () => {
    expect((await t.call("GET", `/queue-options?queueId=${a.queues[0]!.id}`, { token: a.userToken })).status).toBe(403);
  });

  it("another company reaches none of it (cross-tenant)", async () => {
    const queueId = a.queues[0]!.id;
    const node = await create({ queueId, title: "Privado" });
    const tok = outsider.adminToken;
    expect((await t.call("GET", `/queue-options?queueId=${queueId}&parentId=-1`, { token: tok })).status).toBe(404);
    expect((await create({ queueId, title: "Intruso" }, tok)).status).toBe(404);
    expect((await t.call("PUT", `/queue-options/${node.body.id}`, { token: tok, body: { title: "X" } })).status).toBe(404);
    expect((await t.call("DELETE", `/queue-options/${node.body.id}`, { token: tok })).status).toBe(404);
    const form = new FormData();
    form.append("file", new Blob(["x"]), "x.txt");
    const up = await t.app.request(`/api/queue-options/${node.body.id}/media-upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${tok}` } });
    expect(up.status).toBe(404);
    const still = await t.container.services.queueOptions.findById(a.company.id, node.body.id);
    expect(still).toMatchObject({ title: "Privado", mediaName: null });
  });
});
