import { describe, expect, it } from "vitest";
import { createMessageSequencer } from "@atende/shared/domain/messages/message-order";
import { mapMessagingWebhook, metaJid, type MetaConnectionRef, type MetaMessagingEvent } from "./meta-webhook.mapper";

const messenger: MetaConnectionRef = { companyId: 7, whatsappId: 3, provider: "messenger", pageId: "PAGE1" };
const instagram: MetaConnectionRef = { companyId: 7, whatsappId: 4, provider: "instagram", pageId: "IG1" };
const body = (object: string, pageId: string, messaging: MetaMessagingEvent[]) => ({ object, entry: [{ id: pageId, time: 1, messaging }] });
const ev = (message: MetaMessagingEvent["message"], extra: Partial<MetaMessagingEvent> = {}): MetaMessagingEvent => ({
  sender: { id: "PSID9" },
  recipient: { id: "PAGE1" },
  timestamp: 1_790_000_000_000,
  message,
  ...extra,
});
const map = (payload: unknown, conn = messenger) => mapMessagingWebhook(payload as never, conn, createMessageSequencer());

describe("Messenger / Instagram webhook mapping", () => {
  it("text becomes a chat message of the PSID's chat, stamped with the connection's company", () => {
    const out = map(body("page", "PAGE1", [ev({ mid: "m_1", text: "olá" })]));
    expect(out.events).toHaveLength(1);
    expect(out.events[0]).toMatchObject({ companyId: 7, whatsappId: 3, type: "message", eventId: "m_1" });
    const m = (out.events[0] as { message: Record<string, unknown> }).message;
    expect(m).toMatchObject({ id: "m_1", chatJid: "PSID9@messenger", type: "chat", body: "olá", fromMe: false, timestamp: 1_790_000_000 });
  });
  it("images, files, audio and video become media to download (remoteMedia with the URL)", () => {
    const out = map(
      body("page", "PAGE1", [
        ev({ mid: "m_2", attachments: [{ type: "image", payload: { url: "https://cdn.example/a.jpg" } }, { type: "file", payload: { url: "https://cdn.example/b.pdf" } }] }),
        ev({ mid: "m_3", attachments: [{ type: "audio", payload: { url: "https://cdn.example/c.mp4" } }] }),
        ev({ mid: "m_4", attachments: [{ type: "video", payload: { url: "https://cdn.example/d.mp4" } }] }),
      ]),
    );
    const ms = out.events.map((e) => (e as { message: { id: string; type: string; remoteMedia?: { url?: string; provider: string } } }).message);
    expect(ms.map((m) => [m.id, m.type, m.remoteMedia?.url])).toEqual([
      ["m_2", "image", "https://cdn.example/a.jpg"],
      ["m_2:1", "document", "https://cdn.example/b.pdf"],
      ["m_3", "audio", "https://cdn.example/c.mp4"],
      ["m_4", "video", "https://cdn.example/d.mp4"],
    ]);
    expect(ms.every((m) => m.remoteMedia?.provider === "meta")).toBe(true);
  });
  it("Instagram: story replies keep the story's link, story mentions become the story's media", () => {
    const out = map(
      body("instagram", "IG1", [
        ev({ mid: "ig_1", text: "que lindo!", reply_to: { story: { id: "st1", url: "https://cdn.example/story1" } } }, { recipient: { id: "IG1" } }),
        ev({ mid: "ig_2", attachments: [{ type: "story_mention", payload: { url: "https://cdn.example/story2" } }] }, { recipient: { id: "IG1" } }),
      ]),
      instagram,
    );
    const ms = out.events.map((e) => (e as { message: { chatJid: string; type: string; body: string; remoteMedia?: { url?: string } } }).message);
    expect(ms[0]).toMatchObject({ chatJid: "PSID9@instagram", type: "chat", body: "https://cdn.example/story1\nque lindo!" });
    expect(ms[1]).toMatchObject({ type: "image", remoteMedia: { url: "https://cdn.example/story2" } });
  });
  it("reactions and their removal", () => {
    const out = map(
      body("page", "PAGE1", [
        { sender: { id: "PSID9" }, timestamp: 1, reaction: { mid: "m_out", action: "react", reaction: "love", emoji: "❤️" } },
        { sender: { id: "PSID9" }, timestamp: 2, reaction: { mid: "m_out", action: "unreact" } },
      ]),
    );
    const ms = out.events.map((e) => (e as { message: { type: string; reaction?: { targetId: string; emoji: string } } }).message);
    expect(ms.map((m) => [m.type, m.reaction])).toEqual([
      ["reactionMessage", { targetId: "m_out", emoji: "❤️" }],
      ["reactionMessage", { targetId: "m_out", emoji: "" }],
    ]);
  });
  it("another page's entries, the other object kind and our own echoes produce nothing", () => {
    expect(map(body("page", "OTHER", [ev({ mid: "m_x", text: "x" })]))).toMatchObject({ events: [], foreign: 1 });
    expect(map(body("instagram", "PAGE1", [ev({ mid: "m_x", text: "x" })])).events).toEqual([]);
    expect(map(body("page", "PAGE1", [ev({ mid: "m_x", text: "x", is_echo: true })])).events).toEqual([]);
    expect(map(null).events).toEqual([]);
  });
  it("identity: the scoped id, never a phone number", () => {
    expect(metaJid("instagram", "1789/../x")).toBe("1789x@instagram");
  });
});
