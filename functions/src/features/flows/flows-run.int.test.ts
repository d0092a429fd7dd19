import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FlowInput } from "@atende/shared/domain/flows/flow";
import { runJob } from "../../app/jobs-consumer";
import { createTenant, type Tenant } from "../../testing/factories";
import { customerMessage, deliver } from "../../testing/inbox-fixtures";
import { serveHttp } from "../../testing/serve-http";
import { pdfFile, pngFile } from "../../testing/spec-client";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { BOT_TURN_JOB, BOT_WAKE_JOB, botMayAnswer } from "../bots/bot-runner.service";
import type { InboxService } from "../inbox/inbox.service";
import { orderFlow } from "./flows.fixtures";

/**
 * Issue 30: flows in the conversation, through the real inbound consumer, the bot runner's jobs and the HTTP API,
 * against DynamoDB Local, on a QR connection; the order lookup is a local HTTP server (the outbound guard is off in
 * tests, as on the local platform).
 */
let t: TestApp;
let lookup: Awaited<ReturnType<typeof serveHttp>>;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  lookup = await serveHttp((req) => {
    const email = new URL(req.url).searchParams.get("email");
    return email === "ana@x.com" ? Response.json({ orders: [{ id: "A-42" }] }) : Response.json({}, { status: 404 });
  });
});
afterAll(() => lookup.close());

/** Runs the queued bot turns (the jobs consumer would); wake jobs only when asked (they are the scheduler's). */
const runBots = async (names = [BOT_TURN_JOB]) => {
  for (let round = 0; round < 20; round++) {
    const batch = t.jobs.pending.filter((p) => p.job.type === "feature" && names.includes(p.job.name));
    if (!batch.length) return;
    t.jobs.pending.splice(0, t.jobs.pending.length, ...t.jobs.pending.filter((p) => !batch.includes(p)));
    for (const p of batch) await runJob(t.container, p.job);
  }
};

const customer = (tenant: Tenant) => {
  const number = `55119${String(80000000 + ++n)}`;
  const jid = `${number}@s.whatsapp.net`;
  const replies = () => t.commands.sent.filter((c) => c.companyId === tenant.company.id && "chatJid" in c && c.chatJid === jid).flatMap((c) => (c.type === "send" ? [c.body ?? ""] : []));
  return {
    number,
    replies,
    async says(body: string) {
      const before = replies().length;
      t.clock.advance(1000);
      await deliver(t, customerMessage(tenant, { number, body, pushName: "Ana", extra: { timestamp: Math.floor(t.clock.now.getTime() / 1000) } }));
      t.clock.advance(1000);
      await runBots();
      return replies().slice(before);
    },
    async ticket() {
      const res = await t.call("GET", "/tickets?showAll=true", { token: tenant.adminToken });
      return (res.body.tickets as { id: number; status: string; queueId: number | null; userId: number | null; contact: { number: string } }[]).find((x) => x.contact.number === number)!;
    },
  };
};

