import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { signatureFor } from "@atende/functions/platform/channels/meta-webhook/webhook-signature";

/**
 * A stand-in for Meta's WhatsApp Cloud API on one machine (never deployed): the Graph API calls the provider
 * makes, phone numbers with their credentials, message templates with approval states, the 24-hour customer
 * service window (free-form messages outside it fail with 131047, as Meta reports it: accepted, then a failed
 * status), statuses sent → delivered → read, and signed webhooks (X-Hub-Signature-256 with the app secret)
 * delivered to the callback URL set for the number, after Meta's verification handshake. A person plays the
 * customers on /simulator/cloudapi; tests drive the same API.
 */
export type SimNumber = {
  phoneNumberId: string;
  wabaId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  qualityRating: string;
  messagingLimitTier: string;
  accessToken: string;
  appSecret: string;
  webhookUrl: string | null;
  verifyToken: string | null;
};
/**
 * A number as the simulator holds it (issue 27: one local simulator serves every company): the access token only as
 * its SHA-256 (enough to check a Bearer header), the app secret to sign webhooks. Neither is ever listed: the state
 * and the page show them masked; the plain values are answered once, when the number is made (like Meta's dashboard).
 */
type HeldNumber = Omit<SimNumber, "accessToken"> & { tokenHash: Buffer };
const sha256 = (s: string) => createHash("sha256").update(s).digest();
const masked = (s: string) => `••••••••${s.slice(-4)}`;
/** A held number as listed (state, page): ids, names and the callback, the secrets masked. */
const viewOf = (h: HeldNumber, tokenTail: string): SimNumber => {
  const { tokenHash: _hash, ...rest } = h;
  return { ...rest, accessToken: masked(tokenTail), appSecret: masked(h.appSecret) };
};
export type SimTemplate = { id: string; wabaId: string; name: string; language: string; category: string; status: string; components: Record<string, unknown>[] };
export type SimStatus = "accepted" | "sent" | "delivered" | "read" | "failed";
export type SimMessage = {
  id: string;
  direction: "in" | "out";
  type: string;
  text: string;
  mediaId?: string;
  mimeType?: string;
  filename?: string;
  contextId?: string;
  reaction?: { messageId: string; emoji: string };
  /** an interactive message we received (reply buttons or a list): what the customer may press (issue 30) */
  options?: { kind: "button" | "list"; items: { id: string; title: string }[] };
  status: SimStatus;
  error?: { code: number; title: string };
  timestamp: number;
};
export type SimChat = { phoneNumberId: string; waId: string; name: string; lastCustomerAt: number | null; autoRead: boolean; messages: SimMessage[] };
type SimMedia = { id: string; bytes: Uint8Array; mimeType: string; filename?: string; phoneNumberId: string };

export class GraphError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }
  body() {
    return { error: { message: this.message, type: "OAuthException", code: this.code, ...(this.details ? { error_data: { messaging_product: "whatsapp", details: this.details } } : {}), fbtrace_id: "SIM" } };
  }
}

const WINDOW_MS = 24 * 3600_000;
const wamid = () => `wamid.SIM${randomBytes(12).toString("hex").toUpperCase()}`;
const digitsOf = (s: string) => s.replace(/\D/g, "");

export type CustomerInput = {
  phoneNumberId: string;
  from: string;
  name?: string;
  type: "text" | "image" | "audio" | "video" | "document" | "sticker" | "location" | "contacts" | "reaction" | "button" | "interactive";
  text?: string;
  mediaBase64?: string;
  mimeType?: string;
  filename?: string;
  latitude?: number;
  longitude?: number;
  locationName?: string;
  contactName?: string;
  contactPhone?: string;
  /** reaction target, or the message a reply/button answers */
  messageId?: string;
  emoji?: string;
  /** interactive reply kind */
  replyKind?: "button_reply" | "list_reply";
  /** the pressed button's or row's id (as the business sent it); default a made-up one */
  replyId?: string;
  /** seconds since epoch the customer sent it (a delayed delivery); default now */
  timestamp?: number;
};

