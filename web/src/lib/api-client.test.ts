import { describe, expect, it } from "vitest";
import { mockFetch, reply } from "../testing/fetch-mock";
import { aUser } from "../testing/fixtures";
import { ApiError, api, refreshSession } from "./api-client";
import { getCompanyId, getToken, saveSession } from "./session-storage";

describe("api client", () => {
  it("sends the bearer token and the JSON body under /api", async () => {
    saveSession("tok-1", aUser());
    const { calls } = mockFetch({ "POST /api/tags": (req: Request) => reply(201, { auth: req.headers.get("authorization") }) });
    const answer = await api.post<{ auth: string }>("/tags", { name: "vip" });
    expect(answer.auth).toBe("Bearer tok-1");
    expect(await calls[0]?.json()).toEqual({ name: "vip" });
    expect(calls[0]?.headers.get("content-type")).toBe("application/json");
  });

  it("on a 403 with an expired token refreshes once and retries with the new token", async () => {
    saveSession("old", aUser());
    const seen: (string | null)[] = [];
    const { calls } = mockFetch({
      "GET /api/tickets": (req: Request) => {
        seen.push(req.headers.get("authorization"));
        return req.headers.get("authorization") === "Bearer new" ? reply(200, { tickets: [], hasMore: false }) : reply(403, { error: "ERR_SESSION_EXPIRED" });
      },
      "POST /api/auth/refresh_token": { token: "new", user: aUser() },
    });
    const page = await api.get<{ hasMore: boolean }>("/tickets", { query: { pageNumber: 1 } });
    expect(page.hasMore).toBe(false);
    expect(seen).toEqual(["Bearer old", "Bearer new"]);
    expect(calls.filter((c) => c.url.endsWith("/refresh_token"))).toHaveLength(1);
    expect(getToken()).toBe("new");
  });

  it("a 403 that is a real refusal is thrown without refreshing", async () => {
    saveSession("tok", aUser());
    const { calls } = mockFetch({ "GET /api/settings": reply(403, { error: "ERR_NO_PERMISSION" }) });
    await expect(api.get("/settings")).rejects.toMatchObject({ status: 403, code: "ERR_NO_PERMISSION" });
    expect(calls).toHaveLength(1);
    expect(getToken()).toBe("tok");
  });

  it("when the refresh is refused the session is cleared", async () => {
    saveSession("old", aUser());
    mockFetch({ "GET /api/tickets": reply(403, { error: "ERR_SESSION_EXPIRED" }), "POST /api/auth/refresh_token": reply(401, { error: "ERR_SESSION_EXPIRED" }) });
    await expect(api.get("/tickets")).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
  });

  it("on a 401 clears token and company id (logged out)", async () => {
    saveSession("tok", aUser());
    expect(getCompanyId()).toBe(2);
    mockFetch({ "GET /api/auth/me": reply(401, { error: "ERR_SESSION_EXPIRED" }) });
    await expect(api.get("/auth/me")).rejects.toMatchObject({ status: 401, code: "ERR_SESSION_EXPIRED" });
    expect(getToken()).toBeNull();
    expect(getCompanyId()).toBeNull();
  });

  it("sends FormData as multipart without forcing a JSON content type", async () => {
    saveSession("tok", aUser());
    const { calls } = mockFetch({ "POST /api/messages/7": reply(200, { ok: true }) });
    const form = new FormData();
    form.append("body", "hello");
    await api.post("/messages/7", form);
    expect(calls[0]?.headers.get("content-type")).toMatch(/^multipart\/form-data/);
  });

  it("public calls carry no token and a 401 there does not log out", async () => {
    saveSession("tok", aUser());
    const { calls } = mockFetch({ "POST /api/auth/login": reply(401, { error: "ERR_INVALID_CREDENTIALS" }) });
    await expect(api.post("/auth/login", { email: "a@b.c", password: "x" }, { auth: false })).rejects.toMatchObject({ code: "ERR_INVALID_CREDENTIALS" });
    expect(calls[0]?.headers.get("authorization")).toBeNull();
    expect(getToken()).toBe("tok");
  });

  it("the access token lives in memory only, never in localStorage or sessionStorage", async () => {
    saveSession("secret-token", aUser());
    mockFetch({ "POST /api/auth/refresh_token": { token: "rotated-token", user: aUser() } });
    await refreshSession();
    expect(getToken()).toBe("rotated-token");
    const stored = JSON.stringify({ ...localStorage, ...sessionStorage });
    expect(stored).not.toContain("secret-token");
    expect(stored).not.toContain("rotated-token");
  });

  it("arrays in the query string go as JSON", async () => {
    const { calls } = mockFetch({ "GET /api/tickets": { tickets: [] } });
    await api.get("/tickets", { query: { queueIds: [1, 2], searchParam: undefined, showAll: true } });
    expect(new URL(calls[0]!.url).search).toBe(`?queueIds=${encodeURIComponent("[1,2]")}&showAll=true`);
  });
});
