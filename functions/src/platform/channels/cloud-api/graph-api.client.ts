import { fromGraphTemplate, type MessageTemplate } from "@atende/shared/domain/cloud-api/message-templates";
import type { PhoneNumberInfo } from "@atende/shared/domain/cloud-api/cloud-api-connection";
import { GraphApiError, graphErrorFrom } from "./graph-api-errors";

/**
 * The Graph API calls the Cloud API provider makes (Meta's documented endpoints), against a base URL per
 * connection (`graphApiUrl`: Meta's by default, the local simulator or a test server otherwise):
 * - POST /<PHONE_NUMBER_ID>/messages            send (text, media by id, reaction, template, context) and mark read
 * - POST /<PHONE_NUMBER_ID>/media               upload (multipart: file, type, messaging_product)
 * - GET  /<MEDIA_ID>                            the media URL (valid for minutes), then GET that URL with the token
 * - GET  /<WABA_ID>/message_templates           the templates, paged by `paging.next`
 * - GET  /<PHONE_NUMBER_ID>?fields=...          display number, verified name, quality rating, messaging limit tier
 * Every call goes through the outbound guard's fetch (docs/adr/0062: the base URL is the company's, the media URL
 * the provider's answer); a `paging.next` is followed only on the base URL's own origin (it carries the token).
 */
export type GraphFetch = (url: string, init?: RequestInit & { maxBodyBytes?: number }) => Promise<Response>;
export type GraphApiOptions = { baseUrl: string; accessToken: string; fetch?: GraphFetch; timeoutMs?: number };

export type SendPayload = Record<string, unknown> & { to?: string; type?: string };
export type MediaInfo = { url: string; mimeType: string; fileSize?: number; sha256?: string };

export const createGraphApiClient = (opts: GraphApiOptions) => {
  const base = opts.baseUrl.replace(/\/+$/, "");
  const doFetch = opts.fetch ?? ((url, init) => fetch(url, init));
  const auth = { authorization: `Bearer ${opts.accessToken}` };

  const origin = (() => {
    try {
      return new URL(base).origin;
    } catch {
      return null;
    }
  })();
  /** an absolute URL from an answer (paging.next) stays on the Graph API's origin: elsewhere it would get the token */
  const onBase = (url: string) => {
    try {
      return origin !== null && new URL(url).origin === origin;
    } catch {
      return false;
    }
  };

  const call = async (path: string, init: RequestInit = {}): Promise<unknown> => {
    const absolute = /^[a-z][a-z\d+.-]*:/i.test(path);
    if (absolute && !onBase(path)) throw new GraphApiError(0, "A paging URL outside the Graph API address was refused", 502);
    const url = absolute ? path : `${base}/${path.replace(/^\/+/, "")}`;
    const res = await doFetch(url, { ...init, headers: { ...auth, ...(init.headers ?? {}) }, signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000) });
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
  const postJson = (path: string, payload: unknown) => call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });

  return {
    /** Sends one message; answers the wamid Meta gave it. */
    async sendMessage(phoneNumberId: string, payload: SendPayload): Promise<{ wamid: string; waId?: string }> {
      const out = (await postJson(`${phoneNumberId}/messages`, { messaging_product: "whatsapp", recipient_type: "individual", ...payload })) as {
        messages?: { id?: string }[];
        contacts?: { wa_id?: string }[];
      };
      const wamid = out?.messages?.[0]?.id;
      if (!wamid) throw new GraphApiError(0, "No message id in the answer", 502);
      return { wamid, waId: out.contacts?.[0]?.wa_id };
    },
    /** Marks a received message (and the ones before it) as read: the customer sees blue ticks. */
    async markRead(phoneNumberId: string, wamid: string): Promise<void> {
      await postJson(`${phoneNumberId}/messages`, { messaging_product: "whatsapp", status: "read", message_id: wamid });
    },
    async uploadMedia(phoneNumberId: string, bytes: Uint8Array, mimeType: string, filename: string): Promise<string> {
      const form = new FormData();
      form.set("messaging_product", "whatsapp");
      form.set("type", mimeType);
      form.set("file", new Blob([bytes], { type: mimeType }), filename);
      const out = (await call(`${phoneNumberId}/media`, { method: "POST", body: form })) as { id?: string };
      if (!out?.id) throw new GraphApiError(0, "No media id in the answer", 502);
      return out.id;
    },
    async mediaInfo(mediaId: string): Promise<MediaInfo> {
      const out = (await call(encodeURIComponent(mediaId))) as { url?: string; mime_type?: string; file_size?: number; sha256?: string };
      if (!out?.url) throw new GraphApiError(0, "No media url in the answer", 502);
      return { url: out.url, mimeType: out.mime_type ?? "application/octet-stream", fileSize: out.file_size, sha256: out.sha256 };
    },
    /** Downloads media bytes (media id → URL → bytes, the URL needs the token too); refuses above maxBytes. */
    async downloadMedia(mediaId: string, maxBytes: number): Promise<{ bytes: Uint8Array; mimeType: string } | { tooLarge: number }> {
      const info = await this.mediaInfo(mediaId);
      if (info.fileSize !== undefined && info.fileSize > maxBytes) return { tooLarge: info.fileSize };
      // the provider's URL: the guarded fetch checks it (and every redirect hop) and stops reading past maxBytes
      try {
        const res = await doFetch(info.url, { headers: auth, signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000), maxBodyBytes: maxBytes });
        if (!res.ok) throw graphErrorFrom(res.status, await res.json().catch(() => null));
        const bytes = new Uint8Array(await res.arrayBuffer());
        if (bytes.byteLength > maxBytes) return { tooLarge: bytes.byteLength };
        return { bytes, mimeType: info.mimeType };
      } catch (err) {
        // the guard's cap (OutboundBodyTooLargeError, by name: this client does not bundle the guard itself)
        const tooLarge = (e: unknown) => (e as Error | undefined)?.name === "OutboundBodyTooLargeError";
        if (tooLarge(err) || tooLarge((err as { cause?: unknown })?.cause)) return { tooLarge: maxBytes + 1 };
        throw err;
      }
    },
    /** Every template of the WABA (follows `paging.next`, at most `maxPages` pages). */
    async listTemplates(wabaId: string, maxPages = 20): Promise<MessageTemplate[]> {
      const out: MessageTemplate[] = [];
      let next: string | undefined = `${wabaId}/message_templates?fields=id,name,language,category,status,components&limit=100`;
      for (let i = 0; next && i < maxPages; i++) {
        const page = (await call(next)) as { data?: Parameters<typeof fromGraphTemplate>[0][]; paging?: { next?: string } };
        for (const raw of page?.data ?? []) out.push(fromGraphTemplate(raw));
        next = page?.paging?.next;
      }
      return out;
    },
    async phoneNumber(phoneNumberId: string): Promise<PhoneNumberInfo> {
      const out = (await call(`${phoneNumberId}?fields=display_phone_number,verified_name,quality_rating,messaging_limit_tier`)) as Record<string, unknown>;
      return {
        displayPhoneNumber: String(out?.display_phone_number ?? ""),
        verifiedName: String(out?.verified_name ?? ""),
        qualityRating: String(out?.quality_rating ?? "UNKNOWN"),
        messagingLimitTier: typeof out?.messaging_limit_tier === "string" ? out.messaging_limit_tier : null,
      };
    },
  };
};
export type GraphApiClient = ReturnType<typeof createGraphApiClient>;
