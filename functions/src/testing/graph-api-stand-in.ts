/** One request the application made to the Graph API stand-in. */
export type GraphCall = { url: string; method: string; body: Record<string, unknown> | null };

/**
 * A recording Graph API stand-in for API tests (the browser tests drive the real simulator instead): Meta's answers
 * to the phone number read, the template list and sending a message, 401 for any other token, 400 for anything
 * else. Pass its `fetch` as the container's `graphFetch`; `calls` holds every request in order.
 */
export const recordingGraphApi = (opts: {
  token: string;
  phone: { id: string; displayPhoneNumber: string; verifiedName: string };
  /** the templates a WABA answers, by the list request's url (e.g. one WABA has them, another none) */
  templates: (url: string) => unknown[];
  /** the sent messages' ids are `wamid.<prefix><n>` */
  messageIdPrefix: string;
  /** a test's own answers (e.g. media), asked first after the token check; undefined goes on to the defaults */
  answer?: (call: GraphCall) => Response | undefined;
}) => {
  const calls: GraphCall[] = [];
  let sent = 0;
  const fetch = async (url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : null;
    calls.push({ url, method, body });
    if (new Headers(init?.headers).get("authorization") !== `Bearer ${opts.token}`) return Response.json({ error: { message: "Invalid OAuth access token", type: "OAuthException", code: 190 } }, { status: 401 });
    const own = opts.answer?.({ url, method, body });
    if (own) return own;
    if (url.includes("?fields=display_phone_number")) {
      const { id, displayPhoneNumber, verifiedName } = opts.phone;
      return Response.json({ display_phone_number: displayPhoneNumber, verified_name: verifiedName, quality_rating: "GREEN", messaging_limit_tier: "TIER_1K", id });
    }
    if (url.includes("/message_templates")) return Response.json({ data: opts.templates(url), paging: {} });
    if (url.endsWith("/messages") && method === "POST") return Response.json({ messaging_product: "whatsapp", contacts: [{ input: body?.to, wa_id: body?.to }], messages: [{ id: `wamid.${opts.messageIdPrefix}${++sent}` }] });
    return Response.json({ error: { message: "Unsupported request", code: 100 } }, { status: 400 });
  };
  /** the id Meta gave the last message sent */
  const lastMessageId = () => `wamid.${opts.messageIdPrefix}${sent}`;
  return { calls, fetch, lastMessageId };
};
