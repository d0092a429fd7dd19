import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mockFetch, reply } from "../testing/fetch-mock";
import { aUser } from "../testing/fixtures";
import { connectRealtime, disconnectRealtime, joinRoom, onRealtimeOpen, socketUrl, subscribeRealtime } from "./realtime";
import { saveSession } from "./session-storage";

/** A stand-in WebSocket the test drives by hand. */
class FakeSocket {
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
  serverOpens() {
    this.readyState = 1;
    this.onopen?.();
  }
  serverCloses() {
    this.readyState = 3;
    this.onclose?.();
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
};

describe("realtime socket", () => {
  let reload: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, origin: "http://app.test", reload });
  });
  afterEach(() => {
    disconnectRealtime();
    vi.useRealTimers();
  });

  it("builds the URL from wsPath (same origin) or wsUrl (AWS)", () => {
    expect(socketUrl({ wsPath: "/ws" }, "a b", "https://app.test")).toBe("wss://app.test/ws?token=a%20b");
    expect(socketUrl({ wsUrl: "wss://ws.example.com/prod" }, "t", "https://app.test")).toBe("wss://ws.example.com/prod?token=t");
  });

  it("delivers frames by event, rejoins rooms with a refreshed token after a drop, and tells listeners", async () => {
    saveSession("first", aUser());
    mockFetch({ "GET /config.json": { wsPath: "/ws" }, "POST /api/auth/refresh_token": { token: "second", user: aUser() } });
    const events: unknown[] = [];
    const opens = vi.fn();
    const offEvent = subscribeRealtime("ticket", (data) => events.push(data));
    const offOpen = onRealtimeOpen(opens);
    const leave = joinRoom("joinTickets", "open");

    connectRealtime();
    await flush();
    const first = FakeSocket.all[0]!;
    expect(first.url).toContain("token=first");
    first.serverOpens();
    expect(first.sent).toEqual(expect.arrayContaining([{ action: "joinTickets", data: "open" }, { action: "userStatus" }]));

    first.onmessage?.({ data: JSON.stringify({ channel: "company-2-ticket", event: "ticket", data: { action: "update", id: 1 } }) });
    expect(events).toEqual([{ action: "update", id: 1 }]);
    expect(opens).toHaveBeenCalledTimes(1);
    expect(opens).toHaveBeenLastCalledWith({ openedAt: expect.any(Number), reconnect: false });

    first.serverCloses();
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    const second = FakeSocket.all[1]!;
    expect(second.url).toContain("token=second");
    second.serverOpens();
    expect(second.sent).toContainEqual({ action: "joinTickets", data: "open" });
    expect(opens).toHaveBeenCalledTimes(2);
    expect(opens).toHaveBeenLastCalledWith({ openedAt: expect.any(Number), reconnect: true });

    leave();
    expect(second.sent).toContainEqual({ action: "leaveTickets", data: "open" });
    offEvent();
    offOpen();
  });

  it("reloads the page when the session can no longer be refreshed", async () => {
    saveSession("first", aUser());
    mockFetch({ "GET /config.json": { wsPath: "/ws" }, "POST /api/auth/refresh_token": reply(401, { error: "ERR_SESSION_EXPIRED" }) });
    connectRealtime();
    await flush();
    FakeSocket.all[0]!.serverOpens();
    FakeSocket.all[0]!.serverCloses();
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(reload).toHaveBeenCalled();
    expect(FakeSocket.all).toHaveLength(1);
  });

  it("keeps retrying while the server is down instead of reloading", async () => {
    saveSession("first", aUser());
    let refreshAnswer = reply(502, { error: "ERR_INTERNAL" });
    mockFetch({ "GET /config.json": { wsPath: "/ws" }, "POST /api/auth/refresh_token": () => refreshAnswer });
    connectRealtime();
    await flush();
    FakeSocket.all[0]!.serverOpens();
    FakeSocket.all[0]!.serverCloses();
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(reload).not.toHaveBeenCalled();
    expect(FakeSocket.all).toHaveLength(1);
    refreshAnswer = reply(200, { token: "back", user: aUser() });
    await vi.advanceTimersByTimeAsync(2000);
    await flush();
    expect(FakeSocket.all[1]?.url).toContain("token=back");
  });
});
