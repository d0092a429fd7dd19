import { describe, expect, it } from "vitest";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { ChannelCommand } from "../channel.port";
import { createLogger } from "../../logger";
import { createMemoryMetrics, type Metrics } from "../../metrics";
import { createChannels, createSessionHostChannel } from "../session-host-channel.adapter";
import { CLOUD_API_CAPABILITIES, createCloudApiChannel } from "./cloud-api-channel.adapter";
import { createCloudApiSender, type CloudApiIds, type CloudApiJob, type CloudApiSettings } from "./cloud-api-sender";
import { createGraphApiClient } from "./graph-api.client";
import { createMemoryGates } from "./throughput-limiter";

const settings: CloudApiSettings = { companyId: 3, whatsappId: 7, phoneNumberId: "106540352242922", wabaId: "102290129340398", accessToken: "EAAG-token", graphApiUrl: "https://graph.test/v23.0", throughputPerSecond: 80 };

/** A fake Graph API: records requests, answers from a script (one answer per call, then a default success). */
const setup = (script: { status: number; body: unknown }[] = [], clock: { now: number } = { now: 0 }, metrics?: Metrics) => {
  const calls: { url: string; method: string; auth: string | null; body: unknown }[] = [];
  let n = 0;
  const fetch = async (url: string, init?: RequestInit) => {
    const body = init?.body instanceof FormData ? Object.fromEntries([...init.body.entries()].map(([k, v]) => [k, typeof v === "string" ? v : `blob:${(v as Blob).type}`])) : init?.body ? JSON.parse(String(init.body)) : null;
    calls.push({ url, method: init?.method ?? "GET", auth: new Headers(init?.headers).get("authorization"), body });
    const answer = script[n++] ?? (url.endsWith("/media") ? { status: 200, body: { id: "MEDIA-1" } } : { status: 200, body: { messaging_product: "whatsapp", contacts: [{ input: "5511", wa_id: "5511" }], messages: [{ id: `wamid.SENT${n}` }] } });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
  };
  const links = new Map<string, string>();
  const claims = new Set<string>();
  const ids: CloudApiIds = {
    claim: async (_c, key) => (claims.has(key) ? false : (claims.add(key), true)),
    link: async (_c, ours, wamid) => void links.set(ours, wamid),
    wamidOf: async (_c, ours) => links.get(ours) ?? null,
    ourIdOf: async (_c, wamid) => [...links].find(([, w]) => w === wamid)?.[0] ?? null,
  };
  const reported: InboundEvent[] = [];
  const later: { job: CloudApiJob; delayMs: number }[] = [];
  const slept: number[] = [];
  const sender = createCloudApiSender({
    settings: async (c, w) => (c === 3 && w === 7 ? settings : null),
    graph: (s) => createGraphApiClient({ baseUrl: s.graphApiUrl, accessToken: s.accessToken, fetch }),
    ids,
    media: { put: async () => {}, get: async (key) => (key === "3/M1/photo.jpg" ? { body: new Uint8Array([1, 2, 3]), mimetype: "image/jpeg" } : null), delete: async () => {} },
    report: async (e) => void reported.push(e),
    later: async (job, delayMs) => void later.push({ job, delayMs }),
    gates: createMemoryGates(),
    clock: () => new Date(clock.now),
    logger: createLogger("silent"),
    sleep: async (ms) => void slept.push(ms),
    metrics,
  });
  return { sender, calls, reported, later, links, slept };
};

const send = (extra: Partial<ChannelCommand & { type: "send" }> = {}): ChannelCommand => ({
  type: "send",
  commandId: "OUR-1",
  messageId: "OUR-1",
  companyId: 3,
  whatsappId: 7,
  chatJid: "5511988887777@s.whatsapp.net",
  body: "Olá!",
  ...extra,
});
const job = (command: ChannelCommand, attempt = 0): CloudApiJob => ({ command, attempt, turn: attempt });

