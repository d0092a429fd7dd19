import { describe, expect, it } from "vitest";
import { createGraphApiClient } from "@atende/functions/platform/channels/cloud-api/graph-api.client";
import { mapWebhook, type MetaWebhook } from "@atende/functions/platform/channels/cloud-api/webhook.mapper";
import { verifySignature } from "@atende/functions/platform/channels/meta-webhook/webhook-signature";
import { createCloudApiSimulator } from "./cloud-api-simulator";
import { createCloudApiSimulatorHttp } from "./cloud-api-simulator.http";

const ORIGIN = "http://local.test";
const HOOK = `${ORIGIN}/api/channels/cloud-api/webhook/abc`;

/** The simulator wired to an in-memory receiver that checks signatures like our webhook does. */
const setup = () => {
  const received: { body: MetaWebhook; signed: boolean }[] = [];
  let secret = "";
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname.startsWith("/simulator/cloudapi")) return http.fetch(new Request(url, init));
    if (url.pathname === "/api/channels/cloud-api/webhook/abc") {
      if ((init?.method ?? "GET") === "GET") return new Response(url.searchParams.get("hub.verify_token") === "vt-1" ? url.searchParams.get("hub.challenge") : "no", { status: url.searchParams.get("hub.verify_token") === "vt-1" ? 200 : 403 });
      const raw = String(init?.body);
      received.push({ body: JSON.parse(raw) as MetaWebhook, signed: verifySignature(raw, new Headers(init?.headers).get("x-hub-signature-256"), secret) });
      return new Response("ok");
    }
    return new Response("not found", { status: 404 });
  }) as typeof fetch;
  const sim = createCloudApiSimulator({ fetch: fetchFn, statusDelayMs: 5 });
  const http = createCloudApiSimulatorHttp(sim);
  const n = sim.addNumber({ phoneNumberId: "100000000000001", wabaId: "200000000000001" });
  secret = n.appSecret;
  const graph = createGraphApiClient({ baseUrl: `${ORIGIN}/simulator/cloudapi/graph/v23.0`, accessToken: n.accessToken, fetch: fetchFn });
  const conn = { companyId: 1, whatsappId: 2, phoneNumberId: n.phoneNumberId };
  const events = () => received.flatMap((r) => mapWebhook(r.body, conn).events);
  return { sim, n, graph, received, events, fetchFn };
};
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
};

