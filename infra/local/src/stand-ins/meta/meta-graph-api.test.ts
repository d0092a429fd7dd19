import { describe, expect, it } from "vitest";
import { createMetaGraphStandIn, hubSignature } from "./meta-graph-api";
import { META_PAGE, META_PAGE_STRINGS } from "./meta-page";
import { TABS_PLACEHOLDER } from "../registry";

const json = (body: unknown, token?: string) => ({ method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

describe("Meta Graph stand-in", () => {
  it("signs a user's event with the page's app secret, answers the Send API by Meta's window, and refuses a wrong token", async () => {
    let clock = Date.UTC(2026, 0, 1);
    const posted: { url: string; headers: Headers; body: string }[] = [];
    const s = createMetaGraphStandIn({
      now: () => clock,
      publicUrl: () => "http://sim.test",
      post: async (url, init) => {
        if ((init.method ?? "GET") === "GET") return new Response(new URL(url).searchParams.get("hub.challenge"));
        posted.push({ url, headers: new Headers(init.headers), body: String(init.body) });
        return new Response("{}");
      },
    });
    const page = s.addPage({ provider: "instagram", pageId: "17841400000000009", name: "Loja", username: "loja" });
    expect(await s.subscribe(page.pageId, "http://app.test/api/channels/meta/webhook/h", "vt")).toEqual({ ok: true, status: 200 });
    await s.userEvent({ pageId: page.pageId, userId: "555", name: "Ana", kind: "story_mention" });
    expect(posted[0]!.headers.get("x-hub-signature-256")).toBe(hubSignature(posted[0]!.body, page.appSecret));
    const body = JSON.parse(posted[0]!.body);
    expect(body).toMatchObject({ object: "instagram", entry: [{ id: page.pageId, messaging: [{ sender: { id: "555" }, message: { attachments: [{ type: "story_mention" }] } }] }] });
    const story = await s.fetch(new Request(body.entry[0].messaging[0].message.attachments[0].payload.url));
    expect(story.headers.get("content-type")).toBe("image/jpeg");

    const send = (type: Record<string, string>, token = page.accessToken) =>
      s.fetch(new Request(`http://sim.test/simulator/meta/graph/v23.0/${page.pageId}/messages`, json({ recipient: { id: "555" }, ...type, message: { text: "oi" } }, token)));
    expect((await send({ messaging_type: "RESPONSE" }, "wrong")).status).toBe(401);
    expect(await (await send({ messaging_type: "RESPONSE" })).json()).toMatchObject({ recipient_id: "555", message_id: expect.stringMatching(/^m_out_/) });
    clock += 25 * 3600_000;
    expect(await (await send({ messaging_type: "RESPONSE" })).json()).toMatchObject({ error: { code: 10, error_subcode: 2018278 } });
    expect((await send({ messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" })).status).toBe(200);
    clock += 7 * 24 * 3600_000;
    expect((await send({ messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" })).status).toBe(400);
    // the profile the consumer reads
    const profile = await s.fetch(new Request("http://sim.test/simulator/meta/graph/v23.0/555?fields=name,username", { headers: { authorization: `Bearer ${page.accessToken}` } }));
    expect(await profile.json()).toMatchObject({ name: "Ana", username: "ana" });
  });

  it("has its page's words in pt, en and es, and the tab bar's placeholder", () => {
    const keys = Object.keys(META_PAGE_STRINGS.pt).sort();
    for (const lang of ["en", "es"] as const) expect(Object.keys(META_PAGE_STRINGS[lang]).sort()).toEqual(keys);
    for (const lang of ["pt", "en", "es"] as const) for (const v of Object.values(META_PAGE_STRINGS[lang])) expect(v).not.toBe("");
    expect(META_PAGE).toContain(TABS_PLACEHOLDER);
  });
});
