import { describe, expect, it } from "vitest";
import { FIXTURES } from "./fixtures/messages";
import { ackOf, mapBaileysMessage, type Mapped } from "./message-mapper";

const download = async () => Buffer.from("bytes");
const map = (name: keyof typeof FIXTURES) => mapBaileysMessage(FIXTURES[name]!, download);
const message = (m: Mapped) => {
  if (m.kind !== "message") throw new Error(`expected a message, got ${m.kind}`);
  return m.message;
};

describe("Baileys message -> waMessage", () => {
  it("text: chat with the phone number and the LID of the sender", () => {
    const m = message(map("text"));
    expect(m).toMatchObject({ id: "3EB0A1", chatJid: "5511987654321@s.whatsapp.net", fromMe: false, isGroup: false, type: "chat", body: "Olá, bom dia", timestamp: 1763800000 });
    expect(m.sender).toEqual({ jid: "5511987654321@s.whatsapp.net", number: "5511987654321", lid: "112233445566778@lid", pushName: "Maria" });
  });

  it("a LID-addressed chat still carries the phone number, so both map to one contact", () => {
    const m = message(map("lidOnly"));
    expect(m.chatJid).toBe("112233445566778@lid");
    expect(m.sender).toMatchObject({ number: "5511987654321", lid: "112233445566778@lid" });
  });

  it("quoted and forwarded", () => {
    expect(message(map("extendedQuotedForwarded"))).toMatchObject({ type: "chat", body: "sobre isso aqui", quotedId: "3EB0A1", isForwarded: true });
  });

  it("sent from the company's own phone is fromMe", () => {
    expect(message(map("fromMe")).fromMe).toBe(true);
  });

  it.each([
    ["image", "image", "image/jpeg", "foto", undefined],
    ["audioPtt", "audio", "audio/ogg", "", undefined],
    ["video", "video", "video/mp4", "", undefined],
    ["documentWithCaption", "document", "application/pdf", "segue o boleto", "boleto.pdf"],
    ["sticker", "sticker", "image/webp", "", undefined],
    ["viewOnce", "image", "image/jpeg", "uma vez", undefined],
  ] as const)("media %s -> %s with its download", async (name, type, mimetype, body, filename) => {
    const m = message(map(name));
    expect(m).toMatchObject({ type, body });
    expect(m.media).toMatchObject({ mimetype, filename });
    expect((await m.media!.download()).toString()).toBe("bytes");
  });

  it("location: thumbnail|maps link|description", () => {
    const m = message(map("location"));
    expect(m.type).toBe("locationMessage");
    const [image, link, description] = m.body.split("|");
    expect(image).toMatch(/^data:image\/jpeg;base64,/);
    expect(link).toBe("https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17&hl=pt-BR");
    expect(description).toBe("Praça da Sé");
  });

  it("contact cards: the vcard text", () => {
    expect(message(map("contact"))).toMatchObject({ type: "contactMessage", body: expect.stringContaining("waid=5521999998888") });
    expect(message(map("contactsArray")).body).toContain("FN:B");
  });

  it("reactions point at the reacted message; an empty emoji removes", () => {
    expect(message(map("reaction"))).toMatchObject({ type: "reactionMessage", body: "❤️", reaction: { targetId: "OURS01", emoji: "❤️" } });
    expect(message(map("reactionRemoved")).reaction).toEqual({ targetId: "OURS01", emoji: "" });
  });

  it("edits and deletes become updates of the original message", () => {
    expect(map("edited")).toEqual({ kind: "update", update: { messageId: "3EB0A1", chatJid: "5511987654321@s.whatsapp.net", body: "Olá, boa tarde" } });
    expect(map("deleted")).toEqual({ kind: "update", update: { messageId: "3EB0A2", chatJid: "5511987654321@s.whatsapp.net", isDeleted: true } });
  });

  it("groups: the group is the chat, the participant (LID with its phone number) the sender", () => {
    const m = message(map("group"));
    expect(m).toMatchObject({ chatJid: "120363000000000001@g.us", isGroup: true, body: "oi grupo" });
    expect(m.sender).toMatchObject({ jid: "112233445566778@lid", lid: "112233445566778@lid", number: "5511987654321", pushName: "Maria" });
  });

  it("disappearing messages are unwrapped", () => {
    expect(message(map("ephemeral"))).toMatchObject({ type: "chat", body: "temporária" });
  });

  it("status broadcasts and stubs are ignored", () => {
    expect(map("status").kind).toBe("ignore");
    expect(map("stub").kind).toBe("ignore");
  });

  it("message status -> ack", () => {
    expect([0, 1, 2, 3, 4, 5].map(ackOf)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(ackOf(undefined)).toBeUndefined();
  });
});
