import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FlowInput } from "@atende/shared/domain/flows/flow";
import { orderFlow } from "./flows.fixtures";
import { createTenant, type Tenant } from "../../testing/factories";
import { serveHttp } from "../../testing/serve-http";
import { pdfFile, pngFile } from "../../testing/spec-client";
import { MAX_FLOW_MEDIA_BYTES } from "./flow-media";
import { createTestApp, type TestApp } from "../../testing/test-app";

/** Issue 30 item 2: the /flows API against DynamoDB Local (the engine's own runs are in flows-run.int.test.ts). */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let lookup: Awaited<ReturnType<typeof serveHttp>>;
const lookups: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
  // the http node's outside service: an order lookup by e-mail
  lookup = await serveHttp((req) => {
    const u = new URL(req.url);
    lookups.push(u.search);
    if (u.searchParams.get("email") === "ana@x.com") return Response.json({ orders: [{ id: "A-42", status: "shipped" }] });
    return Response.json({ error: "secret body" }, { status: 404 });
  });
});
afterAll(() => lookup.close());

const form = (file: File) => {
  const f = new FormData();
  f.append("file", file);
  return f;
};
const upload = (body: FormData, token = a.adminToken) => t.app.request("/api/flows/media", { method: "POST", body, headers: { authorization: `Bearer ${token}` } });
const call = (method: string, path: string, body?: unknown, token = a.adminToken) => t.call(method, path, { token, body });

