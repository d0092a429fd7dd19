import { describe, expect, it } from "vitest";
import { inboundEventSchema } from "@atende/shared/contracts/queue-messages";
import { createMessageSequencer } from "@atende/shared/domain/messages/message-order";
import { CUSTOMER, envelope, INBOUND, PHONE_NUMBER_ID, STATUSES } from "./meta-webhook.fixtures";
import { mapWebhook, translateIds } from "./webhook.mapper";

const conn = { companyId: 3, whatsappId: 7, phoneNumberId: PHONE_NUMBER_ID };
const jid = `${CUSTOMER}@s.whatsapp.net`;
const one = (m: keyof typeof INBOUND) => {
  const out = mapWebhook(envelope({ messages: [INBOUND[m]!] }), conn);
  expect(out.events).toHaveLength(1);
  const ev = inboundEventSchema.parse(out.events[0]);
  if (ev.type !== "message") throw new Error("not a message");
  return ev;
};

describe("Meta's messages webhook → our inbound events", () => {
  it("a text message: id is the wamid, the sender and chat are the customer's number, the profile name is the push name", () => {
    const ev = one("text");
    expect(ev).toMatchObject({ type: "message", companyId: 3, whatsappId: 7, eventId: INBOUND.text!.id });
    expect(ev.message).toEqual({
      id: INBOUND.text!.id,
      chatJid: jid,
      fromMe: false,
      isGroup: false,
      sender: { jid, number: CUSTOMER, pushName: "Sheena Nelson" },
      type: "chat",
      body: "Does it come in another color?",
      isForwarded: false,
      timestamp: 1749416383,
      seq: expect.any(Number),
    });
  });

  it("a payload's messages get increasing seqs in payload order (Meta's timestamps are whole seconds; docs/adr/0066)", () => {
    let now = 1_764_000_000_000;
    const sequence = createMessageSequencer(() => now);
    const texts = ["1", "2", "3"].map((n) => ({ ...INBOUND.text!, id: `wamid.Z${4 - Number(n)}`, text: { body: n } }));
    const first = mapWebhook(envelope({ messages: texts }), conn, sequence).events.map((e) => (e as Extract<typeof e, { type: "message" }>).message);
    expect(first.map((m) => [m.body, m.seq])).toEqual([["1", now], ["2", now + 1], ["3", now + 2]]);
    // the next webhook of the same millisecond continues above
    const [next] = mapWebhook(envelope({ messages: [INBOUND.text!] }), conn, sequence).events;
    expect((next as Extract<typeof next, { type: "message" }>).message.seq).toBe(now + 3);
    now += 5;
    expect((mapWebhook(envelope({ messages: [INBOUND.text!] }), conn, sequence).events[0] as { message: { seq: number } }).message.seq).toBe(now);
  });

  it.each([
    ["image", "image", "Best succulent ever?", { provider: "cloudapi", id: "1003383421387256", mimetype: "image/jpeg" }],
    ["audio", "audio", "", { provider: "cloudapi", id: "1003383421387257", mimetype: "audio/ogg" }],
    ["video", "video", "Look", { provider: "cloudapi", id: "1003383421387258", mimetype: "video/mp4" }],
    ["document", "document", "Invoice", { provider: "cloudapi", id: "1003383421387259", mimetype: "application/pdf", filename: "invoice.pdf" }],
    ["sticker", "sticker", "", { provider: "cloudapi", id: "1003383421387260", mimetype: "image/webp" }],
  ] as const)("a %s message keeps its media as a reference to download before storing", (name, type, body, remoteMedia) => {
    const ev = one(name);
    expect(ev.message).toMatchObject({ type, body, remoteMedia });
    expect(ev.message.media).toBeUndefined();
  });

  it("a location becomes the spec's 'thumb|maps link|description'", () => {
    expect(one("location").message).toMatchObject({
      type: "locationMessage",
      body: "|https://maps.google.com/maps?q=37.483307%2C-122.148981&z=17&hl=pt-BR|Main Campus - 1 Hacker Way, Menlo Park, CA 94025",
    });
  });

  it("shared contacts become vcards", () => {
    expect(one("contacts").message.body).toBe(
      "BEGIN:VCARD\nVERSION:3.0\nFN:Barbara J. Johnson\nORG:Lucky Shrub\nTEL;type=MOBILE;waid=16505551234:+1 (650) 555-1234\nEMAIL;type=WORK:bjohnson@luckyshrub.com\nEND:VCARD",
    );
    expect(one("contacts").message.type).toBe("contactMessage");
  });

  it("a reaction names the reacted message and emoji", () => {
    expect(one("reaction").message).toMatchObject({ type: "reactionMessage", body: "👍", reaction: { targetId: "wamid.OURS01", emoji: "👍" } });
    expect(one("reaction").message.quotedId).toBeUndefined();
  });

  it("template quick-reply buttons and interactive replies become text quoting the message they answer", () => {
    expect(one("button").message).toMatchObject({ type: "chat", body: "Unsubscribe from Promos", quotedId: "wamid.TEMPLATE01" });
    expect(one("button_reply").message).toMatchObject({ type: "chat", body: "Change", replyId: "change-button", quotedId: "wamid.OURS02" });
    expect(one("list_reply").message).toMatchObject({ type: "chat", body: "Priority Mail Express\nNext Day to 2 Days", replyId: "priority_express", quotedId: "wamid.OURS03" });
    expect(one("reply").message).toMatchObject({ type: "chat", body: "Yes, this one", quotedId: "wamid.OURS01" });
  });

  it("unsupported types are skipped, not stored", () => {
    const out = mapWebhook(envelope({ messages: [INBOUND.unsupported!] }), conn);
    expect(out).toEqual({ events: [], skipped: [{ id: "wamid.UNSUP01", type: "unsupported" }], foreign: 0 });
  });

  it("statuses sent, delivered, read and played become our acks 2..5 (1 is Meta's acceptance of the send), deduplicated per wamid and status", () => {
    const out = mapWebhook(envelope({ statuses: [STATUSES.sent!, STATUSES.delivered!, STATUSES.read!, STATUSES.played!] }), conn);
    expect(out.events.map((e) => inboundEventSchema.parse(e))).toEqual(
      [2, 3, 4, 5].map((ack, i) => ({
        type: "message.update",
        companyId: 3,
        whatsappId: 7,
        eventId: `wamid.OURS01:${["sent", "delivered", "read", "played"][i]}`,
        messageId: "wamid.OURS01",
        chatJid: jid,
        ack,
      })),
    );
  });

  it("a failed status is a failed command result with Meta's code and title", () => {
    const out = mapWebhook(envelope({ statuses: [STATUSES.failed131047!, STATUSES.failed131026!] }), conn);
    expect(out.events).toEqual([
      { type: "command.result", companyId: 3, whatsappId: 7, eventId: "wamid.OURS01:failed", commandId: "wamid.OURS01", messageId: "wamid.OURS01", ok: false, error: "131047 Re-engagement message" },
      { type: "command.result", companyId: 3, whatsappId: 7, eventId: "wamid.OURS01:failed", commandId: "wamid.OURS01", messageId: "wamid.OURS01", ok: false, error: "131026 Message undeliverable" },
    ]);
  });

  it("ignores entries for another phone number id and bodies that are not WhatsApp's", () => {
    expect(mapWebhook(envelope({ messages: [INBOUND.text!] }, "999999999999"), conn)).toEqual({ events: [], skipped: [], foreign: 1 });
    expect(mapWebhook({ object: "page", entry: [] }, conn).events).toEqual([]);
    expect(mapWebhook(null as never, conn).events).toEqual([]);
  });

  it("translates wamids of our own messages to our ids (statuses, failures, reactions, quotes); customers' ids stay", async () => {
    const map = new Map([["wamid.OURS01", "OUR-1"]]);
    const lookup = async (w: string) => map.get(w) ?? null;
    const [sent] = mapWebhook(envelope({ statuses: [STATUSES.sent!] }), conn).events;
    expect(await translateIds(sent!, lookup)).toMatchObject({ messageId: "OUR-1" });
    const [failed] = mapWebhook(envelope({ statuses: [STATUSES.failed131047!] }), conn).events;
    expect(await translateIds(failed!, lookup)).toMatchObject({ commandId: "OUR-1", messageId: "OUR-1" });
    expect(await translateIds(one("reaction"), lookup)).toMatchObject({ message: { reaction: { targetId: "OUR-1" } } });
    expect(await translateIds(one("reply"), lookup)).toMatchObject({ message: { quotedId: "OUR-1", id: "wamid.REPLY01" } });
    expect(await translateIds(one("button"), lookup)).toMatchObject({ message: { quotedId: "wamid.TEMPLATE01" } });
  });
});
