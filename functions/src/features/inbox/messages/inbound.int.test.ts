import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, customerMessage, deliver, waId } from "../../../testing/inbox-fixtures";

let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
});

const ticketsOf = async (number: string, tenant = a) => (await adminTickets(t, tenant)).filter((x) => x.contact.number === number);
const messagesOf = async (ticketId: number, tenant = a) => (await t.call("GET", `/messages/${ticketId}`, { token: tenant.adminToken })).body.messages as { id: string; body: string; fromMe: boolean; ack: number; error: string | null; mediaUrl: string | null; mediaType: string }[];

describe("inbound message pipeline", () => {
  it("turns a first message into a contact, a pending ticket with one unread message and the stored message", async () => {
    await deliver(t, customerMessage(a, { number: "5511911110001", body: "Quero comprar", pushName: "Ana Souza" }));
    const [ticket] = await ticketsOf("5511911110001");
    // the connection has two queues: the bot answered with the queue menu, which is now the last message
    expect(ticket).toMatchObject({ status: "pending", userId: null, unreadMessages: 1, contact: { name: "Ana Souza" } });
    const messages = await messagesOf(ticket!.id);
    expect(messages.find((m) => m.body === "Quero comprar")).toMatchObject({ fromMe: false });
  });

  it("stores the same WhatsApp message once when the event is delivered twice", async () => {
    const ev = customerMessage(a, { number: "5511911110002", body: "duplicado" });
    await deliver(t, ev);
    await deliver(t, ev);
    const [ticket] = await ticketsOf("5511911110002");
    expect(ticket!.unreadMessages).toBe(1);
    expect((await messagesOf(ticket!.id)).filter((m) => m.body === "duplicado")).toHaveLength(1);
  });

  it("treats a Brazilian mobile with and without the ninth digit as one contact and one ticket", async () => {
    await deliver(t, customerMessage(a, { number: "551188887777", body: "sem nono" }));
    await deliver(t, customerMessage(a, { number: "5511988887777", body: "com nono" }));
    const tickets = await ticketsOf("5511988887777");
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.unreadMessages).toBe(2);
    expect(await ticketsOf("551188887777")).toHaveLength(0);
  });

  it("resolves a LID and the number of the same person to one contact", async () => {
    await deliver(t, customerMessage(a, { number: "5511911110003", chatJid: "99887766554433@lid", lid: "99887766554433", body: "pelo lid" }));
    await deliver(t, customerMessage(a, { number: "5511911110003", body: "pelo numero" }));
    const tickets = await ticketsOf("5511911110003");
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.unreadMessages).toBe(2);
  });

  describe("a LID and a number WhatsApp says are the same person (contact.identity)", () => {
    const lidOnly = (lid: string, body: string) =>
      customerMessage(a, { chatJid: `${lid}@lid`, body, extra: { sender: { jid: `${lid}@lid`, lid, pushName: `Lid ${lid}` } } });
    const ticketsOfLid = async (lid: string) => (await adminTickets(t, a)).filter((x) => x.contact.name === `Lid ${lid}`);
    const identity = (lid: string, number: string) => ({ type: "contact.identity", eventId: `lid:${lid}:${number}`, companyId: a.company.id, whatsappId: a.whatsapp.id, lid, number }) as const;
    const ticketsOfContact = async (contactId: number) => (await adminTickets(t, a)).filter((x) => x.contact.id === contactId);

    it("a known number learns its LID: a later message from the LID alone lands on the same contact and ticket", async () => {
      await deliver(t, customerMessage(a, { number: "5511911120001", body: "pelo numero" }));
      const [ticket] = await ticketsOf("5511911120001");
      await deliver(t, identity("70000000000001", "5511911120001"));
      await deliver(t, lidOnly("70000000000001", "pelo lid"));
      const all = await ticketsOfContact(ticket!.contact.id);
      expect(all).toHaveLength(1);
      expect(all[0]!.unreadMessages).toBe(2);
      expect((await messagesOf(ticket!.id)).map((m) => m.body)).toEqual(expect.arrayContaining(["pelo numero", "pelo lid"]));
    });

    it("a LID-only contact learns its number (ninth digit normalised): a later message by number lands on it", async () => {
      await deliver(t, lidOnly("70000000000002", "so lid"));
      const [first] = await ticketsOfLid("70000000000002");
      expect(first!.contact.number).toBe("");
      await deliver(t, identity("70000000000002", "551191120002"));
      await deliver(t, customerMessage(a, { number: "5511991120002", body: "agora pelo numero" }));
      const all = await ticketsOfContact(first!.contact.id);
      expect(all).toHaveLength(1);
      expect(all[0]!.unreadMessages).toBe(2);
      expect(all[0]!.contact.number).toBe("5511991120002");
    });

    it("both forms already separate contacts: later LID messages go to the number's contact", async () => {
      await deliver(t, customerMessage(a, { number: "5511911120003", body: "numero primeiro" }));
      await deliver(t, lidOnly("70000000000003", "lid separado"));
      const [byNumber] = await ticketsOf("5511911120003");
      const [byLid] = await ticketsOfLid("70000000000003");
      expect(byLid!.contact.id).not.toBe(byNumber!.contact.id);
      await deliver(t, identity("70000000000003", "5511911120003"));
      await deliver(t, lidOnly("70000000000003", "depois do vinculo"));
      expect((await messagesOf(byNumber!.id)).map((m) => m.body)).toContain("depois do vinculo");
      expect((await messagesOf(byLid!.id)).map((m) => m.body)).not.toContain("depois do vinculo");
    });
  });

  it("a contact.picture event sets the contact's profilePicUrl; an unknown person gets no contact", async () => {
    await deliver(t, customerMessage(a, { number: "5511911130001", body: "oi com foto" }));
    const [ticket] = await ticketsOf("5511911130001");
    const url = "https://pps.whatsapp.net/v/t61.24694-24/5511911130001.jpg?oh=abc";
    const picture = (chatJid: string, profilePicUrl: string) => ({ type: "contact.picture", eventId: waId(), companyId: a.company.id, whatsappId: a.whatsapp.id, chatJid, profilePicUrl }) as const;
    await deliver(t, picture("5511911130001@s.whatsapp.net", url));
    const contact = await t.call("GET", `/contacts/${ticket!.contact.id}`, { token: a.adminToken });
    expect(contact.body.profilePicUrl).toBe(url);
    expect((await ticketsOf("5511911130001"))[0]!.contact.profilePicUrl).toBe(url);
    const before = (await t.call("GET", "/contacts", { token: a.adminToken })).body.count;
    await deliver(t, picture("5511911130099@s.whatsapp.net", "https://pps.whatsapp.net/v/x.jpg"));
    expect((await t.call("GET", "/contacts", { token: a.adminToken })).body.count).toBe(before);
  });

  it("creates one ticket when two first messages of a new customer arrive at the same time", async () => {
    await Promise.all([
      deliver(t, customerMessage(a, { number: "5511911110004", body: "primeira" })),
      deliver(t, customerMessage(a, { number: "5511911110004", body: "segunda" })),
      deliver(t, customerMessage(a, { number: "551111110004".replace(/^5511/, "5511"), body: "terceira" })),
    ]);
    const tickets = await ticketsOf("5511911110004");
    expect(tickets).toHaveLength(1);
    const bodies = (await messagesOf(tickets[0]!.id)).map((m) => m.body);
    expect(bodies).toEqual(expect.arrayContaining(["primeira", "segunda"]));
  });

  it("stores a message sent from the company's own phone as fromMe in the customer's ticket, without unread", async () => {
    await deliver(t, customerMessage(a, { number: "5511911110005", body: "oi" }));
    await deliver(t, customerMessage(a, { number: "5511911110005", body: "respondi pelo celular", fromMe: true }));
    const [ticket] = await ticketsOf("5511911110005");
    expect(ticket!.unreadMessages).toBe(1);
    expect((await messagesOf(ticket!.id)).find((m) => m.body === "respondi pelo celular")).toMatchObject({ fromMe: true });
  });

  it("recognises the echo of a message we sent by its id", async () => {
    await deliver(t, customerMessage(a, { number: "5511911110006", body: "oi" }));
    const [ticket] = await ticketsOf("5511911110006");
    await t.call("PUT", `/tickets/${ticket!.id}`, { token: a.adminToken, body: { status: "open" } });
    const sent = await t.call("POST", `/messages/${ticket!.id}`, { token: a.adminToken, body: { body: "resposta" } });
    expect(sent.status).toBe(201);
    await deliver(t, customerMessage(a, { number: "5511911110006", id: sent.body.id, body: "resposta", fromMe: true }));
    expect((await messagesOf(ticket!.id)).filter((m) => m.body === "resposta")).toHaveLength(1);
  });

  it("ignores group messages when CheckMsgIsGroup is enabled and never runs the bot in groups otherwise", async () => {
    const group = (tenant: Tenant, body: string) =>
      customerMessage(tenant, { chatJid: "120363000000000001@g.us", body, extra: { isGroup: true, groupSubject: "Grupo Teste" } });
    await deliver(t, group(a, "no grupo"));
    expect((await adminTickets(t, a)).some((x) => x.lastMessage === "no grupo")).toBe(false);

    const g = await createTenant(t, { settings: { CheckMsgIsGroup: "disabled" } });
    const before = t.commands.sent.length;
    await deliver(t, group(g, "no grupo liberado"));
    const tickets = await adminTickets(t, g);
    expect(tickets.find((x) => x.lastMessage === "no grupo liberado")?.contact.name).toBe("Grupo Teste");
    expect(t.commands.sent.slice(before).filter((c) => c.companyId === g.company.id && c.type === "send")).toHaveLength(0);
  });

  it("moves acks forward only and shows a failed send with its reason", async () => {
    await deliver(t, customerMessage(a, { number: "5511911110007", body: "oi" }));
    const [ticket] = await ticketsOf("5511911110007");
    await t.call("PUT", `/tickets/${ticket!.id}`, { token: a.adminToken, body: { status: "open" } });
    const ok = await t.call("POST", `/messages/${ticket!.id}`, { token: a.adminToken, body: { body: "um" } });
    const bad = await t.call("POST", `/messages/${ticket!.id}`, { token: a.adminToken, body: { body: "dois" } });
    expect(ok.body.ack).toBe(0);
    const base = { companyId: a.company.id, whatsappId: a.whatsapp.id, eventId: waId() };
    await deliver(
      t,
      { ...base, type: "command.result", commandId: ok.body.id, messageId: ok.body.id, ok: true },
      { ...base, eventId: waId(), type: "message.update", messageId: ok.body.id, chatJid: "x", ack: 3 },
      { ...base, eventId: waId(), type: "message.update", messageId: ok.body.id, chatJid: "x", ack: 2 },
      { ...base, eventId: waId(), type: "command.result", commandId: bad.body.id, messageId: bad.body.id, ok: false, error: "not-on-whatsapp" },
    );
    const messages = await messagesOf(ticket!.id);
    expect(messages.find((m) => m.id === ok.body.id)).toMatchObject({ ack: 3, error: null });
    expect(messages.find((m) => m.id === bad.body.id)).toMatchObject({ ack: 0, error: "not-on-whatsapp" });
  });

  it("applies edits and deletes made on WhatsApp", async () => {
    const ev = customerMessage(a, { number: "5511911110008", body: "original" });
    await deliver(t, ev);
    const base = { companyId: a.company.id, whatsappId: a.whatsapp.id, chatJid: "x" };
    await deliver(t, { ...base, eventId: waId(), type: "message.update", messageId: ev.type === "message" ? ev.message.id : "", body: "editado" });
    const [ticket] = await ticketsOf("5511911110008");
    expect((await messagesOf(ticket!.id)).find((m) => m.body === "editado")).toBeTruthy();
  });

  it("serves stored media back through mediaUrl, only to the owning company", async () => {
    const key = `${a.company.id}/2026/01/abc-foto.jpg`;
    await t.container.media.put(key, new Uint8Array([9, 8, 7]), "image/jpeg");
    await deliver(t, customerMessage(a, { number: "5511911110009", body: "", extra: { type: "image", media: { key, mimetype: "image/jpeg", filename: "foto.jpg" } } }));
    const [ticket] = await ticketsOf("5511911110009");
    const m = (await messagesOf(ticket!.id)).find((x) => x.mediaType === "image")!;
    expect(m.mediaUrl).toMatch(/^\/api\/media\//);
    const res = await t.app.request(m.mediaUrl!, { headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([9, 8, 7]));
    const b = await createTenant(t);
    const other = await t.app.request(m.mediaUrl!, { headers: { authorization: `Bearer ${b.adminToken}` } });
    expect(other.status).toBe(404);
  });

  it("stores every media type of the spec", async () => {
    const types = ["audio", "video", "document", "sticker", "locationMessage", "contactMessage"] as const;
    for (const type of types) {
      await deliver(t, customerMessage(a, { number: "5511911110010", body: type === "locationMessage" ? "img|https://maps|Casa" : type === "contactMessage" ? "BEGIN:VCARD" : "", extra: { type } }));
    }
    const [ticket] = await ticketsOf("5511911110010");
    const stored = (await messagesOf(ticket!.id)).map((m) => m.mediaType);
    expect(stored).toEqual(expect.arrayContaining(["audio", "video", "application", "sticker", "locationMessage", "contactMessage"]));
  });
});