const publish = async (tenant: Tenant, flow: FlowInput) => {
  const made = await t.call("POST", "/flows", { token: tenant.adminToken, body: flow });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.id as number;
  expect((await t.call("POST", `/flows/${id}/publish`, { token: tenant.adminToken })).status).toBe(200);
  return id;
};
const onConnection = async (tenant: Tenant, flowId: number | null) => {
  const wa = (await t.call("GET", `/whatsapp/${tenant.whatsapp.id}`, { token: tenant.adminToken })).body;
  const res = await t.call("PUT", `/whatsapp/${tenant.whatsapp.id}`, { token: tenant.adminToken, body: { ...wa, flowId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.flowId).toBe(flowId);
};
const stats = async (tenant: Tenant, id: number) => (await t.call("GET", `/flows/${id}/stats`, { token: tenant.adminToken })).body;
const notes = async (tenant: Tenant, ticketId: number) => JSON.stringify((await t.call("GET", `/ticket-notes/list?ticketId=${ticketId}`, { token: tenant.adminToken })).body);

describe("flows in the conversation (QR connection)", () => {
  it("greet → ask the e-mail (invalid, then valid) → http lookup → menu → transfer to a queue; counted per node", async () => {
    const a = await createTenant(t);
    const id = await publish(a, orderFlow(a.queues[1]!.id, lookup.url));
    await onConnection(a, id);
    const c = customer(a);
    // the connection has two queues: without the flow, automation would send its queue menu; the flow takes over
    expect(await c.says("oi")).toEqual(["Olá Ana!", "Qual o seu e-mail?"]);
    expect(await c.says("ana@")).toEqual(["E-mail inválido.", "Qual o seu e-mail?"]);
    expect(await c.says("ana@x.com")).toEqual(["Pedido A-42. Deseja:\n\n1 - Falar com vendas\n2 - Encerrar"]);
    // the menu's send command carries the Cloud API form too (a QR session sends `body`, the numbered text)
    const menuCommand = t.commands.sent.filter((x) => x.type === "send" && x.companyId === a.company.id).at(-1) as { body: string; interactive?: unknown };
    expect(menuCommand.interactive).toEqual({ kind: "buttons", text: "Pedido A-42. Deseja:", buttons: [{ id: "human", title: "Falar com vendas" }, { id: "bye", title: "Encerrar" }] });
    // answered by label, accents and case ignored
    expect(await c.says("FALAR COM VENDAS")).toEqual([]);
    expect(await c.ticket()).toMatchObject({ status: "pending", userId: null, queueId: a.queues[1]!.id });
    // the flow is over: the next message is for people
    expect(await c.says("alô?")).toEqual([]);
    const s = await stats(a, id);
    expect(s).toMatchObject({ started: 1, finished: 1, dropped: 0 });
    expect(s.nodes).toMatchObject({
      start: { entered: 1, exited: 1, dropped: 0 },
      email: { entered: 1, exited: 1, dropped: 0 },
      look: { entered: 1, exited: 1 },
      menu: { entered: 1, exited: 1 },
      toQueue: { entered: 1, exited: 1 },
    });
    expect(s.nodes.end).toBeUndefined();
    // a flow a connection uses cannot be deleted
    expect((await t.call("DELETE", `/flows/${id}`, { token: a.adminToken })).body.error).toBe("ERR_FLOW_IN_USE");
  });

  it("a conversation finishes on the version it started on while v2 is published", async () => {
    const a = await createTenant(t);
    const v1 = orderFlow(a.queues[0]!.id, lookup.url);
    const id = await publish(a, v1);
    await onConnection(a, id);
    const c = customer(a);
    expect(await c.says("oi")).toEqual(["Olá Ana!", "Qual o seu e-mail?"]);
    const v2 = { ...v1, nodes: v1.nodes.map((x) => (x.id === "email" ? { ...x, data: { ...x.data, text: "E-mail, por favor (v2)" } } : x.id === "hi" ? { ...x, data: { text: "Bem-vinda (v2)" } } : x)) } as FlowInput;
    expect((await t.call("PUT", `/flows/${id}`, { token: a.adminToken, body: v2 })).status).toBe(200);
    expect((await t.call("POST", `/flows/${id}/publish`, { token: a.adminToken })).body.publishedVersion).toBe(2);
    // still v1's texts for the running conversation
    expect(await c.says("x")).toEqual(["E-mail inválido.", "Qual o seu e-mail?"]);
    // a new conversation starts on v2
    const other = customer(a);
    expect(await other.says("oi")).toEqual(["Bem-vinda (v2)", "E-mail, por favor (v2)"]);
    const s = await stats(a, id);
    expect(Object.keys(s.versions).sort()).toEqual(["1", "2"]);
    expect(s.versions["1"].nodes.hi.entered).toBe(1);
    expect(s.versions["2"].nodes.hi.entered).toBe(1);
    expect(s.nodes.hi.entered).toBe(2);
  });

  it('"sair" leaves the flow for the queue with a note, counted as dropped at the waiting node', async () => {
    const a = await createTenant(t);
    const id = await publish(a, orderFlow(a.queues[0]!.id, lookup.url));
    await onConnection(a, id);
    const c = customer(a);
    await c.says("oi");
    expect(await c.says("Sair")).toEqual([]);
    const ticket = await c.ticket();
    expect(ticket).toMatchObject({ status: "pending", userId: null });
    expect(await notes(a, ticket.id)).toContain("O cliente saiu do fluxo");
    expect(await c.says("ana@x.com")).toEqual([]);
    expect((await stats(a, id)).nodes.email).toMatchObject({ entered: 1, dropped: 1 });
  });

  it("deleting a flow conversations still run on archives it; they finish on their version", async () => {
    const a = await createTenant(t);
    const id = await publish(a, orderFlow(a.queues[0]!.id, lookup.url));
    await onConnection(a, id);
    const c = customer(a);
    await c.says("oi");
    await onConnection(a, null);
    const removed = await t.call("DELETE", `/flows/${id}`, { token: a.adminToken });
    expect(removed).toMatchObject({ status: 200, body: { archived: true } });
    expect((await t.call("GET", `/flows/${id}`, { token: a.adminToken })).status).toBe(404);
    expect((await t.call("GET", "/flows", { token: a.adminToken })).body.flows).toEqual([]);
    expect(await c.says("ana@x.com")).toEqual(["Pedido A-42. Deseja:\n\n1 - Falar com vendas\n2 - Encerrar"]);
  });

  it("an attendant accepting the ticket stops the flow", async () => {
    const a = await createTenant(t);
    const id = await publish(a, orderFlow(a.queues[0]!.id, lookup.url));
    await onConnection(a, id);
    const c = customer(a);
    await c.says("oi");
    const ticket = await c.ticket();
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { status: "open", userId: a.admin.id } })).status).toBe(200);
    expect(await c.says("ana@x.com")).toEqual([]);
  });

  it("an attendant accepting between the turn's read and its send: the bot's message is neither stored nor sent", async () => {
    const a = await createTenant(t);
    const c = customer(a);
    await c.says("oi");
    const ticket = await c.ticket();
    const bots = (t.container.modules.inbox[0]!.service as InboxService).bots;
    // the turn's read: the ticket still waits for the bot
    const read = (await bots.ticket(a.company.id, ticket.id, { turn: {} }))!;
    expect(botMayAnswer(read)).toBe(true);
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { status: "open", userId: a.admin.id } })).status).toBe(200);
    const before = c.replies().length;
    expect(await bots.send(read, { kind: "text", body: "tarde demais" }, "late:0", { onlyIf: botMayAnswer })).toBe(false);
    expect(c.replies().length).toBe(before);
    const messages = await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken });
    expect((messages.body.messages as { body: string }[]).map((m) => m.body)).not.toContain("tarde demais");
    // without the check (an attendant's own send path) the same stale read still writes: the version conflict re-reads
    expect(await bots.send(read, { kind: "text", body: "enviada" }, "late:1")).toBe(true);
    expect(c.replies()).toContain("enviada");
  });

  it("a keyword starts a published flow on a new conversation; other words get the usual automation", async () => {
    const a = await createTenant(t);
    await publish(a, orderFlow(a.queues[0]!.id, lookup.url));
    const c = customer(a);
    expect(await c.says("pedido")).toEqual(["Olá Ana!", "Qual o seu e-mail?"]);
    const other = customer(a);
    const usual = await other.says("bom dia");
    expect(usual.join("\n")).not.toContain("Qual o seu e-mail?");
  });

  it("a failing http node without an error exit sends the ticket to the queue with a note (no outside body)", async () => {
    const a = await createTenant(t);
    const flow = orderFlow(a.queues[0]!.id, lookup.url);
    const id = await publish(a, { ...flow, edges: flow.edges.filter((e) => e.sourceHandle !== "error") });
    await onConnection(a, id);
    const c = customer(a);
    await c.says("oi");
    expect(await c.says("bob@x.com")).toEqual([]);
    const ticket = await c.ticket();
    const text = await notes(a, ticket.id);
    expect(text).toContain("a chamada HTTP falhou (HTTP 404)");
    expect((await stats(a, id)).nodes.look).toMatchObject({ entered: 1, dropped: 1 });
  });

  it("wait goes on through a delayed job (the scheduler), not a sleeping turn", async () => {
    const a = await createTenant(t);
    const id = await publish(a, {
      name: "Espera",
      nodes: [
        { id: "s", type: "start", data: {} },
        { id: "m1", type: "message", data: { text: "Um momento..." } },
        { id: "w", type: "wait", data: { seconds: 1200 } },
        { id: "m2", type: "end", data: { text: "Pronto!" } },
      ],
      edges: [
        { source: "s", target: "m1" },
        { source: "m1", target: "w" },
        { source: "w", target: "m2" },
      ],
    });
    await onConnection(a, id);
    const c = customer(a);
    expect(await c.says("oi")).toEqual(["Um momento..."]);
    const wake = t.jobs.pending.find((p) => p.job.type === "feature" && p.job.name === BOT_WAKE_JOB);
    // 20 minutes: over SQS's 15-minute delay, queued for 900 s and queued again when it comes early
    expect(wake?.delaySeconds).toBe(900);
    expect(await c.says("ainda aí?")).toEqual([]);
    t.clock.advance(900_000);
    await runBots([BOT_WAKE_JOB, BOT_TURN_JOB]);
    expect(c.replies().at(-1)).toBe("Um momento...");
    t.clock.advance(300_000);
    await runBots([BOT_WAKE_JOB, BOT_TURN_JOB]);
    expect(c.replies().at(-1)).toBe("Pronto!");
  });
  it("question answers are written on the contact (e-mail, name, an extra field); media sends the file list's file with the caption; {{protocol}} is the cycle's protocol", async () => {
    const a = await createTenant(t);
    const list = await t.call("POST", "/files", { token: a.adminToken, body: { name: "Catálogo", message: "Segue", options: [{ name: "Verão" }] } });
    expect(list.status).toBe(200);
    const form = new FormData();
    form.append("files", pngFile("verao.png"));
    form.append("id", String(list.body.options[0].id));
    expect((await t.app.request(`/api/files/uploadList/${list.body.id}`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.adminToken}` } })).status).toBe(200);
    const id = await publish(a, {
      name: "Cadastro",
      nodes: [
        { id: "s", type: "start", data: {} },
        { id: "email", type: "question", data: { text: "E-mail?", saveAs: "contact.email", validate: "email" } },
        { id: "name", type: "question", data: { text: "Nome?", saveAs: "contact.name", validate: "text" } },
        { id: "cpf", type: "question", data: { text: "CPF?", saveAs: "contact.extra.cpf", validate: "cpf" } },
        { id: "cat", type: "media", data: { fileListId: list.body.id, caption: "Catálogo para {{contact.name}}" } },
        { id: "end", type: "end", data: { text: "Protocolo {{protocol}}", closeTicket: false } },
      ],
      edges: [
        { source: "s", target: "email" },
        { source: "email", target: "name" },
        { source: "name", target: "cpf" },
        { source: "cpf", target: "cat" },
        { source: "cat", target: "end" },
      ],
    });
    await onConnection(a, id);
    const c = customer(a);
    expect(await c.says("oi")).toEqual(["E-mail?"]);
    expect(await c.says("ana.souza@x.com")).toEqual(["Nome?"]);
    expect(await c.says("Ana Souza")).toEqual(["CPF?"]);
    const last = await c.says("529.982.247-25");
    const ticket = (await c.ticket()) as unknown as { id: number; protocol: string | null; contact: { id: number } };
    // the protocol as the ticket shows it (YYYYMMDD + the day's sequence), not the ticket id
    expect(ticket.protocol).toMatch(/^\d{14}$/);
    expect(last).toEqual(["Catálogo para Ana Souza", `Protocolo ${ticket.protocol}`]);
    // the media message carries the file list's file, the caption as its body
    const mediaSend = t.commands.sent.find((x) => x.type === "send" && x.companyId === a.company.id && x.body === "Catálogo para Ana Souza") as { media?: { key: string; mimetype: string; filename?: string; kind: string } };
    expect(mediaSend.media).toMatchObject({ mimetype: "image/png", filename: "verao.png", kind: "image" });
    expect(mediaSend.media!.key.startsWith(`${a.company.id}/`)).toBe(true);
    // the contact page shows what the flow learnt
    const contact = await t.call("GET", `/contacts/${ticket.contact.id}`, { token: a.adminToken });
    expect(contact.body).toMatchObject({ name: "Ana Souza", email: "ana.souza@x.com" });
    expect(contact.body.extraInfo).toEqual(expect.arrayContaining([expect.objectContaining({ name: "cpf", value: "52998224725" })]));
  });

  it("an uploaded file (POST /flows/media) on a media node is sent with its caption", async () => {
    const a = await createTenant(t);
    const form = new FormData();
    form.append("file", pdfFile("tabela de preços.pdf"));
    const up = await t.app.request("/api/flows/media", { method: "POST", body: form, headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(up.status).toBe(201);
    const file = (await up.json()) as { key: string; name: string; mimetype: string };
    expect(file).toMatchObject({ name: "tabela de preços.pdf", mimetype: "application/pdf" });
    expect(file.key.startsWith(`${a.company.id}/`)).toBe(true);
    // the stored bytes are the company's, served back to it
    expect((await t.app.request(`/api/media/${file.key}`, { headers: { authorization: `Bearer ${a.adminToken}` } })).status).toBe(200);
    const id = await publish(a, {
      name: "Tabela",
      nodes: [
        { id: "s", type: "start", data: {} },
        { id: "m", type: "media", data: { file, caption: "Tabela para {{contact.name}}" } },
        { id: "e", type: "end", data: {} },
      ],
      edges: [
        { source: "s", target: "m" },
        { source: "m", target: "e" },
      ],
    });
    await onConnection(a, id);
    const c = customer(a);
    expect(await c.says("oi")).toEqual(["Tabela para Ana"]);
    const sent = t.commands.sent.find((x) => x.type === "send" && x.companyId === a.company.id && x.body === "Tabela para Ana") as { media?: { key: string; mimetype: string; filename?: string; kind: string } };
    expect(sent.media).toMatchObject({ key: file.key, mimetype: "application/pdf", filename: "tabela de preços.pdf", kind: "document" });
  });

  it("a media node naming another company's file sends only its caption, never that file", async () => {
    const a = await createTenant(t);
    const other = await createTenant(t);
    const id = await publish(a, {
      name: "Alheio",
      nodes: [
        { id: "s", type: "start", data: {} },
        { id: "m", type: "media", data: { file: { key: `${other.company.id}/x/segredo.pdf`, name: "segredo.pdf", mimetype: "application/pdf" }, caption: "Legenda" } },
        { id: "e", type: "end", data: {} },
      ],
      edges: [
        { source: "s", target: "m" },
        { source: "m", target: "e" },
      ],
    });
    await onConnection(a, id);
    const c = customer(a);
    expect(await c.says("oi")).toEqual(["Legenda"]);
    expect(t.commands.sent.some((x) => x.type === "send" && x.companyId === a.company.id && "media" in x && x.media)).toBe(false);
  });

  it("a connection's flow starts a new conversation; a queue's flow too; the connection's comes first when both have one", async () => {
    const a = await createTenant(t);
    const say = (text: string) => ({ name: text, nodes: [{ id: "s", type: "start", data: {} }, { id: "e", type: "end", data: { text, closeTicket: false } }], edges: [{ source: "s", target: "e" }] }) as FlowInput;
    const ofConnection = await publish(a, say("fluxo da conexão"));
    const ofQueue = await publish(a, say("fluxo da fila"));
    // one queue on the connection: a new conversation lands in it
    const wa = (await t.call("GET", `/whatsapp/${a.whatsapp.id}`, { token: a.adminToken })).body;
    expect((await t.call("PUT", `/whatsapp/${a.whatsapp.id}`, { token: a.adminToken, body: { ...wa, queueIds: [a.queues[0]!.id], flowId: null } })).status).toBe(200);
    const q = (await t.call("GET", `/queue/${a.queues[0]!.id}`, { token: a.adminToken })).body;
    const put = await t.call("PUT", `/queue/${a.queues[0]!.id}`, { token: a.adminToken, body: { ...q, flowId: ofQueue } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.flowId).toBe(ofQueue);
    expect(await customer(a).says("oi")).toEqual(["fluxo da fila"]);
    await onConnection(a, ofConnection);
    expect(await customer(a).says("oi")).toEqual(["fluxo da conexão"]);
    // a queue chosen from the connection's queue menu starts that queue's flow at once
    const b2 = await createTenant(t);
    const ofSecond = await publish(b2, say("fluxo da segunda fila"));
    const q2 = (await t.call("GET", `/queue/${b2.queues[1]!.id}`, { token: b2.adminToken })).body;
    expect((await t.call("PUT", `/queue/${b2.queues[1]!.id}`, { token: b2.adminToken, body: { ...q2, flowId: ofSecond } })).status).toBe(200);
    const picker = customer(b2);
    expect((await picker.says("oi")).join("\n")).toContain(b2.queues[1]!.name);
    expect(await picker.says("2")).toEqual(["fluxo da segunda fila"]);
    expect((await picker.ticket()).queueId).toBe(b2.queues[1]!.id);
    // a flow that is not published cannot be picked
    const draft = (await t.call("POST", "/flows", { token: a.adminToken, body: say("rascunho") })).body.id as number;
    const refused = await t.call("PUT", `/queue/${a.queues[0]!.id}`, { token: a.adminToken, body: { ...q, flowId: draft } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
  });
});
