/** The visitor API (docs/adr/0092), called from the company's page: its origin must be an allowed origin. */
export type WidgetConfig = { greeting: string; color: string; ask: { name: boolean; email: boolean; phone: boolean } };
export type VisitorMessage = { id: string; fromMe: boolean; body: string; mediaType: string; mediaName: string | null; createdAt: string };

export const createApi = (base: string, key: string) => {
  const url = (path: string) => `${base}/api/webchat/${encodeURIComponent(key)}/${path}`;
  const call = async <T>(path: string, init: RequestInit = {}, token?: string): Promise<T> => {
    const headers = new Headers(init.headers);
    if (token) headers.set("Authorization", `Bearer ${token}`);
    const res = await fetch(url(path), { ...init, headers, credentials: "omit" });
    if (!res.ok) throw Object.assign(new Error(`webchat ${res.status}`), { status: res.status });
    return (await res.json()) as T;
  };
  const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return {
    /** the visitor's socket: the same host's /socket.io/ path (the local origin and CloudFront route it to the WebSocket API) */
    socketUrl: (token: string) => `${base.replace(/^http/, "ws")}/socket.io/?webchat=${encodeURIComponent(key)}&token=${encodeURIComponent(token)}`,
    config: () => call<WidgetConfig>("config"),
    session: (who: { name?: string; email?: string; phone?: string }) => call<{ token: string }>("sessions", json(who)),
    messages: (token: string) => call<{ messages: VisitorMessage[] }>("messages", {}, token),
    send: (token: string, body: string) => call<{ id: string }>("messages", json({ body }), token),
    sendFile: (token: string, file: File) => {
      const form = new FormData();
      form.append("file", file);
      return call<{ id: string }>("messages", { method: "POST", body: form }, token);
    },
  };
};
export type WidgetApi = ReturnType<typeof createApi>;
