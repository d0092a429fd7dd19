import { beforeAll, describe, expect, it } from "vitest";
import { consumeInbound } from "../../app/inbound-consumer";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp({ WHATSAPP_CHANNEL: "simulator" });
  a = await createTenant(t);
  b = await createTenant(t);
  await t.container.services.sockets.connect("a-admin-sock", a.adminToken);
  await t.container.services.sockets.connect("a-user-sock", a.userToken);
  await t.container.services.sockets.connect("b-admin-sock", b.adminToken);
});

const form = (name: string, extra: Record<string, unknown> = {}) => ({ name, greetingMessage: "Olá", queueIds: [], ...extra });
const inbound = (body: unknown) =>
  consumeInbound(t.container, {
    Records: [{ messageId: String(Math.random()), receiptHandle: "", body: JSON.stringify(body), attributes: { MessageGroupId: "g" } as never, messageAttributes: {}, md5OfBody: "", eventSource: "", eventSourceARN: "", awsRegion: "" }],
  });
const commandsFor = (companyId: number, whatsappId: number) => t.commands.sent.filter((c) => c.companyId === companyId && c.whatsappId === whatsappId);

describe("GET /whatsapp", () => {
  it("lists the company's connections with queues; the token only for admins", async () => {
    const admin = await t.call("GET", "/whatsapp/?session=0", { token: a.adminToken });
    expect(admin.status).toBe(200);
    expect(admin.body.map((w: { id: number }) => w.id)).toContain(a.whatsapp.id);
    const mine = admin.body.find((w: { id: number }) => w.id === a.whatsapp.id);
    expect(mine).toMatchObject({ name: "Simulador", isDefault: true, status: "CONNECTED", token: a.whatsapp.token });
    expect(mine.queues.map((q: { id: number }) => q.id)).toEqual(a.queues.map((q) => q.id));
    const user = await t.call("GET", "/whatsapp/?session=0", { token: a.userToken });
    expect(user.status).toBe(200);
    expect(user.body[0].token).toBe("");
    expect(user.body.some((w: { id: number }) => w.id === b.whatsapp.id && b.company.id !== a.company.id && w.id !== a.whatsapp.id)).toBe(false);
  });

  it("needs a token", async () => {
    expect((await t.call("GET", "/whatsapp/")).status).toBe(401);
  });
});

