/** JSON over HTTP to a running platform, for e2e tests and benchmarks that talk to the API or the simulator. */
export type Json = Record<string, unknown>;

export const httpJson = async <T = Json>(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; data: T }> => {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (e.g. a plain 404 page): keep the text
  }
  return { status: res.status, data: data as T };
};

/** Calls `fn` every 300 ms until `ok` holds or the time is up; returns the last value (the caller asserts on it). */
export const poll = async <T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 300));
  }
};
