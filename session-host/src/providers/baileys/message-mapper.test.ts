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

  it("round video notes (ptvMessage) are videos with their download", async () => {
    const m = message(map("ptv"));
    expect(m).toMatchObject({ type: "video", body: "" });
    expect(m.media).toMatchObject({ mimetype: "video/mp4" });
  });

  it("polls read as their question and options (V3 and V1, 1:1 and group); votes are not messages", () => {
    expect(message(map("poll"))).toMatchObject({ type: "chat", body: "📊 Qual horário?\n• Manhã\n• Tarde", sender: { number: "5511987654321", lid: "112233445566778@lid" } });
    expect(message(map("pollV1"))).toMatchObject({ type: "chat", isGroup: true, body: "📊 Pizza?\n• Sim\n• Não" });
    expect(map("pollVote").kind).toBe("ignore");
  });

  it("an edit in a LID-addressed chat updates the original in that chat", () => {
    expect(map("lidEdit")).toEqual({ kind: "update", update: { messageId: "3EB0A3", chatJid: "112233445566778@lid", body: "via lid, corrigido" } });
  });

  it("a group participant's revoke deletes the original in the group", () => {
    expect(map("groupRevoke")).toEqual({ kind: "update", update: { messageId: "3EB0F1", chatJid: "120363000000000001@g.us", isDeleted: true } });
  });

  it("a reaction in a group names the reacted message and the participant who reacted", () => {
    const m = message(map("groupReaction"));
    expect(m).toMatchObject({ type: "reactionMessage", isGroup: true, reaction: { targetId: "OURS02", emoji: "👍" } });
    expect(m.sender).toMatchObject({ lid: "112233445566778@lid", number: "5511987654321" });
  });

  it("a quoted image in a group: the phone-number participant is the sender, the quote is kept", () => {
    const m = message(map("groupImage"));
    expect(m).toMatchObject({ type: "image", body: "no grupo", quotedId: "3EB0F1", isGroup: true });
    expect(m.sender).toEqual({ jid: "5511987654321@s.whatsapp.net", number: "5511987654321", lid: undefined, pushName: "João" });
  });

  it("typed on the company's phone in a LID chat: fromMe, in the LID chat", () => {
    expect(message(map("fromMeLid"))).toMatchObject({ fromMe: true, chatJid: "112233445566778@lid", body: "respondi pelo celular" });
  });

  it("channels (newsletters) are ignored", () => {
    expect(map("newsletter").kind).toBe("ignore");
  });
});