describe("the Cloud API channel", () => {
  it("offers no edit, no delete for everyone, no presence, and a 24-hour window; dispatch only enqueues", async () => {
    const queued: ChannelCommand[] = [];
    const channels = createChannels({ "session-host": createSessionHostChannel({ send: async () => {} }), "cloud-api": createCloudApiChannel({ enqueue: async (c) => void queued.push(c) }) });
    const channel = channels.forConnection({ whatsappId: 7, kind: "cloud-api" });
    expect(channel.capabilities).toEqual(CLOUD_API_CAPABILITIES);
    expect(CLOUD_API_CAPABILITIES).toMatchObject({ edit: false, delete: false, replyWindowHours: 24 });
    await channel.dispatch(send());
    expect(queued).toEqual([send()]);
  });
});

describe("the Cloud API sender", () => {
  it("sends text with the connection's token to /<PHONE_NUMBER_ID>/messages, stores the wamid and reports ack", async () => {
    const { sender, calls, reported, links } = setup();
    await sender.run(job(send()));
    expect(calls).toEqual([
      {
        url: "https://graph.test/v23.0/106540352242922/messages",
        method: "POST",
        auth: "Bearer EAAG-token",
        body: { messaging_product: "whatsapp", recipient_type: "individual", to: "5511988887777", type: "text", text: { body: "Olá!", preview_url: false } },
      },
    ]);
    expect(links.get("OUR-1")).toBe("wamid.SENT1");
    expect(reported).toEqual([{ type: "command.result", eventId: "cloudapi:OUR-1:ok", companyId: 3, whatsappId: 7, commandId: "OUR-1", messageId: "OUR-1", ok: true }]);
  });

  it("a second delivery of the same job is not sent again", async () => {
    const { sender, calls } = setup();
    await sender.run(job(send()));
    await sender.run(job(send()));
    expect(calls).toHaveLength(1);
  });

  it("uploads media first and sends it by id, with caption and file name; a reply carries the quoted wamid", async () => {
    const { sender, calls, links } = setup();
    links.set("OUR-0", "wamid.QUOTED");
    await sender.run(job(send({ body: "the photo", quotedId: "OUR-0", media: { key: "3/M1/photo.jpg", mimetype: "image/jpeg", filename: "photo.jpg", kind: "image" } })));
    expect(calls[0]).toMatchObject({ url: "https://graph.test/v23.0/106540352242922/media", method: "POST", body: { messaging_product: "whatsapp", type: "image/jpeg", file: "blob:image/jpeg" } });
    expect(calls[1]!.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "5511988887777",
      type: "image",
      image: { id: "MEDIA-1", caption: "the photo" },
      context: { message_id: "wamid.QUOTED" },
    });
  });

  it("sends templates with their components", async () => {
    const { sender, calls } = setup();
    const components = [{ type: "body", parameters: [{ type: "text", text: "Ana" }] }];
    await sender.run(job(send({ body: "Olá Ana", template: { name: "hello", language: "pt_BR", components } })));
    expect(calls[0]!.body).toMatchObject({ type: "template", template: { name: "hello", language: { code: "pt_BR" }, components } });
  });

  it("sends a flow's menu as reply buttons (≤ 3) or a list message (≤ 10), the numbered text staying the record (issue 30)", async () => {
    const { sender, calls } = setup();
    await sender.run(job(send({ body: "Escolha\n\n1 - Vendas\n2 - Suporte", interactive: { kind: "buttons", text: "Escolha", buttons: [{ id: "sales", title: "Vendas" }, { id: "support", title: "Suporte" }] } })));
    expect(calls[0]!.body).toMatchObject({
      to: "5511988887777",
      type: "interactive",
      interactive: { type: "button", body: { text: "Escolha" }, action: { buttons: [{ type: "reply", reply: { id: "sales", title: "Vendas" } }, { type: "reply", reply: { id: "support", title: "Suporte" } }] } },
    });
    const rows = Array.from({ length: 5 }, (_, i) => ({ id: `o${i}`, title: `Opção ${i}` }));
    await sender.run(job(send({ commandId: "OUR-2", messageId: "OUR-2", body: "Menu", interactive: { kind: "list", text: "Menu", button: "Opções", rows } })));
    expect(calls[1]!.body).toMatchObject({ type: "interactive", interactive: { type: "list", body: { text: "Menu" }, action: { button: "Opções", sections: [{ rows }] } } });
  });

  it("retries rate-limit refusals (130429, 131056) with backoff, never twice per attempt, then gives up with Meta's code", async () => {
    const refusal = (code: number) => ({ status: 400, body: { error: { message: code === 130429 ? "Rate limit hit" : "(Business Account, Consumer Account) pair rate limit hit", type: "OAuthException", code, fbtrace_id: "A" } } });
    const { sender, calls, later, reported } = setup([refusal(130429), refusal(131056)]);
    await sender.run(job(send()));
    expect(later).toEqual([{ job: { command: send(), attempt: 1, turn: 1 }, delayMs: 1000 }]);
    await sender.run(later[0]!.job);
    expect(later[1]).toEqual({ job: { command: send(), attempt: 2, turn: 2 }, delayMs: 12_000 });
    // a duplicate delivery of attempt 1 sends nothing
    await sender.run(later[0]!.job);
    expect(calls).toHaveLength(2);
    await sender.run(later[1]!.job);
    expect(calls).toHaveLength(3);
    expect(reported).toEqual([expect.objectContaining({ ok: true, messageId: "OUR-1" })]);

    const last = setup(Array.from({ length: 5 }, () => refusal(130429)));
    let j = job(send());
    for (let i = 0; i < 5; i++) {
      await last.sender.run(j);
      if (last.later[i]) j = last.later[i]!.job;
    }
    expect(last.calls).toHaveLength(5);
    expect(last.reported).toEqual([expect.objectContaining({ ok: false, error: "130429 Rate limit hit" })]);
  });

  it("stores other failures with Meta's code and title (131047 re-engagement, 131026 undeliverable), not retried", async () => {
    const { sender, reported, later } = setup([{ status: 400, body: { error: { message: "Re-engagement message", type: "OAuthException", code: 131047, error_data: { details: "more than 24 hours" } } } }]);
    await sender.run(job(send()));
    expect(later).toEqual([]);
    expect(reported).toEqual([{ type: "command.result", eventId: "cloudapi:OUR-1:failed", companyId: 3, whatsappId: 7, commandId: "OUR-1", messageId: "OUR-1", ok: false, error: "131047 Re-engagement message" }]);
  });

  it("counts a sent message as out by provider cloud-api and a refused one as a send failure by Meta's code; a rate-limit retry counts nothing", async () => {
    const recorded = createMemoryMetrics();
    const { sender } = setup(
      [
        { status: 200, body: { messaging_product: "whatsapp", messages: [{ id: "wamid.OK" }] } },
        { status: 400, body: { error: { message: "Re-engagement message", code: 131047 } } },
        { status: 429, body: { error: { message: "Rate limit hit", code: 130429 } } },
      ],
      { now: 0 },
      recorded.metrics,
    );
    await sender.run(job(send()));
    await sender.run(job(send({ commandId: "OUR-2", messageId: "OUR-2" })));
    await sender.run(job(send({ commandId: "OUR-3", messageId: "OUR-3" })));
    expect(recorded.points).toEqual([
      { name: "MessagesOut", value: 1, unit: "count", dimensions: { provider: "cloud-api" } },
      { name: "SendFailures", value: 1, unit: "count", dimensions: { code: "131047" } },
      // and by channel, for the per-channel alarm (infra/aws/constructs/monitoring.ts)
      { name: "ChannelSendFailures", value: 1, unit: "count", dimensions: { provider: "cloud-api" } },
    ]);
  });

  it("an unknown outcome (network) is reported failed and not retried", async () => {
    const { sender, reported, later } = setup();
    const s2 = createCloudApiSender({
      settings: async () => settings,
      graph: (s) => createGraphApiClient({ baseUrl: s.graphApiUrl, accessToken: s.accessToken, fetch: async () => { throw new TypeError("fetch failed"); } }),
      ids: { claim: async () => true, link: async () => {}, wamidOf: async () => null, ourIdOf: async () => null },
      media: { put: async () => {}, get: async () => null, delete: async () => {} },
      report: async (e) => void reported.push(e),
      later: async (j, d) => void later.push({ job: j, delayMs: d }),
      gates: createMemoryGates(),
      clock: () => new Date(0),
      logger: createLogger("silent"),
    });
    await s2.run(job(send()));
    expect(sender).toBeDefined();
    expect(later).toEqual([]);
    expect(reported).toEqual([expect.objectContaining({ ok: false, error: "ERR_SENDING_WAPP_MSG" })]);
  });

  it("paces campaign messages per recipient: a wait over the inline limit goes back to the queue", async () => {
    const { sender, calls, later } = setup();
    await sender.run(job(send({ bulk: true })));
    await sender.run(job(send({ bulk: true, commandId: "OUR-2", messageId: "OUR-2" })));
    expect(calls).toHaveLength(1);
    expect(later).toEqual([{ job: { command: send({ bulk: true, commandId: "OUR-2", messageId: "OUR-2" }), attempt: 0, turn: 1, reservedAt: 6000 }, delayMs: 6000 }]);
  });

  it("a campaign message sent back to wait is sent at its slot, without reserving another one (three to one person: 0 s, 6 s, 12 s)", async () => {
    const clock = { now: 0 };
    const { sender, calls, later } = setup([], clock);
    for (const id of ["OUR-1", "OUR-2", "OUR-3"]) await sender.run(job(send({ bulk: true, commandId: id, messageId: id })));
    expect(calls).toHaveLength(1);
    expect(later.map((l) => [l.job.command.commandId, l.delayMs, l.job.reservedAt])).toEqual([
      ["OUR-2", 6000, 6000],
      ["OUR-3", 12000, 12000],
    ]);
    const waiting = later.splice(0);
    clock.now = 6000;
    await sender.run(waiting[0]!.job);
    clock.now = 12000;
    await sender.run(waiting[1]!.job);
    expect(later).toEqual([]);
    expect(calls.map((c) => c.body)).toHaveLength(3);
  });

  it("reacts and marks read with the wamids; unsupported commands send nothing", async () => {
    const { sender, calls, links } = setup();
    links.set("OUR-1", "wamid.OURS1");
    await sender.run(job({ type: "react", commandId: "r1", companyId: 3, whatsappId: 7, chatJid: "5511@s.whatsapp.net", targetId: "OUR-1", emoji: "👍" }));
    await sender.run(job({ type: "read", commandId: "r2", companyId: 3, whatsappId: 7, chatJid: "5511@s.whatsapp.net", messageIds: ["wamid.A", "wamid.B"] }));
    await sender.run(job({ type: "edit", commandId: "r3", companyId: 3, whatsappId: 7, chatJid: "5511@s.whatsapp.net", targetId: "OUR-1", body: "x" }));
    expect(calls.map((c) => c.body)).toEqual([
      { messaging_product: "whatsapp", recipient_type: "individual", to: "5511", type: "reaction", reaction: { message_id: "wamid.OURS1", emoji: "👍" } },
      { messaging_product: "whatsapp", status: "read", message_id: "wamid.B" },
    ]);
  });

  it("a connection without Cloud API settings fails the send", async () => {
    const { sender, reported } = setup();
    await sender.run(job(send({ whatsappId: 8 })));
    expect(reported).toEqual([expect.objectContaining({ ok: false, error: "ERR_NO_WAPP_FOUND", whatsappId: 8 })]);
  });
});
