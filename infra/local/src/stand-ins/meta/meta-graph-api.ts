import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { META_PAGE } from "./meta-page";

/**
 * Meta's Graph API stand-in for Messenger and Instagram Direct (local only, issue 31, docs/adr/0095), answering under
 * /simulator/meta:
 * - graph/<version>/<PAGE_ID|IG_ID>/messages   the Send API as our client calls it: JSON text, multipart attachments
 *   (`filedata`), `messaging_type` RESPONSE within 24 h of the user's last message, MESSAGE_TAG + HUMAN_AGENT up to
 *   7 days, anything else refused with Meta's error (code 10, subcode 2018278), like Meta;
 * - graph/<version>/<id>?fields=...            a page / account (the connection check) or a user's profile;
 * - media/<id>                                 the files users sent (the webhooks' attachment URLs, Meta's CDN);
 * - api/*                                      the /simulator page's control: subscribe a callback (Meta's
 *   verification handshake: hub.challenge echoed for the verify token), a user writes (text, image, story reply,
 *   story mention, reaction), posted SIGNED (X-Hub-Signature-256 with the page's app secret) as Meta posts it.
 * A page's access token is held only as its SHA-256; listings show the token and the app secret masked, the plain
 * values are answered once when the page is made (as the Cloud API stand-in does).
 */
export type MetaProvider = "messenger" | "instagram";
export type GraphPage = { provider: MetaProvider; pageId: string; name: string; username?: string; accessToken: string; appSecret: string };
type HeldPage = Omit<GraphPage, "accessToken"> & { tokenHash: Buffer; tokenTail: string; webhook: { url: string; verifyToken: string } | null; nextMid: number };
export type ChatLine = { from: "user" | "page"; mid: string; kind: string; text: string; mediaUrl?: string; tag?: string; at: number };
export type UserEvent = {
  provider?: MetaProvider;
  pageId?: string;
  userId?: string;
  name?: string;
  kind?: "text" | "image" | "story_reply" | "story_mention" | "reaction";
  text?: string;
  fileBase64?: string;
  mimeType?: string;
  /** reaction: the message reacted to (default the page's last reply) */
  mid?: string;
  emoji?: string;
};
type Post = (url: string, init: RequestInit) => Response | Promise<Response>;