describe("the Cloud API simulator", () => {
  it("saves a callback URL only after Meta's verification handshake succeeds", async () => {
    const { sim, n } = setup();
    expect(await sim.setWebhook(n.phoneNumberId, HOOK, "wrong")).toEqual({ ok: false, status: 403 });
    expect(sim.number(n.phoneNumberId)!.webhookUrl).toBeNull();
    expect((await sim.setWebhook(n.phoneNumberId, HOOK, "vt-1")).ok).toBe(true);
    expect(sim.number(n.phoneNumberId)!.webhookUrl).toBe(HOOK);
  });

  it("delivers customers' messages as signed webhooks our mapper reads, media downloadable with the token", async () => {
    const { sim, n, graph, received, events } = setup();
    await sim.setWebhook(n.phoneNumberId, HOOK, "vt-1");
    await sim.customerSends({ phoneNumberId: n.phoneNumberId, from: "5511988887777", name: "Ana", type: "text", text: "Oi" });
    await sim.customerSends({ phoneNumberId: n.phoneNumberId, from: "5511988887777", type: "image", text: "foto", mediaBase64: Buffer.from("JPEGDATA").toString("base64"), mimeType: "image/jpeg" });
    expect(received.every((r) => r.signed)).toBe(true);
    const [text, image] = events();
    expect(text).toMatchObject({ type: "message", message: { body: "Oi", sender: { number: "5511988887777", pushName: "Ana" } } });
    expect(image).toMatchObject({ type: "message", message: { type: "image", body: "foto", remoteMedia: { mimetype: "image/jpeg" } } });
    const mediaId = (image as { message: { remoteMedia: { id: string } } }).message.remoteMedia.id;
    const got = await graph.downloadMedia(mediaId, 1000);
    expect("bytes" in got && Buffer.from(got.bytes).toString()).toBe("JPEGDATA");
    await expect(createGraphApiClient({ baseUrl: `${ORIGIN}/simulator/cloudapi/graph/v23.0`, accessToken: "bad", fetch: setup().fetchFn }).phoneNumber(n.phoneNumberId)).rejects.toMatchObject({ code: 190 });
  });

  it("answers the phone number and templates with approval states", async () => {
    const { n, graph, sim } = setup();
    expect(await graph.phoneNumber(n.phoneNumberId)).toEqual({ displayPhoneNumber: n.displayPhoneNumber, verifiedName: "Atende Demo", qualityRating: "GREEN", messagingLimitTier: "TIER_1K" });
    const list = await graph.listTemplates(n.wabaId);
    expect(list.map((t) => [t.name, t.status])).toEqual([["retomar_conversa", "APPROVED"], ["avaliacao_atendimento", "APPROVED"], ["promocao_mensal", "PENDING"]]);
    sim.setTemplateStatus(sim.templates().find((t) => t.name === "promocao_mensal")!.id, "APPROVED");
    expect((await graph.listTemplates(n.wabaId)).find((t) => t.name === "promocao_mensal")!.status).toBe("APPROVED");
  });

  it("shows a flow's reply buttons and list, refuses malformed ones, and a pressed button comes back with its id (issue 30)", async () => {
    const { sim, n, graph, events } = setup();
    await sim.setWebhook(n.phoneNumberId, HOOK, "vt-1");
    await sim.customerSends({ phoneNumberId: n.phoneNumberId, from: "5511988887777", type: "text", text: "Oi" });
    const buttons = { type: "button", body: { text: "Escolha" }, action: { buttons: [{ type: "reply", reply: { id: "sales", title: "Vendas" } }, { type: "reply", reply: { id: "support", title: "Suporte" } }] } };
    const { wamid } = await graph.sendMessage(n.phoneNumberId, { to: "5511988887777", type: "interactive", interactive: buttons });
    const list = { type: "list", body: { text: "Menu" }, action: { button: "Opções", sections: [{ title: "Opções", rows: [{ id: "a", title: "A" }, { id: "b", title: "B" }] }] } };
    await graph.sendMessage(n.phoneNumberId, { to: "5511988887777", type: "interactive", interactive: list });
    const shown = sim.chats()[0]!.messages.filter((m) => m.direction === "out");
    expect(shown.map((m) => [m.text, m.options])).toEqual([
      ["Escolha", { kind: "button", items: [{ id: "sales", title: "Vendas" }, { id: "support", title: "Suporte" }] }],
      ["Menu", { kind: "list", items: [{ id: "a", title: "A" }, { id: "b", title: "B" }] }],
    ]);
    const four = { ...buttons, action: { buttons: [1, 2, 3, 4].map((i) => ({ type: "reply", reply: { id: `o${i}`, title: `O${i}` } })) } };
    await expect(graph.sendMessage(n.phoneNumberId, { to: "5511988887777", type: "interactive", interactive: four })).rejects.toThrow();
    await sim.customerSends({ phoneNumberId: n.phoneNumberId, from: "5511988887777", type: "interactive", replyKind: "button_reply", replyId: "support", text: "Suporte", messageId: wamid });
    await until(() => events().some((e) => e.type === "message" && e.message.body === "Suporte"));
  });

  it("moves our messages sent → delivered → read inside the window, and fails free text outside it with 131047", async () => {
    const { sim, n, graph, events } = setup();
    await sim.setWebhook(n.phoneNumberId, HOOK, "vt-1");
    await sim.customerSends({ phoneNumberId: n.phoneNumberId, from: "5511988887777", type: "text", text: "Oi" });
    const { wamid } = await graph.sendMessage(n.phoneNumberId, { to: "5511988887777", type: "text", text: { body: "Olá!" } });
    await until(() => events().some((e) => e.type === "message.update" && e.ack === 3));
    await sim.customerReads(n.phoneNumberId, "5511988887777");
    await until(() => events().some((e) => e.type === "message.update" && e.ack === 4));
    expect(events().filter((e) => e.type === "message.update").map((e) => [e.type === "message.update" && e.messageId, e.type === "message.update" && e.ack])).toEqual([
      [wamid, 2],
      [wamid, 3],
      [wamid, 4],
    ]);

    // a customer who never wrote: free text fails with 131047, a template goes through
    const late = await graph.sendMessage(n.phoneNumberId, { to: "5511900000000", type: "text", text: { body: "Olá?" } });
    await until(() => events().some((e) => e.type === "command.result"));
    expect(events().find((e) => e.type === "command.result")).toMatchObject({ messageId: late.wamid, ok: false, error: "131047 Re-engagement message" });
    const tpl = await graph.sendMessage(n.phoneNumberId, { to: "5511900000000", type: "template", template: { name: "retomar_conversa", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Ana" }] }] } });
    await until(() => events().some((e) => e.type === "message.update" && e.messageId === tpl.wamid && e.ack === 3));
    expect(sim.chats().find((c) => c.waId === "5511900000000")!.messages.at(-1)!.text).toBe("Olá Ana, podemos continuar o seu atendimento?");
    // a template not approved is refused at once
    await expect(graph.sendMessage(n.phoneNumberId, { to: "5511900000000", type: "template", template: { name: "promocao_mensal", language: { code: "pt_BR" } } })).rejects.toMatchObject({ code: 132015 });
  });

  it("takes uploads and sends media by id", async () => {
    const { sim, n, graph } = setup();
    await sim.customerSends({ phoneNumberId: n.phoneNumberId, from: "5511988887777", type: "text", text: "Oi" });
    const id = await graph.uploadMedia(n.phoneNumberId, new TextEncoder().encode("%PDF-1.4"), "application/pdf", "boleto.pdf");
    await graph.sendMessage(n.phoneNumberId, { to: "5511988887777", type: "document", document: { id, filename: "boleto.pdf", caption: "seu boleto" } });
    expect(sim.chats()[0]!.messages.at(-1)).toMatchObject({ direction: "out", type: "document", mediaId: id, filename: "boleto.pdf", text: "seu boleto" });
  });

  it("never lists a number's secrets (issue 27): state and page show them masked; the token is held only as a hash", async () => {
    const { sim, n, graph } = setup();
    const other = sim.addNumber({ phoneNumberId: "100000000000002", wabaId: "200000000000002" });
    expect(other.accessToken).toMatch(/^EAASIM/);
    const http = createCloudApiSimulatorHttp(sim);
    const state = await (await http.fetch(new Request(`${ORIGIN}/simulator/cloudapi/api/state`))).text();
    for (const secret of [n.accessToken, n.appSecret, other.accessToken, other.appSecret]) expect(state).not.toContain(secret);
    expect(JSON.parse(state).numbers[1]).toMatchObject({ phoneNumberId: "100000000000002", accessToken: `••••••••${other.accessToken.slice(-4)}`, appSecret: `••••••••${other.appSecret.slice(-4)}` });
    expect(JSON.stringify(sim.number(other.phoneNumberId))).not.toContain(other.accessToken);
    // the Graph API still takes the right token and refuses another number's
    expect((await graph.phoneNumber(n.phoneNumberId)).verifiedName).toBeTruthy();
    await expect(graph.phoneNumber(other.phoneNumberId)).rejects.toMatchObject({ code: 190 });
  });
});