describe("POST /whatsapp", () => {
  it("creates with the spec's defaults, a long platform token, and asks the session host to start it", async () => {
    const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name: "Vendas", token: "chosen-by-client" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Vendas", maxUseBotQueues: 3, timeUseBotQueues: 0, expiresTicket: 0, provider: "beta", isDefault: false, status: "OPENING", channel: "simulator" });
    expect(res.body.token).not.toBe("chosen-by-client");
    expect(res.body.token.length).toBeGreaterThanOrEqual(40);
    const cmds = commandsFor(a.company.id, res.body.id);
    expect(cmds.map((c) => c.type)).toEqual(["session.start"]);
    expect(cmds[0]).toMatchObject({ channel: "simulator" });
    const frames = t.sender.frames.filter((f) => (f.frame as { event: string; data: { whatsapp?: { id: number } } }).event === "whatsapp" && (f.frame as { data: { whatsapp?: { id: number } } }).data.whatsapp?.id === res.body.id);
    // admins only: the token travels with it
    expect(frames.map((f) => f.connectionId)).toEqual(["a-admin-sock"]);
  });

  it("validates the name: Required, Too Short!, Too Long!; nothing stored", async () => {
    const before = (await t.call("GET", "/whatsapp/", { token: a.adminToken })).body.length;
    for (const [name, message] of [["", "Required"], ["a", "Too Short!"], ["x".repeat(51), "Too Long!"]] as const) {
      const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      expect(res.body.issues?.[0]?.message ?? JSON.stringify(res.body)).toContain(message);
    }
    const missing = await t.call("POST", "/whatsapp", { token: a.adminToken, body: {} });
    expect(missing.status).toBe(400);
    expect((await t.call("GET", "/whatsapp/", { token: a.adminToken })).body.length).toBe(before);
  });

  it("refuses a duplicate name in the company, but another company may use it", async () => {
    await t.call("POST", "/whatsapp", { token: a.adminToken, body: form("Suporte") });
    const dup = await t.call("POST", "/whatsapp", { token: a.adminToken, body: form(" suporte ") });
    expect(dup).toMatchObject({ status: 409, body: { error: "ERR_DUPLICATED_NAME" } });
    const other = await t.call("POST", "/whatsapp", { token: b.adminToken, body: form("Suporte") });
    expect(other.status).toBe(200);
  });

  it("requires a greeting when more than one queue is chosen", async () => {
    const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name: "Duas filas", greetingMessage: "", queueIds: a.queues.map((q) => q.id) } });
    expect(res).toMatchObject({ status: 400, body: { error: "ERR_WAPP_GREETING_REQUIRED" } });
    const one = await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name: "Uma fila", greetingMessage: "", queueIds: [a.queues[0]?.id] } });
    expect(one.status).toBe(200);
  });

  it("refuses queue ids the company does not have", async () => {
    const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: form("Fila alheia", { queueIds: [9999] }) });
    expect(res).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
  });

  it("enforces the plan's connection limit", async () => {
    const c = await createTenant(t, { plan: { connections: 1 } });
    const res = await t.call("POST", "/whatsapp", { token: c.adminToken, body: form("Segunda") });
    expect(res).toMatchObject({ status: 403, body: { error: "ERR_PLAN_LIMIT_CONNECTIONS" } });
  });

  it("is for admins only", async () => {
    const res = await t.call("POST", "/whatsapp", { token: a.userToken, body: form("Do atendente") });
    expect(res).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
  });
});

describe("PUT /whatsapp/{id} and the default connection", () => {
  it("moves the default flag; unsetting the only default is ERR_NO_OTHER_WHATSAPP", async () => {
    const c = await createTenant(t);
    const created = await t.call("POST", "/whatsapp", { token: c.adminToken, body: form("Outra") });
    const refused = await t.call("PUT", `/whatsapp/${c.whatsapp.id}`, { token: c.adminToken, body: form("Simulador", { isDefault: false }) });
    expect(refused).toMatchObject({ status: 400, body: { error: "ERR_NO_OTHER_WHATSAPP" } });
    const moved = await t.call("PUT", `/whatsapp/${created.body.id}`, { token: c.adminToken, body: form("Outra", { isDefault: true, maxUseBotQueues: "5" }) });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ isDefault: true, maxUseBotQueues: 5 });
    const list = (await t.call("GET", "/whatsapp/", { token: c.adminToken })).body;
    expect(list.filter((w: { isDefault: boolean }) => w.isDefault).map((w: { id: number }) => w.id)).toEqual([created.body.id]);
  });

  it("renames, keeping names unique", async () => {
    const c = await createTenant(t);
    const x = await t.call("POST", "/whatsapp", { token: c.adminToken, body: form("Xis") });
    const dup = await t.call("PUT", `/whatsapp/${x.body.id}`, { token: c.adminToken, body: form("Simulador") });
    expect(dup).toMatchObject({ status: 409, body: { error: "ERR_DUPLICATED_NAME" } });
    const ok = await t.call("PUT", `/whatsapp/${x.body.id}`, { token: c.adminToken, body: form("Ipsilon") });
    expect(ok.body.name).toBe("Ipsilon");
    // the old name is free again
    expect((await t.call("POST", "/whatsapp", { token: c.adminToken, body: form("Xis") })).status).toBe(200);
  });
});