export const FREE_WINDOW_MS = 24 * 3600_000;
export const HUMAN_AGENT_WINDOW_MS = 7 * 24 * 3600_000;
const sha256 = (s: string) => createHash("sha256").update(s).digest();
const masked = (s: string) => `••••••••${s.slice(-4)}`;
/** Meta's `X-Hub-Signature-256` of a raw body. */
export const hubSignature = (raw: string, appSecret: string) => `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
const graphError = (status: number, code: number, message: string, subcode?: number) =>
  Response.json({ error: { message, type: "OAuthException", code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: "SIM" } }, { status });
/** A 1×1 JPEG: the story a user replies to or mentions the account in, when the page gave no file. */
const STORY_JPEG = Buffer.from("/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==", "base64");

export const createMetaGraphStandIn = (opts: { post?: Post; now?: () => number; publicUrl?: () => string } = {}) => {
  const now = opts.now ?? Date.now;
  const deliver: Post = opts.post ?? ((url, init) => fetch(url, init));
  const pages = new Map<string, HeldPage>();
  const chats = new Map<string, { name: string; lastUserAt: number | null; lines: ChatLine[] }>();
  const media = new Map<string, { bytes: Uint8Array<ArrayBuffer>; mime: string }>();
  let origin = "";
  const base = () => opts.publicUrl?.() || origin;
  const chatKey = (pageId: string, userId: string) => `${pageId}:${userId}`;
  const chatOf = (pageId: string, userId: string, name?: string) => {
    let c = chats.get(chatKey(pageId, userId));
    if (!c) chats.set(chatKey(pageId, userId), (c = { name: name || `Cliente ${userId.slice(-4)}`, lastUserAt: null, lines: [] }));
    if (name) c.name = name;
    return c;
  };
  const log = (pageId: string, userId: string, line: ChatLine) => {
    const c = chatOf(pageId, userId);
    c.lines = [...c.lines, line].slice(-200);
  };
  const authorized = (page: HeldPage, header: string | undefined) => {
    const sent = /^Bearer (.+)$/.exec(header ?? "")?.[1];
    return Boolean(sent) && timingSafeEqual(sha256(sent!), page.tokenHash);
  };
  const viewOf = (p: HeldPage) => ({ provider: p.provider, pageId: p.pageId, name: p.name, username: p.username, accessToken: masked(p.tokenTail), appSecret: masked(p.appSecret), webhookUrl: p.webhook?.url ?? null });

  const standIn = {
    /** Makes a page (Messenger) or an Instagram account; its plain token and app secret are answered only here. */
    addPage(input: { provider: MetaProvider; pageId: string; name: string; username?: string; accessToken?: string; appSecret?: string }): GraphPage {
      const accessToken = input.accessToken ?? `EAA${randomBytes(24).toString("base64url")}`;
      const appSecret = input.appSecret ?? randomBytes(16).toString("hex");
      pages.set(input.pageId, { provider: input.provider, pageId: input.pageId, name: input.name, username: input.username, appSecret, tokenHash: sha256(accessToken), tokenTail: accessToken.slice(-4), webhook: null, nextMid: 1 });
      return { ...input, accessToken, appSecret };
    },
    /** Saves a page's callback URL as Meta's dashboard does: the verification handshake first, kept only if echoed. */
    async subscribe(pageId: string, url: string, verifyToken: string): Promise<{ ok: boolean; status: number }> {
      const page = pages.get(pageId);
      if (!page) return { ok: false, status: 404 };
      const challenge = randomBytes(6).readUIntBE(0, 6).toString();
      const q = new URLSearchParams({ "hub.mode": "subscribe", "hub.verify_token": verifyToken, "hub.challenge": challenge });
      const res = await Promise.resolve(deliver(`${url}?${q}`, { method: "GET" })).catch(() => null);
      const echoed = res ? (await res.text()).trim() : "";
      const ok = Boolean(res?.ok) && echoed === challenge;
      if (ok) page.webhook = { url, verifyToken };
      return { ok, status: res?.status ?? 0 };
    },
    /** A user writes to a page: the event is posted to its callback, signed with the app secret. */
    async userEvent(b: UserEvent): Promise<{ status: number; mid?: string; error?: string }> {
      const page = [...pages.values()].find((p) => (b.pageId ? p.pageId === b.pageId : p.provider === (b.provider ?? "messenger")));
      if (!page) return { status: 404, error: "no such page" };
      if (!page.webhook) return { status: 409, error: "the page has no callback (save the connection first)" };
      const userId = String(b.userId || (page.provider === "instagram" ? "17841400000000001" : "24000000000000001"));
      const kind = b.kind ?? "text";
      const at = now();
      const chat = chatOf(page.pageId, userId, b.name);
      const mid = `m_${page.provider === "instagram" ? "ig" : "fb"}_${randomBytes(9).toString("base64url")}`;
      const file = (fallback?: Buffer) => {
        const id = randomBytes(8).toString("hex");
        const bytes = b.fileBase64 ? Uint8Array.from(Buffer.from(b.fileBase64, "base64")) : Uint8Array.from(fallback ?? STORY_JPEG);
        media.set(id, { bytes, mime: b.mimeType || "image/jpeg" });
        return `${base()}/simulator/meta/media/${id}`;
      };
      let event: Record<string, unknown>;
      let line: ChatLine;
      const text = String(b.text ?? "");
      if (kind === "reaction") {
        const target = b.mid || chat.lines.filter((l) => l.from === "page").at(-1)?.mid || chat.lines.at(-1)?.mid;
        if (!target) return { status: 409, error: "nothing to react to" };
        const emoji = b.emoji || "❤️";
        event = { reaction: { mid: target, action: "react", reaction: "love", emoji } };
        line = { from: "user", mid: `${target}:reaction`, kind, text: emoji, at };
      } else if (kind === "image") {
        const url = file();
        event = { message: { mid, ...(text ? { text } : {}), attachments: [{ type: "image", payload: { url } }] } };
        line = { from: "user", mid, kind, text, mediaUrl: url, at };
      } else if (kind === "story_reply" && page.provider === "instagram") {
        const url = file();
        event = { message: { mid, text: text || "😍", reply_to: { story: { url, id: `story_${randomBytes(4).toString("hex")}` } } } };
        line = { from: "user", mid, kind, text: text || "😍", mediaUrl: url, at };
      } else if (kind === "story_mention" && page.provider === "instagram") {
        const url = file();
        event = { message: { mid, attachments: [{ type: "story_mention", payload: { url } }] } };
        line = { from: "user", mid, kind, text: "", mediaUrl: url, at };
      } else if (kind === "text") {
        if (!text) return { status: 400, error: "empty text" };
        event = { message: { mid, text } };
        line = { from: "user", mid, kind, text, at };
      } else return { status: 400, error: `${kind} is not a ${page.provider} event` };
      const body = {
        object: page.provider === "instagram" ? "instagram" : "page",
        entry: [{ id: page.pageId, time: at, messaging: [{ sender: { id: userId }, recipient: { id: page.pageId }, timestamp: at, ...event }] }],
      };
      const raw = JSON.stringify(body);
      const res = await Promise.resolve(deliver(page.webhook.url, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(raw, page.appSecret) }, body: raw })).catch(() => null);
      if (kind !== "reaction") chat.lastUserAt = at;
      log(page.pageId, userId, line);
      return { status: res?.status ?? 0, mid: line.mid };
    },
    pages: () => [...pages.values()].map(viewOf),
    chat: (pageId: string, userId: string) => chats.get(chatKey(pageId, userId)) ?? null,
  };

  const app = new Hono().basePath("/simulator/meta");
  app.use(async (c, next) => {
    origin ||= new URL(c.req.url).origin;
    await next();
  });
  app.get("/", (c) => c.html(META_PAGE));
  app.get("/media/:id", (c) => {
    const f = media.get(c.req.param("id"));
    return f ? new Response(f.bytes, { headers: { "content-type": f.mime } }) : c.json({ error: "not found" }, 404);
  });
  // the Send API
  app.post("/graph/:version/:pageId/messages", async (c) => {
    const page = pages.get(c.req.param("pageId"));
    if (!page) return graphError(400, 100, `Unsupported post request. Object with ID '${c.req.param("pageId")}' does not exist`);
    if (!authorized(page, c.req.header("authorization"))) return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
    const form = c.req.header("content-type")?.startsWith("multipart/") ? await c.req.formData() : null;
    const field = (k: string) => (form ? form.get(k) : null);
    type SendBody = { recipient?: { id?: string }; message?: { text?: string; attachment?: { type?: string } }; messaging_type?: string; tag?: string };
    const json = form ? null : ((await c.req.json().catch(() => null)) as SendBody | null);
    const parse = <T>(v: unknown) => (typeof v === "string" ? (JSON.parse(v) as T) : (v as T | undefined));
    let recipient: SendBody["recipient"];
    let message: SendBody["message"];
    try {
      recipient = parse<SendBody["recipient"]>(json ? json.recipient : field("recipient"));
      message = parse<SendBody["message"]>(json ? json.message : field("message"));
    } catch {
      return graphError(400, 100, "(#100) Invalid JSON");
    }
    const messagingType = String((json ? json.messaging_type : field("messaging_type")) ?? "");
    const tag = (json ? json.tag : field("tag")) as string | null | undefined;
    const userId = String(recipient?.id ?? "");
    const chat = chats.get(chatKey(page.pageId, userId));
    if (!chat) return graphError(400, 100, "(#100) No matching user found", 2018001);
    const age = chat.lastUserAt === null ? Infinity : now() - chat.lastUserAt;
    const allowed = messagingType === "RESPONSE" ? age < FREE_WINDOW_MS : messagingType === "MESSAGE_TAG" && tag === "HUMAN_AGENT" ? age < HUMAN_AGENT_WINDOW_MS : false;
    if (!allowed) return graphError(400, 10, "(#10) This message is sent outside of allowed window.", 2018278);
    const mid = `m_out_${page.pageId}_${page.nextMid++}`;
    const file = field("filedata");
    if (file && typeof file !== "string") {
      const id = randomBytes(8).toString("hex");
      media.set(id, { bytes: new Uint8Array(await file.arrayBuffer()), mime: file.type || "application/octet-stream" });
      const kind = String(message?.attachment?.type ?? "file");
      log(page.pageId, userId, { from: "page", mid, kind, text: file.name, mediaUrl: `/simulator/meta/media/${id}`, tag: tag ?? undefined, at: now() });
    } else if (typeof message?.text === "string" && message.text) {
      log(page.pageId, userId, { from: "page", mid, kind: "text", text: message.text, tag: tag ?? undefined, at: now() });
    } else return graphError(400, 100, "(#100) The parameter message is required");
    return c.json({ recipient_id: userId, message_id: mid });
  });
  // a page / account (connection check) or a user's profile
  app.get("/graph/:version/:id", (c) => {
    const id = c.req.param("id");
    const page = pages.get(id);
    const auth = c.req.header("authorization");
    if (page) return authorized(page, auth) ? c.json({ id, name: page.name, ...(page.username ? { username: page.username } : {}) }) : graphError(401, 190, "Invalid OAuth access token");
    const owner = [...pages.values()].find((p) => chats.has(chatKey(p.pageId, id)) && authorized(p, auth));
    if (!owner) return graphError(400, 100, `Unsupported get request. Object with ID '${id}' does not exist`);
    const name = chats.get(chatKey(owner.pageId, id))!.name;
    if (owner.provider === "instagram") return c.json({ id, name, username: name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^\w]+/g, ".") });
    const [first, ...rest] = name.split(" ");
    return c.json({ id, name, first_name: first, last_name: rest.join(" ") });
  });
  // the page's control
  app.get("/api/pages", (c) => c.json(standIn.pages()));
  app.post("/api/pages/:pageId/subscribe", async (c) => {
    const b = (await c.req.json().catch(() => ({}))) as { url?: string; verifyToken?: string };
    return c.json(await standIn.subscribe(c.req.param("pageId"), String(b.url ?? ""), String(b.verifyToken ?? "")));
  });
  app.post("/api/events", async (c) => {
    const out = await standIn.userEvent((await c.req.json().catch(() => ({}))) as UserEvent);
    return c.json(out, out.error ? (out.status as 400 | 404 | 409) : 200);
  });
  app.get("/api/chats/:pageId/:userId", (c) => c.json(standIn.chat(c.req.param("pageId"), c.req.param("userId"))?.lines ?? []));
  return { ...standIn, fetch: (req: Request) => app.fetch(req) };
};
export type MetaGraphStandIn = ReturnType<typeof createMetaGraphStandIn>;
