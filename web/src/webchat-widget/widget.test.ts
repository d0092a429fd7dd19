import { afterEach, describe, expect, it, vi } from "vitest";
import { mountWidget } from "./main";

/** The widget in a page (jsdom): words are text, never HTML; the token survives a reload (docs/adr/0092). */
const KEY = "wk_test";
const roots: ShadowRoot[] = [];
const realAttach = Element.prototype.attachShadow;

/** A stand-in for the browser's WebSocket: the test opens, sends frames and closes it. */
class FakeSocket {
  static all: FakeSocket[] = [];
  static readonly OPEN = 1;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  sent: string[] = [];
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
}

const page = (messages: { id: string; fromMe: boolean; body: string }[]) => {
  const calls: { url: string; init?: RequestInit }[] = [];
  vi.stubGlobal("WebSocket", FakeSocket);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      if (url.endsWith("/config")) return Response.json({ greeting: "<b>Olá</b>", color: "red;background:url(x)", ask: { name: false, email: false, phone: false } });
      if (url.endsWith("/sessions")) return Response.json({ token: "tok-1" }, { status: 201 });
      if (url.endsWith("/messages") && init?.method === "POST") return Response.json({ id: "m9" }, { status: 201 });
      return Response.json({ messages: messages.map((m) => ({ ...m, mediaType: "chat", mediaName: null, createdAt: "" })) });
    }),
  );
  Element.prototype.attachShadow = function (init) {
    const r = realAttach.call(this, { ...init, mode: "open" });
    roots.push(r);
    return r;
  };
  const script = document.createElement("script");
  script.src = "https://app.example/webchat.123.js";
  script.dataset.key = KEY;
  return { script, calls };
};

afterEach(() => {
  Element.prototype.attachShadow = realAttach;
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
  roots.length = 0;
  FakeSocket.all.length = 0;
  localStorage.clear();
  vi.useRealTimers();
});

describe("the webchat widget", () => {
  it("renders the greeting and every message as text, never as HTML, and keeps its colour a hex", async () => {
    localStorage.setItem(`atende-webchat:${KEY}`, "tok-0");
    const { script } = page([{ id: "a", fromMe: false, body: '<img src=x onerror="alert(1)">oi' }, { id: "b", fromMe: true, body: "<script>alert(2)</script>" }]);
    await mountWidget(script);
    await vi.waitFor(() => expect(roots[0]!.querySelectorAll(".msg")).toHaveLength(3));
    const root = roots[0]!;
    expect([...root.querySelectorAll(".msg")].map((m) => m.textContent)).toEqual(["<b>Olá</b>", '<img src=x onerror="alert(1)">oi', "<script>alert(2)</script>"]);
    expect(root.querySelector(".list img, .list script, .list b")).toBeNull();
    expect(root.querySelector("style")!.textContent).toContain("--c:#2563eb;");
  });

  it("starts a session on the first message and keeps the token in localStorage, so a reload reads the same conversation", async () => {
    const { script, calls } = page([]);
    await mountWidget(script);
    const root = roots[0]!;
    (root.querySelector("textarea") as HTMLTextAreaElement).value = "Olá!";
    root.querySelector<HTMLFormElement>("form.compose")!.dispatchEvent(new Event("submit", { cancelable: true }));
    await vi.waitFor(() => expect(calls.some((c) => c.url.endsWith("/messages") && c.init?.method === "POST")).toBe(true));
    expect(localStorage.getItem(`atende-webchat:${KEY}`)).toBe("tok-1");
    const sent = calls.find((c) => c.url.endsWith("/messages") && c.init?.method === "POST")!;
    expect(new Headers(sent.init!.headers).get("Authorization")).toBe("Bearer tok-1");
    expect(sent.init!.credentials).toBe("omit");
    // a reload: a new widget reads the conversation with the kept token, without a new session
    document.body.innerHTML = "";
    const again = page([{ id: "a", fromMe: false, body: "Olá!" }]);
    await mountWidget(again.script);
    await vi.waitFor(() => expect(again.calls.some((c) => c.url.endsWith("/messages") && new Headers(c.init?.headers).get("Authorization") === "Bearer tok-1")).toBe(true));
    expect(again.calls.some((c) => c.url.endsWith("/sessions"))).toBe(false);
  });

  it("opens the visitor's socket with the token; a reply on it shows at once; while it is down the conversation is read every 30 s and the socket reopened", async () => {
    localStorage.setItem(`atende-webchat:${KEY}`, "tok-0");
    const { script, calls } = page([]);
    await mountWidget(script);
    const socket = FakeSocket.all[0]!;
    expect(socket.url).toBe(`wss://app.example/socket.io/?webchat=${KEY}&token=tok-0`);
    socket.open();
    socket.onmessage!({ data: JSON.stringify({ type: "message", message: { id: "r1", fromMe: true, body: "<i>Oi!</i>", mediaType: "chat", mediaName: null, createdAt: "" } }) });
    const root = roots[0]!;
    expect([...root.querySelectorAll(".msg.them")].map((m) => m.textContent)).toContain("<i>Oi!</i>");
    expect(root.querySelector(".list i")).toBeNull();
    // the socket drops: a slow read (30 s) while down, and a new socket after a backoff
    vi.useFakeTimers();
    const reads = () => calls.filter((c) => c.url.endsWith("/messages") && !c.init?.method).length;
    const before = reads();
    socket.close();
    vi.advanceTimersByTime(29_000);
    expect(FakeSocket.all.length).toBeGreaterThan(1);
    expect(reads()).toBe(before);
    FakeSocket.all.at(-1)!.close();
    vi.advanceTimersByTime(1_500);
    expect(reads()).toBe(before + 1);
  });
});
