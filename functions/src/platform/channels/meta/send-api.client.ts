import { GraphApiError, graphErrorFrom } from "../cloud-api/graph-api-errors";
import type { GraphFetch } from "../cloud-api/graph-api.client";
import type { MetaProvider } from "./meta-webhook.mapper";

/**
 * The Graph API calls of the Messenger and Instagram Direct channels (docs/adr/0090), against a base URL per
 * connection (`graphApiUrl`: Meta's by default, the local Graph stand-in or a test server otherwise):
 * - POST /<PAGE_ID or IG_ID>/messages   the Send API: text, or an attachment (multipart `filedata`), with the
 *                                       window's `messaging_type` (RESPONSE, or MESSAGE_TAG + tag HUMAN_AGENT)
 * - GET  /<PSID or IGSID>?fields=...    the customer's profile (name; Instagram: name and username)
 * Every call goes through the outbound guard's fetch (platform/net, docs/adr/0062): the base URL is the company's.
 * Graph errors use the Cloud API's reader (graph-api-errors.ts): same `{ error: { code, message } }` shape.
 */
export const META_GRAPH_URL = "https://graph.facebook.com/v21.0";
export type SendApiOptions = { baseUrl: string; pageAccessToken: string; fetch?: GraphFetch; timeoutMs?: number };
export type SendType = { messaging_type: string; tag?: string };
export type AttachmentKind = "image" | "audio" | "video" | "file";
export type MetaProfile = { name?: string; username?: string };

export const attachmentKindOf = (mimetype: string): AttachmentKind =>
  mimetype.startsWith("image/") ? "image" : mimetype.startsWith("audio/") ? "audio" : mimetype.startsWith("video/") ? "video" : "file";

export const createSendApiClient = (opts: SendApiOptions) => {
  const base = (opts.baseUrl || META_GRAPH_URL).replace(/\/+$/, "");
  const doFetch = opts.fetch ?? ((url, init) => fetch(url, init));
  const call = async (path: string, init: RequestInit = {}): Promise<unknown> => {
    const res = await doFetch(`${base}/${path}`, {
      ...init,
      headers: { authorization: `Bearer ${opts.pageAccessToken}`, ...(init.headers ?? {}) },
      signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!res.ok || (body && typeof body === "object" && "error" in body)) throw graphErrorFrom(res.status, body);
    return body;
  };
  const messageId = (out: unknown) => {
    const id = (out as { message_id?: string } | null)?.message_id;
    if (!id) throw new GraphApiError(0, "No message id in the answer", 502);
    return id;
  };
  const enc = encodeURIComponent;
  return {
    /** Sends text to a PSID / IGSID; answers Meta's message id (mid). */
    async sendText(pageId: string, recipientId: string, text: string, type: SendType): Promise<string> {
      const payload = { recipient: { id: recipientId }, ...type, message: { text } };
      return messageId(await call(`${enc(pageId)}/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) }));
    },
    /** Sends a file (uploaded with the message, multipart `filedata`); answers the mid. */
    async sendAttachment(pageId: string, recipientId: string, file: { bytes: Uint8Array; mimetype: string; filename: string }, type: SendType): Promise<string> {
      const form = new FormData();
      form.set("recipient", JSON.stringify({ id: recipientId }));
      form.set("messaging_type", type.messaging_type);
      if (type.tag) form.set("tag", type.tag);
      form.set("message", JSON.stringify({ attachment: { type: attachmentKindOf(file.mimetype), payload: { is_reusable: false } } }));
      form.set("filedata", new Blob([file.bytes], { type: file.mimetype }), file.filename);
      return messageId(await call(`${enc(pageId)}/messages`, { method: "POST", body: form }));
    },
    /** The customer's name (Messenger: first and last name; Instagram: name and username); {} when Meta gives none. */
    async profile(provider: MetaProvider, scopedId: string): Promise<MetaProfile> {
      const fields = provider === "instagram" ? "name,username" : "first_name,last_name,name";
      try {
        const p = (await call(`${enc(scopedId)}?fields=${fields}`)) as { name?: string; first_name?: string; last_name?: string; username?: string } | null;
        const name = p?.name || [p?.first_name, p?.last_name].filter(Boolean).join(" ") || undefined;
        return { ...(name ? { name } : {}), ...(p?.username ? { username: p.username } : {}) };
      } catch {
        return {};
      }
    },
    /** The page / Instagram account the token reaches (the connection check): its name or @username, or Meta's error. */
    async account(pageId: string): Promise<{ label: string } | { error: string }> {
      try {
        const a = (await call(`${enc(pageId)}?fields=name,username`)) as { name?: string; username?: string; id?: string } | null;
        return { label: a?.username ? `@${a.username}` : (a?.name ?? a?.id ?? pageId) };
      } catch (err) {
        return { error: err instanceof GraphApiError ? `${err.code} ${err.title}`.slice(0, 300) : "ERR_CONNECTION_CHECK" };
      }
    },
    /** Downloads an attachment URL from a webhook (Meta's CDN), up to `maxBytes`. */
    async download(url: string, maxBytes: number): Promise<{ bytes: Uint8Array; mimeType: string } | { tooLarge: number }> {
      const res = await doFetch(url, { maxBodyBytes: maxBytes + 1, signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000) });
      if (!res.ok) throw new GraphApiError(0, `Attachment download failed: HTTP ${res.status}`, 502);
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (bytes.byteLength > maxBytes) return { tooLarge: bytes.byteLength };
      return { bytes, mimeType: (res.headers.get("content-type") ?? "application/octet-stream").split(";")[0]!.trim() };
    },
  };
};
export type SendApiClient = ReturnType<typeof createSendApiClient>;