describe("media over the size limit", () => {
  it("a document the session host refused reaches the ticket without media, marked with the reason", async () => {
    await deliver(t, customerMessage(a, { number: "5511911110014", body: "enorme.zip", extra: { type: "document", mediaRefused: { reason: "tooLarge", size: 200_000_000, limit: 67_108_864 } } }));
    const [ticket] = await ticketsOf("5511911110014");
    const m = (await messagesOf(ticket!.id)).find((x) => x.body === "enorme.zip")!;
    expect(m).toMatchObject({ mediaUrl: null, error: "ERR_WAPP_MEDIA_TOO_LARGE" });
  });
});

describe("presence and reactions", () => {
  it("pushes the customer's typing to sockets that see the ticket and applies reactions to the target message", async () => {
    const ev = customerMessage(a, { number: "5511911110013", body: "vou mandar foto" });
    await deliver(t, ev);
    const [ticket] = await ticketsOf("5511911110013");
    await t.container.services.sockets.connect("presence-admin", a.adminToken);
    const mark = t.sender.frames.length;
    await deliver(t, { type: "presence", eventId: waId(), companyId: a.company.id, whatsappId: a.whatsapp.id, chatJid: "5511911110013@s.whatsapp.net", presence: "composing" });
    const frames = t.sender.frames.slice(mark).map((f) => f.frame as { event: string; data: { ticketId: number; presence: string } });
    expect(frames).toContainEqual(expect.objectContaining({ event: "presence", data: { ticketId: ticket!.id, presence: "composing" } }));
    const targetId = ev.type === "message" ? ev.message.id : "";
    await deliver(t, customerMessage(a, { number: "5511911110013", body: "", extra: { type: "reactionMessage", reaction: { targetId, emoji: "❤️" } } }));
    expect((await messagesOf(ticket!.id)).find((m) => m.id === targetId)).toMatchObject({ reactions: [expect.objectContaining({ emoji: "❤️", fromMe: false })] });
  });
});