describe("flows API (issue 30)", () => {
  it("creates, lists, reads, edits, publishes immutable versions, deletes", async () => {
    const made = await call("POST", "/flows", orderFlow(a.queues[0]!.id, lookup.url));
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "Pedidos", publishedVersion: null, versions: [], warnings: [], exitWords: ["sair", "atendente"], companyId: a.company.id });
    const id = made.body.id as number;
    expect((await call("GET", "/flows")).body.flows).toEqual([expect.objectContaining({ id, name: "Pedidos", nodeCount: 8, publishedVersion: null })]);

    const v1 = await call("POST", `/flows/${id}/publish`);
    expect(v1.body).toMatchObject({ publishedVersion: 1, versions: [expect.objectContaining({ version: 1, nodeCount: 8, publishedBy: a.admin.id })] });
    const edited = await call("PUT", `/flows/${id}`, { ...orderFlow(a.queues[0]!.id, lookup.url), name: "Pedidos 2", nodes: [...orderFlow(1, "http://x").nodes.map((n) => (n.id === "hi" ? { ...n, data: { text: "Oi de novo" } } : n))] });
    expect(edited.status).toBe(200);
    expect(edited.body.name).toBe("Pedidos 2");
    // the published version did not change with the draft
    const ver1 = await call("GET", `/flows/${id}/versions/1`);
    expect(ver1.body).toMatchObject({ flowId: id, version: 1, name: "Pedidos" });
    expect(ver1.body.nodes.find((n: { id: string }) => n.id === "hi").data.text).toBe("Olá {{contact.name}}!");
    const v2 = await call("POST", `/flows/${id}/publish`);
    expect(v2.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect((await call("GET", `/flows/${id}/versions/3`)).status).toBe(404);

    expect((await call("DELETE", `/flows/${id}`)).status).toBe(204);
    expect((await call("GET", `/flows/${id}`)).body).toEqual(expect.objectContaining({ error: "ERR_NO_FLOW_FOUND" }));
  });

  it("refuses a graph that cannot run with ERR_FLOW_INVALID and the node at fault; warns on unreachable nodes", async () => {
    const base = orderFlow(a.queues[0]!.id, lookup.url);
    const cases: [FlowInput, unknown][] = [
      [{ ...base, nodes: base.nodes.filter((n) => n.id !== "start"), edges: base.edges.slice(1) }, { code: "NO_START" }],
      [{ ...base, nodes: [...base.nodes, { id: "start2", type: "start", data: {} }] }, { code: "MANY_STARTS", nodeId: "start2" }],
      [{ ...base, edges: [...base.edges, { id: "e9", source: "end", target: "ghost" }] }, { code: "EDGE_MISSING_NODE", nodeId: "end", edgeId: "e9" }],
      [{ ...base, edges: base.edges.filter((e) => e.sourceHandle !== "bye") }, { code: "MENU_OPTION_NO_EDGE", nodeId: "menu", handle: "bye" }],
      [{ ...base, edges: [...base.edges.filter((e) => e.source !== "notFound"), { source: "notFound", target: "look" }] }, expect.objectContaining({ code: "LOOP_WITHOUT_INPUT" })],
    ];
    for (const [flow, issue] of cases) {
      const res = await call("POST", "/flows", flow);
      expect(res.status, JSON.stringify(issue)).toBe(400);
      expect(res.body.error).toBe("ERR_FLOW_INVALID");
      expect(res.body.data.errors).toContainEqual(issue);
    }
    // schema limits: over 500 nodes, a text over 4,096 characters
    const many = { ...base, nodes: [...base.nodes, ...Array.from({ length: 500 }, (_, i) => ({ id: `m${i}`, type: "message" as const, data: { text: "x" } }))] };
    expect((await call("POST", "/flows", many)).body.error).toBe("ERR_VALIDATION");
    const long = { ...base, nodes: base.nodes.map((n) => (n.id === "hi" ? { ...n, data: { text: "x".repeat(4097) } } : n)) };
    expect((await call("POST", "/flows", long)).body.error).toBe("ERR_VALIDATION");
    const lonely = await call("POST", "/flows", { ...base, nodes: [...base.nodes, { id: "lost", type: "message", data: { text: "ninguém chega" } }] });
    expect(lonely.status).toBe(201);
    expect(lonely.body.warnings).toContainEqual({ code: "UNREACHABLE", nodeId: "lost" });
  });

  it("tests a flow without WhatsApp: messages in and out and the variables at each step, the http node called for real", async () => {
    const id = (await call("POST", "/flows", orderFlow(a.queues[1]!.id, lookup.url))).body.id as number;
    const res = await call("POST", `/flows/${id}/test`, { messages: ["ana@", "ana@x.com", "1"], contact: { name: "Ana" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "transferred", transfer: { queueId: a.queues[1]!.id, userId: null }, vars: { order: "A-42" } });
    const outs = res.body.steps.flatMap((s: { out: { body?: string }[] }) => s.out.map((m) => m.body));
    expect(outs).toEqual(["Olá Ana!", "Qual o seu e-mail?", "E-mail inválido.", "Qual o seu e-mail?", "Pedido A-42. Deseja:\n\n1 - Falar com vendas\n2 - Encerrar"]);
    const afterEmail = res.body.steps.find((s: { nodeId: string; handle?: string }) => s.nodeId === "email" && s.handle === "default");
    expect(afterEmail).toMatchObject({ in: "ana@x.com", contact: { email: "ana@x.com" } });
    expect(lookups).toContain("?email=ana%40x.com");
    // the unsaved canvas, as Cloud API: the menu goes as buttons and the choice comes as the option id
    const cloud = await call("POST", `/flows/${id}/test`, { flow: orderFlow(a.queues[1]!.id, lookup.url), channel: "cloudapi", messages: ["ana@x.com", "bye"] });
    expect(cloud.body.status).toBe("ended");
    expect(cloud.body.steps.flatMap((s: { out: unknown[] }) => s.out)).toContainEqual({ kind: "buttons", body: "Pedido A-42. Deseja:", buttons: [{ id: "human", title: "Falar com vendas" }, { id: "bye", title: "Encerrar" }], text: "Pedido A-42. Deseja:\n\n1 - Falar com vendas\n2 - Encerrar" });
    // an outside error takes the error exit
    const miss = await call("POST", `/flows/${id}/test`, { messages: ["bob@x.com"] });
    expect(miss.body.status).toBe("transferred");
    expect(miss.body.steps.flatMap((s: { out: { body?: string }[] }) => s.out.map((m) => m.body))).toContain("Não achei seu pedido.");
    expect(JSON.stringify(miss.body)).not.toContain("secret body");
  });

  it("refuses deleting a flow a connection or queue uses (ERR_FLOW_IN_USE); only published flows can be set", async () => {
    const id = (await call("POST", "/flows", orderFlow(a.queues[0]!.id, lookup.url))).body.id as number;
    const queue = a.queues[0]!;
    expect((await call("PUT", `/queue/${queue.id}`, { flowId: id })).body.error).toBe("ERR_NO_FLOW_FOUND");
    await call("POST", `/flows/${id}/publish`);
    const set = await call("PUT", `/queue/${queue.id}`, { flowId: id });
    expect(set.status).toBe(200);
    expect(set.body.flowId).toBe(id);
    const refused = await call("DELETE", `/flows/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "ERR_FLOW_IN_USE", data: { queueIds: [queue.id], whatsappIds: [] } });
    await call("PUT", `/queue/${queue.id}`, { flowId: null });
    expect((await call("DELETE", `/flows/${id}`)).status).toBe(204);
  });

  it("is for admins only: an attendant is refused every route", async () => {
    const id = (await call("POST", "/flows", orderFlow(a.queues[0]!.id, lookup.url))).body.id as number;
    const routes: [string, string, unknown?][] = [
      ["GET", "/flows"],
      ["POST", "/flows", orderFlow(1, "http://x")],
      ["GET", `/flows/${id}`],
      ["PUT", `/flows/${id}`, orderFlow(1, "http://x")],
      ["DELETE", `/flows/${id}`],
      ["POST", `/flows/${id}/publish`],
      ["GET", `/flows/${id}/versions/1`],
      ["GET", `/flows/${id}/stats`],
      ["POST", `/flows/${id}/test`, { messages: [] }],
    ];
    for (const [m, p, body] of routes) expect((await call(m, p, body, a.userToken)).status, `${m} ${p}`).toBe(403);
    const up = await upload(form(pdfFile()), a.userToken);
    expect(up.status).toBe(403);
  });

  it("uploads a media node's file (POST /flows/media); refuses no file, too big, and a bad type with the catalogue's errors", async () => {
    const ok = await upload(form(pngFile("promo.png")));
    expect(ok.status).toBe(201);
    const file = (await ok.json()) as { key: string; name: string; mimetype: string };
    expect(file).toEqual({ key: expect.stringMatching(new RegExp(`^${a.company.id}/flow-[^/]+/promo.png$`)), name: "promo.png", mimetype: "image/png" });
    // the answer is a valid node `file`: a media node with it and no file list saves
    const saved = await call("POST", "/flows", { name: "Arquivo", nodes: [{ id: "s", type: "start", data: {} }, { id: "m", type: "media", data: { file } }], edges: [{ source: "s", target: "m" }] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);

    const none = await upload(new FormData());
    expect([none.status, ((await none.json()) as { error: string }).error]).toEqual([400, "ERR_VALIDATION"]);
    const big = await upload(form(new File([new Uint8Array(MAX_FLOW_MEDIA_BYTES + 1)], "grande.pdf", { type: "application/pdf" })));
    expect([big.status, ((await big.json()) as { error: string }).error]).toEqual([413, "ERR_PAYLOAD_TOO_LARGE"]);
    const script = await upload(form(new File(["<html><script>alert(1)</script></html>"], "x.html", { type: "text/html" })));
    expect([script.status, ((await script.json()) as { error: string }).error]).toEqual([400, "ERR_INVALID_MEDIA_TYPE"]);
    const exe = await upload(form(new File([new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0])], "setup.exe", { type: "application/octet-stream" })));
    expect(exe.status).toBe(400);
    const empty = await upload(form(new File([], "vazio.pdf", { type: "application/pdf" })));
    expect([empty.status, ((await empty.json()) as { error: string }).error]).toEqual([400, "ERR_EMPTY_FILE"]);
  });

  it("cross-tenant: B reaches none of A's flows, and A's flow is unchanged", async () => {
    const id = (await call("POST", "/flows", orderFlow(a.queues[0]!.id, lookup.url))).body.id as number;
    await call("POST", `/flows/${id}/publish`);
    // B has no flow with this id (ids are per company)
    expect((await call("GET", `/flows/${id}`, undefined, b.adminToken)).status).toBe(404);
    const routes: [string, string, unknown?][] = [
      ["GET", `/flows/${id}`],
      ["PUT", `/flows/${id}`, { ...orderFlow(1, "http://x"), name: "hacked" }],
      ["DELETE", `/flows/${id}`],
      ["POST", `/flows/${id}/publish`],
      ["GET", `/flows/${id}/versions/1`],
      ["GET", `/flows/${id}/stats`],
      ["POST", `/flows/${id}/test`, { messages: [] }],
    ];
    for (const [m, p, body] of routes) {
      const res = await call(m, p, body, b.adminToken);
      expect(res.status, `${m} ${p}`).toBe(404);
      expect(res.body.error).toBe("ERR_NO_FLOW_FOUND");
    }
    expect((await call("GET", "/flows", undefined, b.adminToken)).body.flows.map((f: { id: number }) => f.id)).not.toContain(id);
    // B cannot point its queue at A's flow either
    expect((await call("PUT", `/queue/${b.queues[0]!.id}`, { flowId: id }, b.adminToken)).body.error).toBe("ERR_NO_FLOW_FOUND");
    const still = await call("GET", `/flows/${id}`);
    expect(still.body).toMatchObject({ name: "Pedidos", publishedVersion: 1 });
  });
});