describe("cross-tenant", () => {
  it("company B cannot read, change, delete or drive company A's connection", async () => {
    const id = a.whatsapp.id;
    const before = (await t.call("GET", `/whatsapp/${id}`, { token: a.adminToken })).body;
    // ids are per company, so B may own a connection with the same number: make sure it is A's that is asked for
    const bOwn = (await t.call("GET", "/whatsapp/", { token: b.adminToken })).body.map((w: { id: number }) => w.id);
    const foreignId = Math.max(...bOwn, id) + 50;
    const sentBefore = t.commands.sent.length;
    for (const [method, path] of [
      ["GET", `/whatsapp/${foreignId}`],
      ["PUT", `/whatsapp/${foreignId}`],
      ["DELETE", `/whatsapp/${foreignId}`],
      ["POST", `/whatsappsession/${foreignId}`],
      ["PUT", `/whatsappsession/${foreignId}`],
      ["DELETE", `/whatsappsession/${foreignId}`],
      ["POST", `/whatsappsession/${foreignId}/pairingcode`],
    ] as const) {
      const body = method === "PUT" && path.startsWith("/whatsapp/") ? form("Roubada") : path.endsWith("/pairingcode") ? { number: "11 94444-3333" } : undefined;
      const res = await t.call(method, path, { token: b.adminToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe("ERR_NO_WAPP_FOUND");
    }
    expect(t.commands.sent.length).toBe(sentBefore);
    expect((await t.call("GET", `/whatsapp/${id}`, { token: a.adminToken })).body).toEqual(before);
  });

  it("a connection event only reaches its own company's admins", async () => {
    t.sender.frames.length = 0;
    await inbound({ eventId: "e-x", type: "connection", companyId: a.company.id, whatsappId: a.whatsapp.id, status: "qrcode", qrcode: "QR-A", retries: 0 });
    expect(t.sender.frames.map((f) => [f.connectionId, (f.frame as { channel: string }).channel])).toEqual([["a-admin-sock", `company-${a.company.id}-whatsappSession`]]);
  });
});

describe("sessions: /whatsappsession and /whatsapp-restart", () => {
  it("start, new QR and disconnect send the matching commands; attendants may not", async () => {
    const id = a.whatsapp.id;
    const start = t.commands.sent.length;
    expect((await t.call("POST", `/whatsappsession/${id}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("PUT", `/whatsappsession/${id}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("DELETE", `/whatsappsession/${id}`, { token: a.adminToken })).status).toBe(200);
    expect(t.commands.sent.slice(start).map((c) => c.type)).toEqual(["session.start", "session.newQr", "session.logout"]);
    expect((await t.call("POST", `/whatsappsession/${id}`, { token: a.userToken })).status).toBe(403);
    expect((await t.call("POST", "/whatsappsession/abc", { token: a.adminToken })).body.error).toBe("ERR_NO_WAPP_FOUND");
  });

  it("a pairing code is asked for with a Brazilian number; a bad number is refused and sends nothing; attendants may not", async () => {
    const id = a.whatsapp.id;
    const start = t.commands.sent.length;
    const res = await t.call("POST", `/whatsappsession/${id}/pairingcode`, { token: a.adminToken, body: { number: "+55 (11) 94444-3333" } });
    expect(res.status).toBe(200);
    expect(t.commands.sent.slice(start)).toEqual([expect.objectContaining({ type: "session.pairingCode", companyId: a.company.id, whatsappId: id, phoneNumber: "5511944443333", channel: "simulator" })]);
    for (const number of ["123", "+1 415 555 0100", "", 5511944443333]) {
      const bad = await t.call("POST", `/whatsappsession/${id}/pairingcode`, { token: a.adminToken, body: { number } });
      expect(bad.status, String(number)).toBe(400);
      expect(bad.body.error).toBe("ERR_WAPP_INVALID_CONTACT");
    }
    expect((await t.call("POST", `/whatsappsession/${id}/pairingcode`, { token: a.userToken, body: { number: "11944443333" } })).status).toBe(403);
    expect(t.commands.sent.length).toBe(start + 1);
  });

  it("the pairing code travels on the connection and live to admins, and goes once the phone pairs", async () => {
    const c = await createTenant(t);
    const id = c.whatsapp.id;
    await t.container.services.sockets.connect("c2-admin-sock", c.adminToken);
    t.sender.frames.length = 0;
    await inbound({ eventId: "p1", type: "connection", companyId: c.company.id, whatsappId: id, status: "qrcode", qrcode: "", pairingCode: "ABCD2345" });
    expect((await t.call("GET", `/whatsapp/${id}`, { token: c.adminToken })).body).toMatchObject({ status: "qrcode", pairingCode: "ABCD2345" });
    expect(t.sender.frames.at(-1)?.frame).toMatchObject({ event: "whatsappSession", data: { session: { id, pairingCode: "ABCD2345" } } });
    await inbound({ eventId: "p2", type: "connection", companyId: c.company.id, whatsappId: id, status: "PAIRING", qrcode: "" });
    expect((await t.call("GET", `/whatsapp/${id}`, { token: c.adminToken })).body.pairingCode).toBeNull();
  });

  it("restart reconnects every connection of the company only", async () => {
    const c = await createTenant(t);
    const start = t.commands.sent.length;
    const res = await t.call("POST", "/whatsapp-restart/", { token: c.adminToken });
    expect(res.status).toBe(200);
    const sent = t.commands.sent.slice(start);
    expect(sent.every((x) => x.companyId === c.company.id)).toBe(true);
    expect(sent.map((x) => x.type)).toEqual(["session.stop", "session.start"]);
    expect((await t.call("POST", "/whatsapp-restart/", { token: c.userToken })).status).toBe(403);
  });

  it("connection events update status, QR and number and go live to admins as whatsappSession", async () => {
    const c = await createTenant(t);
    const id = c.whatsapp.id;
    await t.container.services.sockets.connect("c-admin-sock", c.adminToken);
    t.sender.frames.length = 0;
    await inbound({ eventId: "e1", type: "connection", companyId: c.company.id, whatsappId: id, status: "qrcode", qrcode: "2@abc", retries: 1 });
    let w = (await t.call("GET", `/whatsapp/${id}`, { token: c.adminToken })).body;
    expect(w).toMatchObject({ status: "qrcode", qrcode: "2@abc", retries: 1 });
    const frame = t.sender.frames.at(-1)?.frame as { channel: string; event: string; data: { action: string; session: { id: number; qrcode: string } } };
    expect(frame).toMatchObject({ channel: `company-${c.company.id}-whatsappSession`, event: "whatsappSession", data: { action: "update", session: { id, qrcode: "2@abc" } } });
    await inbound({ eventId: "e2", type: "connection", companyId: c.company.id, whatsappId: id, status: "CONNECTED", qrcode: "", number: "5511987654321" });
    w = (await t.call("GET", `/whatsapp/${id}`, { token: c.adminToken })).body;
    expect(w).toMatchObject({ status: "CONNECTED", qrcode: "", number: "5511987654321", disconnectReason: null });
    // banned: the session host stops and says why; the page shows it until the next state
    await inbound({ eventId: "e2b", type: "connection", companyId: c.company.id, whatsappId: id, status: "DISCONNECTED", qrcode: "", reason: "forbidden" });
    w = (await t.call("GET", `/whatsapp/${id}`, { token: c.adminToken })).body;
    expect(w).toMatchObject({ status: "DISCONNECTED", disconnectReason: "forbidden" });
    await inbound({ eventId: "e2c", type: "connection", companyId: c.company.id, whatsappId: id, status: "OPENING", qrcode: "" });
    expect((await t.call("GET", `/whatsapp/${id}`, { token: c.adminToken })).body.disconnectReason).toBeNull();
  });

  it("a connection event for a deleted connection is ignored", async () => {
    const c = await createTenant(t);
    const x = await t.call("POST", "/whatsapp", { token: c.adminToken, body: form("Temporária") });
    expect((await t.call("DELETE", `/whatsapp/${x.body.id}`, { token: c.adminToken })).status).toBe(200);
    const res = await inbound({ eventId: "e3", type: "connection", companyId: c.company.id, whatsappId: x.body.id, status: "CONNECTED", qrcode: "" });
    expect(res.batchItemFailures).toEqual([]);
    expect((await t.call("GET", `/whatsapp/${x.body.id}`, { token: c.adminToken })).status).toBe(404);
  });
});

describe("DELETE /whatsapp/{id}", () => {
  it("logs the session out, deletes, and promotes another connection to default", async () => {
    const c = await createTenant(t);
    const other = await t.call("POST", "/whatsapp", { token: c.adminToken, body: form("Reserva") });
    const start = t.commands.sent.length;
    const res = await t.call("DELETE", `/whatsapp/${c.whatsapp.id}`, { token: c.adminToken });
    expect(res.status).toBe(200);
    expect(t.commands.sent.slice(start).map((x) => x.type)).toEqual(["session.logout"]);
    const list = (await t.call("GET", "/whatsapp/", { token: c.adminToken })).body;
    expect(list.map((w: { id: number; isDefault: boolean }) => [w.id, w.isDefault])).toEqual([[other.body.id, true]]);
    expect((await t.call("DELETE", `/whatsapp/${other.body.id}`, { token: c.userToken })).status).toBe(403);
  });
});

describe("number.checked", () => {
  it("stores the answer for whoever asked", async () => {
    await inbound({ eventId: "n1", type: "number.checked", companyId: a.company.id, whatsappId: a.whatsapp.id, requestId: "req-1", number: "5511999990000", exists: true, jid: "5511999990000@s.whatsapp.net" });
    expect(await t.container.repos.numberChecks.get(a.company.id, "req-1")).toMatchObject({ exists: true, jid: "5511999990000@s.whatsapp.net" });
    expect(await t.container.repos.numberChecks.get(b.company.id, "req-1")).toBeNull();
  });
});

describe("prompt and integration of a connection", () => {
  const promptOf = async (tenant: Tenant) =>
    (
      await t.call("POST", "/prompt", {
        token: tenant.adminToken,
        body: { name: "Atendente virtual", prompt: "Você é um atendente educado. Responda em português, com frases curtas e claras.", apiKey: "sk-test-0000000000001234", queueId: tenant.queues[0]!.id },
      })
    ).body as { id: number };

  it("points a connection at its own company's prompt, never at another company's", async () => {
    // ids are per company: D's second prompt (id 2) has no namesake in C, which has one prompt
    const c = await createTenant(t);
    const d = await createTenant(t);
    const mine = await promptOf(c);
    await promptOf(d);
    const theirs = await promptOf(d);
    expect(theirs.id).not.toBe(mine.id);
    const made = await t.call("POST", "/whatsapp", { token: c.adminToken, body: form("Com prompt", { promptId: mine.id }) });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.promptId).toBe(mine.id);
    const foreign = await t.call("PUT", `/whatsapp/${made.body.id}`, { token: c.adminToken, body: form("Com prompt", { promptId: theirs.id }) });
    expect(foreign).toMatchObject({ status: 404, body: { error: "ERR_NO_PROMPT_FOUND" } });
    const missingIntegration = await t.call("POST", "/whatsapp", { token: c.adminToken, body: form("Com integração", { integrationId: 987654 }) });
    expect(missingIntegration).toMatchObject({ status: 404, body: { error: "ERR_NO_INTEGRATION_FOUND" } });
    expect((await t.call("GET", `/whatsapp/${made.body.id}`, { token: c.adminToken })).body.promptId).toBe(mine.id);
  });

  it("refuses a prompt when the plan has no OpenAI", async () => {
    const c = await createTenant(t, { plan: { useOpenAi: false } });
    const res = await t.call("PUT", `/whatsapp/${c.whatsapp.id}`, { token: c.adminToken, body: form("Simulador", { promptId: 1 }) });
    expect(res).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
  });
});