describe("calls", () => {
  it("rejects a call with the call setting disabled, sends the notice and creates no empty ticket", async () => {
    const before = t.commands.sent.length;
    await deliver(t, { type: "call", eventId: waId(), companyId: a.company.id, whatsappId: a.whatsapp.id, callId: "call-1", from: "5511911110011@s.whatsapp.net", isVideo: false });
    const sent = t.commands.sent.slice(before);
    expect(sent.some((c) => c.type === "rejectCall")).toBe(true);
    expect(sent.some((c) => c.type === "send" && c.chatJid === "5511911110011@s.whatsapp.net")).toBe(true);
    expect(await ticketsOf("5511911110011")).toHaveLength(0);
  });

  it("logs the call in the caller's open ticket", async () => {
    await deliver(t, customerMessage(a, { number: "5511911110012", body: "oi" }));
    await deliver(t, { type: "call", eventId: waId(), companyId: a.company.id, whatsappId: a.whatsapp.id, callId: "call-2", from: "5511911110012@s.whatsapp.net", isVideo: true });
    const [ticket] = await ticketsOf("5511911110012");
    expect((await messagesOf(ticket!.id)).some((m) => m.mediaType === "call_log")).toBe(true);
  });
});

describe("with the company's lookups reused between messages (INBOX_DIRECTORY_TTL_MS)", () => {
  it("the first customer message of a connection created a moment after the lookups were read is stored, not dropped", async () => {
    const cached = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "600000" });
    const tenant = await createTenant(cached);
    // a message reads the company's lookups (connections included) and keeps them for the TTL
    await deliver(cached, customerMessage(tenant, { number: "5511911190001", body: "antes" }));
    const created = await cached.call("POST", "/whatsapp", { token: tenant.adminToken, body: { name: "Nova conexão", isDefault: false } });
    expect(created.status).toBe(200);
    const newId = (created.body as { id: number }).id;
    await deliver(cached, { ...customerMessage(tenant, { number: "5511911190002", body: "pela conexão nova" }), whatsappId: newId });
    const [ticket] = (await adminTickets(cached, tenant)).filter((x) => x.contact.number === "5511911190002");
    expect(ticket).toBeDefined();
    expect(((await cached.call("GET", `/messages/${ticket!.id}`, { token: tenant.adminToken })).body.messages as { body: string }[]).map((m) => m.body)).toContain("pela conexão nova");
  });
});
