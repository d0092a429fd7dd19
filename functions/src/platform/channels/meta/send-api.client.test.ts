import { describe, expect, it } from "vitest";
import { createSendApiClient } from "./send-api.client";

type Call = { url: string; init?: RequestInit };
const fakeFetch = (answer: (c: Call) => Response) => {
  const calls: Call[] = [];
  const fetch = async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return answer({ url, init });
  };
  return { calls, fetch };
};
const json = (b: unknown, status = 200) => new Response(JSON.stringify(b), { status, headers: { "content-type": "application/json" } });

describe("Messenger / Instagram Send API client", () => {
  it("sends text with the window's messaging type and the page token", async () => {
    const f = fakeFetch(() => json({ recipient_id: "PSID9", message_id: "m_out1" }));
    const c = createSendApiClient({ baseUrl: "http://graph.test/v21.0/", pageAccessToken: "TOKEN", fetch: f.fetch });
    expect(await c.sendText("PAGE1", "PSID9", "olá", { messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" })).toBe("m_out1");
    expect(f.calls[0]!.url).toBe("http://graph.test/v21.0/PAGE1/messages");
    expect((f.calls[0]!.init!.headers as Record<string, string>).authorization).toBe("Bearer TOKEN");
    expect(JSON.parse(String(f.calls[0]!.init!.body))).toEqual({ recipient: { id: "PSID9" }, messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT", message: { text: "olá" } });
  });
  it("uploads an attachment as multipart filedata", async () => {
    const f = fakeFetch(() => json({ message_id: "m_out2" }));
    const c = createSendApiClient({ baseUrl: "http://graph.test", pageAccessToken: "T", fetch: f.fetch });
    await c.sendAttachment("PAGE1", "PSID9", { bytes: new Uint8Array([1, 2, 3]), mimetype: "application/pdf", filename: "a.pdf" }, { messaging_type: "RESPONSE" });
    const form = f.calls[0]!.init!.body as FormData;
    expect(JSON.parse(String(form.get("message")))).toEqual({ attachment: { type: "file", payload: { is_reusable: false } } });
    expect(form.get("messaging_type")).toBe("RESPONSE");
    expect((form.get("filedata") as File).size).toBe(3);
  });
  it("a Graph error is thrown with Meta's code", async () => {
    const f = fakeFetch(() => json({ error: { code: 10, message: "Message sent outside allowed window" } }, 400));
    const c = createSendApiClient({ baseUrl: "http://graph.test", pageAccessToken: "T", fetch: f.fetch });
    await expect(c.sendText("PAGE1", "PSID9", "x", { messaging_type: "RESPONSE" })).rejects.toMatchObject({ code: 10 });
  });
  it("profile: Messenger's first/last name, Instagram's name and username; none on error", async () => {
    const f = fakeFetch((c) => (c.url.includes("PSID9") ? json({ first_name: "Ana", last_name: "Lima" }) : c.url.includes("IGS1") ? json({ name: "Bia", username: "bia.s" }) : json({ error: { code: 100 } }, 400)));
    const c = createSendApiClient({ baseUrl: "http://graph.test", pageAccessToken: "T", fetch: f.fetch });
    expect(await c.profile("messenger", "PSID9")).toEqual({ name: "Ana Lima" });
    expect(await c.profile("instagram", "IGS1")).toEqual({ name: "Bia", username: "bia.s" });
    expect(await c.profile("messenger", "NOPE")).toEqual({});
  });
});