export const createCloudApiSimulator = (opts: { fetch?: typeof fetch; now?: () => number; statusDelayMs?: number } = {}) => {
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? Date.now;
  const delay = opts.statusDelayMs ?? 150;
  const numbers = new Map<string, HeldNumber>();
  /** the last 4 characters of each token, for its masked view */
  const tokenTails = new Map<string, string>();
  const templates: SimTemplate[] = [];
  const chats = new Map<string, SimChat>();
  const media = new Map<string, SimMedia>();
  const listeners = new Set<() => void>();
  const webhookLog: { at: number; url: string; status: number | string; kind: string }[] = [];
  const changed = () => listeners.forEach((l) => l());

  const chatOf = (phoneNumberId: string, waId: string, name?: string) => {
    const key = `${phoneNumberId}:${waId}`;
    let c = chats.get(key);
    if (!c) chats.set(key, (c = { phoneNumberId, waId, name: name || `+${waId}`, lastCustomerAt: null, autoRead: false, messages: [] }));
    if (name) c.name = name;
    return c;
  };
  const numberOf = (phoneNumberId: string) => {
    const n = numbers.get(phoneNumberId);
    if (!n) throw new GraphError(400, 100, `Unsupported post request. Object with ID '${phoneNumberId}' does not exist`);
    return n;
  };
  const authorize = (n: HeldNumber, header: string | undefined | null) => {
    const sent = /^Bearer (.+)$/.exec(header ?? "")?.[1];
    if (!sent || !timingSafeEqual(sha256(sent), n.tokenHash)) throw new GraphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
  };

  const envelope = (n: HeldNumber, value: Record<string, unknown>) => ({
    object: "whatsapp_business_account",
    entry: [{ id: n.wabaId, changes: [{ value: { messaging_product: "whatsapp", metadata: { display_phone_number: digitsOf(n.displayPhoneNumber), phone_number_id: n.phoneNumberId }, ...value }, field: "messages" }] }],
  });
  /** POSTs a signed webhook to the number's callback URL (Meta retries failures; the simulator logs them). */
  const deliver = async (n: HeldNumber, kind: string, value: Record<string, unknown>) => {
    if (!n.webhookUrl) {
      webhookLog.push({ at: now(), url: "", status: "no callback URL", kind });
      changed();
      return 0;
    }
    const body = JSON.stringify(envelope(n, value));
    let status: number | string;
    try {
      const res = await doFetch(n.webhookUrl, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, n.appSecret) }, body });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      status = String(err);
    }
    webhookLog.push({ at: now(), url: n.webhookUrl, status, kind });
    if (webhookLog.length > 200) webhookLog.shift();
    changed();
    return status;
  };
  const statusWebhook = (n: HeldNumber, chat: SimChat, m: SimMessage) =>
    deliver(n, `status:${m.status}`, {
      statuses: [
        {
          id: m.id,
          status: m.status,
          timestamp: String(Math.floor(now() / 1000)),
          recipient_id: chat.waId,
          ...(m.error ? { errors: [{ code: m.error.code, title: m.error.title, message: m.error.title, error_data: { details: m.error.title } }] } : {}),
        },
      ],
    });
  const advance = async (n: HeldNumber, chat: SimChat, m: SimMessage, to: SimStatus) => {
    const order: SimStatus[] = ["accepted", "sent", "delivered", "read"];
    if (m.status === "failed" || order.indexOf(to) <= order.indexOf(m.status)) return;
    // like Meta: delivered is implied by read and then not sent
    m.status = to;
    changed();
    await statusWebhook(n, chat, m);
  };
  const later = (ms: number, fn: () => Promise<unknown>) => setTimeout(() => void fn().catch(() => undefined), ms).unref?.();

  const sim = {
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    addNumber(input: Partial<SimNumber> = {}): SimNumber {
      const n: SimNumber = {
        phoneNumberId: input.phoneNumberId ?? String(100_000_000_000_000 + numbers.size + 1),
        wabaId: input.wabaId ?? String(200_000_000_000_000 + numbers.size + 1),
        displayPhoneNumber: input.displayPhoneNumber ?? `+55 11 4000-${String(numbers.size + 1).padStart(4, "0")}`,
        verifiedName: input.verifiedName ?? "Atende Demo",
        qualityRating: input.qualityRating ?? "GREEN",
        messagingLimitTier: input.messagingLimitTier ?? "TIER_1K",
        accessToken: input.accessToken ?? `EAASIM${randomBytes(24).toString("hex")}`,
        appSecret: input.appSecret ?? randomBytes(16).toString("hex"),
        webhookUrl: input.webhookUrl ?? null,
        verifyToken: input.verifyToken ?? null,
      };
      const { accessToken, ...rest } = n;
      numbers.set(n.phoneNumberId, { ...rest, tokenHash: sha256(accessToken) });
      tokenTails.set(n.phoneNumberId, accessToken.slice(-4));
      if (!templates.some((t) => t.wabaId === n.wabaId)) sim.seedTemplates(n.wabaId);
      changed();
      return n;
    },
    seedTemplates(wabaId: string) {
      sim.addTemplate({ wabaId, name: "retomar_conversa", language: "pt_BR", category: "UTILITY", status: "APPROVED", components: [{ type: "BODY", text: "Olá {{1}}, podemos continuar o seu atendimento?" }, { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Sim" }, { type: "QUICK_REPLY", text: "Não" }] }] });
      sim.addTemplate({ wabaId, name: "avaliacao_atendimento", language: "pt_BR", category: "UTILITY", status: "APPROVED", components: [{ type: "BODY", text: "Como foi o seu atendimento? Responda de 1 a 5." }] });
      sim.addTemplate({ wabaId, name: "promocao_mensal", language: "pt_BR", category: "MARKETING", status: "PENDING", components: [{ type: "HEADER", format: "TEXT", text: "Promoção de {{1}}" }, { type: "BODY", text: "Use o cupom {{1}} até {{2}}." }] });
    },
    addTemplate(t: Omit<SimTemplate, "id"> & { id?: string }) {
      const tpl = { ...t, id: t.id ?? String(500_000_000_000_000 + templates.length + 1) };
      templates.push(tpl);
      changed();
      return tpl;
    },
    setTemplateStatus(id: string, status: string) {
      const t = templates.find((x) => x.id === id);
      if (!t) return null;
      t.status = status;
      changed();
      return t;
    },
    /** every number, secrets masked (what the state and the page show) */
    numbers: () => [...numbers.values()].map((h) => viewOf(h, tokenTails.get(h.phoneNumberId) ?? "")),
    templates: () => templates,
    chats: () => [...chats.values()],
    webhookLog: () => webhookLog,
    number: (id: string) => {
      const h = numbers.get(id);
      return h ? viewOf(h, tokenTails.get(id) ?? "") : null;
    },

    /** What Meta does when the callback URL is saved: GET with hub.* and the answer must echo the challenge. */
    async setWebhook(phoneNumberId: string, url: string, verifyToken: string) {
      const n = numberOf(phoneNumberId);
      const challenge = String(randomBytes(4).readUInt32BE());
      const u = new URL(url);
      u.searchParams.set("hub.mode", "subscribe");
      u.searchParams.set("hub.verify_token", verifyToken);
      u.searchParams.set("hub.challenge", challenge);
      let ok = false;
      let status: number | string = 0;
      try {
        const res = await doFetch(u.toString());
        status = res.status;
        ok = res.ok && (await res.text()).trim() === challenge;
      } catch (err) {
        status = String(err);
      }
      if (ok) {
        n.webhookUrl = url;
        n.verifyToken = verifyToken;
        changed();
      }
      return { ok, status };
    },

    /** A customer writes to a number: stored in the chat and delivered as a signed webhook. */
    async customerSends(input: CustomerInput) {
      const n = numberOf(input.phoneNumberId);
      const waId = digitsOf(input.from);
      const chat = chatOf(n.phoneNumberId, waId, input.name);
      const id = wamid();
      const ts = input.timestamp ?? Math.floor(now() / 1000);
      const msg: Record<string, unknown> = { from: waId, id, timestamp: String(ts), type: input.type };
      const entry: SimMessage = { id, direction: "in", type: input.type, text: input.text ?? "", status: "read", timestamp: ts };
      const context = input.messageId && input.type !== "reaction" ? { context: { from: digitsOf(n.displayPhoneNumber), id: input.messageId } } : {};
      switch (input.type) {
        case "text":
          msg.text = { body: input.text ?? "" };
          break;
        case "image":
        case "audio":
        case "video":
        case "document":
        case "sticker": {
          const bytes = Buffer.from(input.mediaBase64 ?? "", "base64");
          const mediaId = String(300_000_000_000_000 + media.size + 1);
          const mimeType = input.mimeType ?? "application/octet-stream";
          media.set(mediaId, { id: mediaId, bytes, mimeType, filename: input.filename, phoneNumberId: n.phoneNumberId });
          msg[input.type] = {
            id: mediaId,
            mime_type: mimeType,
            sha256: createHash("sha256").update(bytes).digest("base64"),
            ...(input.text && input.type !== "audio" && input.type !== "sticker" ? { caption: input.text } : {}),
            ...(input.type === "document" && input.filename ? { filename: input.filename } : {}),
            ...(input.type === "audio" ? { voice: true } : {}),
          };
          Object.assign(entry, { mediaId, mimeType, filename: input.filename });
          break;
        }
        case "location":
          msg.location = { latitude: input.latitude ?? -23.5505, longitude: input.longitude ?? -46.6333, name: input.locationName ?? "", address: input.text ?? "" };
          break;
        case "contacts":
          msg.contacts = [{ name: { formatted_name: input.contactName ?? "Contato", first_name: input.contactName ?? "Contato" }, phones: [{ phone: input.contactPhone ?? "", wa_id: digitsOf(input.contactPhone ?? ""), type: "CELL" }] }];
          break;
        case "reaction":
          msg.reaction = { message_id: input.messageId ?? "", emoji: input.emoji ?? "" };
          entry.reaction = { messageId: input.messageId ?? "", emoji: input.emoji ?? "" };
          break;
        case "button":
          msg.button = { payload: input.text ?? "", text: input.text ?? "" };
          break;
        case "interactive":
          msg.interactive =
            input.replyKind === "list_reply"
              ? { type: "list_reply", list_reply: { id: input.replyId ?? "row-1", title: input.text ?? "", description: "" } }
              : { type: "button_reply", button_reply: { id: input.replyId ?? "btn-1", title: input.text ?? "" } };
          break;
      }
      Object.assign(msg, context);
      if (input.messageId) entry.contextId = input.messageId;
      chat.messages.push(entry);
      chat.lastCustomerAt = Math.max(chat.lastCustomerAt ?? 0, ts * 1000);
      changed();
      const status = await deliver(n, `message:${input.type}`, { contacts: [{ profile: { name: chat.name }, wa_id: waId }], messages: [msg] });
      // a customer who writes has read everything before
      for (const m of chat.messages) if (m.direction === "out" && (m.status === "sent" || m.status === "delivered")) await advance(n, chat, m, "read");
      return { id, webhookStatus: status };
    },

    /** The customer opens the chat: every business message turns read (blue ticks). */
    async customerReads(phoneNumberId: string, waId: string) {
      const n = numberOf(phoneNumberId);
      const chat = chatOf(n.phoneNumberId, digitsOf(waId));
      for (const m of chat.messages) if (m.direction === "out") await advance(n, chat, m, "read");
      return { ok: true };
    },
    setAutoRead(phoneNumberId: string, waId: string, autoRead: boolean) {
      chatOf(phoneNumberId, digitsOf(waId)).autoRead = autoRead;
      changed();
    },
    /** Moves the customer's last message back in time (the window closes on the simulator side). */
    ageChat(phoneNumberId: string, waId: string, hours: number) {
      const chat = chatOf(phoneNumberId, digitsOf(waId));
      if (chat.lastCustomerAt !== null) chat.lastCustomerAt -= hours * 3600_000;
      changed();
      return chat;
    },

    // ---- the Graph API -------------------------------------------------------------------------------------
    async graphSend(phoneNumberId: string, auth: string | null | undefined, body: Record<string, unknown>) {
      const n = numberOf(phoneNumberId);
      authorize(n, auth);
      if (body.messaging_product !== "whatsapp") throw new GraphError(400, 100, "(#100) The parameter messaging_product is required.");
      if (body.status === "read") {
        const target = String(body.message_id ?? "");
        const found = [...chats.values()].some((c) => c.phoneNumberId === n.phoneNumberId && c.messages.some((m) => m.id === target && m.direction === "in"));
        if (!found) throw new GraphError(400, 100, "(#100) Invalid parameter", "message_id is not a received message");
        return { success: true };
      }
      const to = digitsOf(String(body.to ?? ""));
      if (!to) throw new GraphError(400, 100, "(#100) The parameter to is required.");
      const type = String(body.type ?? "text");
      const chat = chatOf(n.phoneNumberId, to);
      const id = wamid();
      const entry: SimMessage = { id, direction: "out", type, text: "", status: "accepted", timestamp: Math.floor(now() / 1000) };
      const payload = body[type] as Record<string, unknown> | undefined;
      if (type === "text") entry.text = String((payload as { body?: string })?.body ?? "");
      else if (type === "template") {
        const t = payload as { name?: string; language?: { code?: string }; components?: { type: string; parameters?: { text?: string }[] }[] };
        const tpl = templates.find((x) => x.wabaId === n.wabaId && x.name === t?.name && x.language === t?.language?.code);
        if (!tpl) throw new GraphError(404, 132001, "Template name does not exist in the translation", `template name (${t?.name}) does not exist in ${t?.language?.code}`);
        if (tpl.status !== "APPROVED") throw new GraphError(400, 132015, "Template is paused", `template ${tpl.name} is ${tpl.status}`);
        const bodyText = String((tpl.components.find((c) => c.type === "BODY") as { text?: string })?.text ?? "");
        const params = t.components?.find((c) => c.type === "body")?.parameters ?? [];
        entry.text = bodyText.replace(/\{\{\s*(\w+)\s*\}\}/g, (_a, k: string) => params[Number(k) - 1]?.text ?? params.find((p) => (p as { parameter_name?: string }).parameter_name === k)?.text ?? `{{${k}}}`);
      } else if (type === "reaction") {
        const r = payload as { message_id?: string; emoji?: string };
        entry.reaction = { messageId: String(r?.message_id ?? ""), emoji: String(r?.emoji ?? "") };
      } else if (["image", "audio", "video", "document", "sticker"].includes(type)) {
        const p = payload as { id?: string; link?: string; caption?: string; filename?: string };
        const m = p?.id ? media.get(p.id) : undefined;
        if (p?.id && !m) throw new GraphError(400, 131053, "Media upload error", "Unknown media id");
        Object.assign(entry, { mediaId: p?.id, mimeType: m?.mimeType, filename: p?.filename ?? m?.filename, text: p?.caption ?? "" });
      } else if (type === "interactive") {
        // reply buttons (≤ 3, titles ≤ 20) or a list (≤ 10 rows, titles ≤ 24), as Meta checks them
        const i = payload as { type?: string; body?: { text?: string }; action?: { buttons?: { reply?: { id?: string; title?: string } }[]; button?: string; sections?: { rows?: { id?: string; title?: string }[] }[] } };
        const items =
          i?.type === "button"
            ? (i.action?.buttons ?? []).map((b) => ({ id: String(b.reply?.id ?? ""), title: String(b.reply?.title ?? "") }))
            : i?.type === "list"
              ? (i.action?.sections ?? []).flatMap((s) => s.rows ?? []).map((r) => ({ id: String(r.id ?? ""), title: String(r.title ?? "") }))
              : [];
        const max = i?.type === "button" ? { n: 3, title: 20 } : { n: 10, title: 24 };
        if (!items.length || items.length > max.n || items.some((x) => !x.id || !x.title || x.title.length > max.title) || !i?.body?.text)
          throw new GraphError(400, 131009, "Parameter value is not valid", "interactive: body text and 1-3 buttons (titles ≤ 20) or 1-10 rows (titles ≤ 24)");
        Object.assign(entry, { text: i.body.text, options: { kind: i.type === "button" ? "button" : "list", items } });
      } else throw new GraphError(400, 131051, "Unsupported message type");
      const ctx = body.context as { message_id?: string } | undefined;
      if (ctx?.message_id) entry.contextId = ctx.message_id;
      chat.messages.push(entry);
      changed();
      const windowOpen = chat.lastCustomerAt !== null && now() - chat.lastCustomerAt < WINDOW_MS;
      later(delay, async () => {
        if (type !== "template" && !windowOpen) {
          entry.status = "failed";
          entry.error = { code: 131047, title: "Re-engagement message" };
          changed();
          await statusWebhook(n, chat, entry);
          return;
        }
        await advance(n, chat, entry, "sent");
        await new Promise((r) => setTimeout(r, delay));
        await advance(n, chat, entry, "delivered");
        if (chat.autoRead) {
          await new Promise((r) => setTimeout(r, delay));
          await advance(n, chat, entry, "read");
        }
      });
      return { messaging_product: "whatsapp", contacts: [{ input: String(body.to), wa_id: to }], messages: [{ id, ...(type === "template" ? { message_status: "accepted" } : {}) }] };
    },
    graphUpload(phoneNumberId: string, auth: string | null | undefined, file: { bytes: Uint8Array; type: string; name?: string }) {
      const n = numberOf(phoneNumberId);
      authorize(n, auth);
      const id = String(400_000_000_000_000 + media.size + 1);
      media.set(id, { id, bytes: file.bytes, mimeType: file.type || "application/octet-stream", filename: file.name, phoneNumberId: n.phoneNumberId });
      return { id };
    },
    /** GET /<ID>: a media object, a phone number or nothing. */
    graphGet(id: string, auth: string | null | undefined, origin: string, version: string) {
      const m = media.get(id);
      if (m) {
        authorize(numberOf(m.phoneNumberId), auth);
        return {
          messaging_product: "whatsapp",
          url: `${origin}/simulator/cloudapi/graph/${version}/media-file/${id}`,
          mime_type: m.mimeType,
          sha256: createHash("sha256").update(m.bytes).digest("hex"),
          file_size: m.bytes.byteLength,
          id,
        };
      }
      const n = numbers.get(id);
      if (n) {
        authorize(n, auth);
        return { display_phone_number: n.displayPhoneNumber, verified_name: n.verifiedName, quality_rating: n.qualityRating, messaging_limit_tier: n.messagingLimitTier, id: n.phoneNumberId };
      }
      throw new GraphError(400, 100, `Unsupported get request. Object with ID '${id}' does not exist`);
    },
    graphMediaFile(id: string, auth: string | null | undefined) {
      const m = media.get(id);
      if (!m) throw new GraphError(404, 100, "Not found");
      authorize(numberOf(m.phoneNumberId), auth);
      return m;
    },
    graphTemplates(wabaId: string, auth: string | null | undefined) {
      const n = [...numbers.values()].find((x) => x.wabaId === wabaId);
      if (!n) throw new GraphError(400, 100, `Unsupported get request. Object with ID '${wabaId}' does not exist`);
      authorize(n, auth);
      const data = templates.filter((t) => t.wabaId === wabaId).map(({ wabaId: _w, ...t }) => t);
      return { data, paging: { cursors: { before: "MAZDZD", after: "MjQZD" } } };
    },
  };
  return sim;
};
export type CloudApiSimulator = ReturnType<typeof createCloudApiSimulator>;
