import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../../testing/inbox-fixtures";

let t: TestApp;
let a: Tenant;
let b: Tenant;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
});

/** An open ticket of the attendant (queue Vendas), with the customer's number. */
const openTicket = async () => {
  const number = `55119${String(50000000 + ++n)}`;
  await deliver(t, customerMessage(a, { number, body: "oi" }));
  await deliver(t, customerMessage(a, { number, body: "1" }));
  const tk = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
  await t.call("PUT", `/tickets/${tk.id}`, { token: a.userToken, body: { status: "open" } });
  return { ...tk, number, jid: `${number}@s.whatsapp.net` };
};
const sendsTo = (jid: string) => t.commands.sent.filter((c) => c.type === "send" && c.chatJid === jid);

describe("sending", () => {
  it("stores the message with ack 0 and sends it once with the id we chose; a retry with the same key sends nothing", async () => {
    const tk = await openTicket();
    const before = sendsTo(tk.jid).length;
    const first = await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "Olá, tudo bem?" }, headers: { "idempotency-key": "k-1" } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ body: "Olá, tudo bem?", fromMe: true, ack: 0, ticketId: tk.id });
    const retry = await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "Olá, tudo bem?" }, headers: { "idempotency-key": "k-1" } });
    expect(retry.body.id).toBe(first.body.id);
    const sent = sendsTo(tk.jid).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ messageId: first.body.id, body: "Olá, tudo bem?" });
    const list = await t.call("GET", `/messages/${tk.id}`, { token: a.userToken });
    expect(list.body.messages.filter((m: { id: string }) => m.id === first.body.id)).toHaveLength(1);
  });

  it("refuses an empty message", async () => {
    const tk = await openTicket();
    expect((await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "   " } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: 5 } })).body.error).toBe("ERR_VALIDATION");
  });

  it("sends a quoted reply and shows the quoted message", async () => {
    const tk = await openTicket();
    const list = await t.call("GET", `/messages/${tk.id}`, { token: a.userToken });
    const customerMsg = list.body.messages.find((m: { fromMe: boolean }) => !m.fromMe);
    const reply = await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "respondendo", quotedMsg: { id: customerMsg.id } } });
    expect(reply.body.quotedMsg).toMatchObject({ id: customerMsg.id, body: customerMsg.body });
    expect(sendsTo(tk.jid).at(-1)).toMatchObject({ quotedId: customerMsg.id });
  });

  it("uploads media through multipart medias and serves it back", async () => {
    const tk = await openTicket();
    const form = new FormData();
    // uploads are checked by content (docs/security.md): a real PDF's first bytes
    const pdf = new TextEncoder().encode("%PDF-1.4\n");
    form.append("medias", new File([pdf], "nota.pdf", { type: "application/pdf" }));
    form.append("body", "segue o arquivo");
    const res = await t.app.request(`/api/messages/${tk.id}`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.userToken}` } });
    expect(res.status).toBe(201);
    const m = (await res.json()) as { mediaUrl: string };
    expect(m).toMatchObject({ mediaType: "application", body: "segue o arquivo", mediaName: "nota.pdf" });
    expect(sendsTo(tk.jid).at(-1)).toMatchObject({ media: { kind: "document", mimetype: "application/pdf" } });
    const media = await t.app.request(m.mediaUrl, { headers: { authorization: `Bearer ${a.userToken}` } });
    expect(new Uint8Array(await media.arrayBuffer())).toEqual(pdf);
  });
});

describe("edit, delete, react, forward", () => {
  it("lets only the author's side edit and delete for everyone, sending both to WhatsApp", async () => {
    const tk = await openTicket();
    const sent = await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "errado" } });
    const edited = await t.call("POST", `/messages/edit/${sent.body.id}`, { token: a.userToken, body: { body: "certo" } });
    expect(edited.body).toMatchObject({ body: "certo", isEdited: true });
    expect(t.commands.sent.at(-1)).toMatchObject({ type: "edit", targetId: sent.body.id, body: "certo" });
    const deleted = await t.call("DELETE", `/messages/${sent.body.id}`, { token: a.userToken });
    expect(deleted.body.isDeleted).toBe(true);
    expect(t.commands.sent.at(-1)).toMatchObject({ type: "delete", targetId: sent.body.id });
    const list = await t.call("GET", `/messages/${tk.id}`, { token: a.userToken });
    const customerMsg = list.body.messages.find((m: { fromMe: boolean }) => !m.fromMe);
    expect(await t.call("POST", `/messages/edit/${customerMsg.id}`, { token: a.userToken, body: { body: "mudei" } })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect((await t.call("DELETE", `/messages/${customerMsg.id}`, { token: a.userToken })).status).toBe(403);
    expect((await t.call("POST", `/messages/edit/${sent.body.id}`, { token: a.userToken, body: { body: "" } })).body.error).toBe("ERR_VALIDATION");
  });

  it("reacts to a message", async () => {
    const tk = await openTicket();
    const list = await t.call("GET", `/messages/${tk.id}`, { token: a.userToken });
    const customerMsg = list.body.messages.find((m: { fromMe: boolean }) => !m.fromMe);
    const res = await t.call("POST", `/messages/${customerMsg.id}/reactions`, { token: a.userToken, body: { type: "👍" } });
    expect(res.body.reactions).toEqual([{ emoji: "👍", fromMe: true, senderJid: "me" }]);
    expect(t.commands.sent.at(-1)).toMatchObject({ type: "react", targetId: customerMsg.id, emoji: "👍" });
  });

  it("forwards a message to another contact, signed with the attendant's name in bold", async () => {
    const tk = await openTicket();
    const sent = await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "promoção de hoje" } });
    const other = await t.call("POST", "/contacts", { token: a.userToken, body: { name: "Destino", number: "5511944440001" } });
    const res = await t.call("POST", "/message/forward", { token: a.userToken, body: { messageId: sent.body.id, contactId: other.body.id, signMessage: true } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: `*${a.user.name}:*\npromoção de hoje`, isForwarded: true });
    expect(sendsTo("5511944440001@s.whatsapp.net").at(-1)).toMatchObject({ isForwarded: true });
    expect((await t.call("POST", "/message/forward", { token: a.userToken, body: { contactId: other.body.id } })).body.error).toBe("ERR_VALIDATION");
  });

  it("keeps company B away from company A's messages", async () => {
    const tk = await openTicket();
    const sent = await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "privado" } });
    const contactB = await t.call("POST", "/contacts", { token: b.adminToken, body: { name: "Bia", number: "5511955550001" } });
    for (const res of [
      await t.call("POST", `/messages/edit/${sent.body.id}`, { token: b.adminToken, body: { body: "x" } }),
      await t.call("DELETE", `/messages/${sent.body.id}`, { token: b.adminToken }),
      await t.call("POST", `/messages/${sent.body.id}/reactions`, { token: b.adminToken, body: { type: "😀" } }),
      await t.call("POST", "/message/forward", { token: b.adminToken, body: { messageId: sent.body.id, contactId: contactB.body.id } }),
    ])
      expect([403, 404], JSON.stringify(res.body)).toContain(res.status);
    const list = await t.call("GET", `/messages/${tk.id}`, { token: a.userToken });
    expect(list.body.messages.find((m: { id: string }) => m.id === sent.body.id)).toMatchObject({ body: "privado", isDeleted: false, reactions: [] });
  });

  it("marks audio as a voice note only for a composer recording in Ogg/Opus; an uploaded mp3 goes as plain audio", async () => {
    const tk = await openTicket();
    const post = async (file: File) => {
      const form = new FormData();
      form.append("medias", file);
      const res = await t.app.request(`/api/messages/${tk.id}`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.userToken}` } });
      expect(res.status).toBe(201);
      return sendsTo(tk.jid).at(-1) as { media?: { kind: string; ptt?: boolean } };
    };
    // real containers' first bytes (uploads are checked by content): MP3 (ID3), WebM (EBML), Ogg
    const body = (head: number[]) => {
      const b = new Uint8Array(20_000);
      b.set(head);
      return b;
    };
    const mp3 = await post(new File([body([0x49, 0x44, 0x33, 3])], "musica.mp3", { type: "audio/mpeg" }));
    expect(mp3.media).toMatchObject({ kind: "audio" });
    expect(mp3.media?.ptt).toBeUndefined();
    const webm = await post(new File([body([0x1a, 0x45, 0xdf, 0xa3])], "audio-1763800000000.webm", { type: "audio/webm" }));
    expect(webm.media).toMatchObject({ kind: "audio" });
    expect(webm.media?.ptt).toBeUndefined();
    const voice = await post(new File([body([0x4f, 0x67, 0x67, 0x53])], "audio-1763800000001.ogg", { type: "audio/ogg" }));
    expect(voice.media).toMatchObject({ kind: "audio", ptt: true });
  });
});
