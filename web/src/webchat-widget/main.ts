import { createApi, type VisitorMessage, type WidgetConfig } from "./api";
import { textsFor } from "./texts";
import { STYLES } from "./styles";
import { startLive } from "./live";

/**
 * The website chat widget (issue 31 item 3, docs/adr/0092): `<script src="https://<host>/webchat.js" data-key="…" async>`
 * on a company's page gives a floating button and a chat window. Plain DOM in a closed shadow root (the page's CSS
 * and scripts don't reach it); everything anyone wrote is set with textContent, never parsed as HTML. The visitor's
 * token is kept in localStorage, so the conversation survives reloads. The company's replies come over the visitor's
 * socket (docs/adr/0096), with a slow read only while that socket is down.
 */

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, text?: string): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
};

const safeColor = (c: string) => (/^#[0-9a-fA-F]{3,8}$/.test(c) ? c : "#2563eb");

export const mountWidget = async (script: HTMLScriptElement) => {
  const key = script.dataset.key ?? "";
  if (!key) return;
  const base = new URL(script.src, location.href).origin;
  const api = createApi(base, key);
  const t = textsFor(navigator.languages?.length ? navigator.languages : [navigator.language]);
  const storeKey = `atende-webchat:${key}`;
  let config: WidgetConfig;
  try {
    config = await api.config();
  } catch {
    return; // not an allowed origin, or the chat is off: no button
  }
  let token = localStorage.getItem(storeKey);

  const host = el("div", { "data-atende-webchat": "" });
  const root = host.attachShadow({ mode: "closed" });
  const style = el("style", {}, STYLES.replace(/--c:[^;]+;/, `--c:${safeColor(config.color)};`));
  const button = el("button", { class: "fab", "aria-label": t.open, part: "button" }, "💬");
  const panel = el("div", { class: "panel", role: "dialog", "aria-label": t.title, hidden: "" });
  const header = el("div", { class: "head" });
  header.append(el("span", {}, t.title));
  const closeBtn = el("button", { class: "x", "aria-label": t.close }, "×");
  header.append(closeBtn);
  const list = el("div", { class: "list", "aria-live": "polite" });
  const form = el("form", { class: "compose" });
  const input = el("textarea", { rows: "1", placeholder: t.placeholder, "aria-label": t.placeholder });
  const fileInput = el("input", { type: "file", hidden: "" });
  const attach = el("button", { type: "button", class: "att", "aria-label": t.attach, title: t.attach }, "📎");
  const send = el("button", { type: "submit", class: "send" }, t.send);
  const error = el("div", { class: "err", hidden: "" }, t.error);
  form.append(attach, fileInput, input, send);

  // what is asked before the first message (the connection's choice)
  const asked = (["name", "email", "phone"] as const).filter((f) => config.ask[f]);
  const pre = el("form", { class: "pre" });
  const fields = asked.map((f) => {
    const i = el("input", { name: f, type: f === "email" ? "email" : f === "phone" ? "tel" : "text", placeholder: t[f], "aria-label": t[f], required: "" });
    pre.append(i);
    return i;
  });
  pre.append(el("button", { type: "submit", class: "send" }, t.start));

  panel.append(header, list, error, token || asked.length === 0 ? form : pre);
  root.append(style, button, panel);
  document.body.append(host);

  const seen = new Set<string>();
  const greeting = el("div", { class: "msg them" }, config.greeting);
  if (config.greeting) list.append(greeting);
  const render = (m: VisitorMessage) => {
    if (seen.has(m.id)) return;
    seen.add(m.id);
    // fromMe: the company wrote (the inbox's point of view)
    const bubble = el("div", { class: m.fromMe ? "msg them" : "msg me", "data-id": m.id });
    bubble.textContent = m.body || (m.mediaName ? `${t.file}: ${m.mediaName}` : `${t.file}`);
    list.append(bubble);
    list.scrollTop = list.scrollHeight;
  };
  let live: ReturnType<typeof startLive> | null = null;
  const refresh = async () => {
    if (!token) return;
    try {
      (await api.messages(token)).messages.forEach(render);
    } catch (e) {
      if ((e as { status?: number }).status === 401) {
        token = null;
        localStorage.removeItem(storeKey);
        live?.stop();
        live = null;
      }
    }
  };
  const goLive = () => {
    live ??= startLive({ url: () => (token ? api.socketUrl(token) : null), onMessage: render, read: () => void refresh() });
  };
  const ensureToken = async (who: Record<string, string> = {}) => {
    if (!token) {
      token = (await api.session(who)).token;
      localStorage.setItem(storeKey, token);
      goLive();
    }
    return token;
  };
  const open = (yes: boolean) => {
    panel.hidden = !yes;
    if (yes) {
      if (!live?.connected()) void refresh();
      input.focus();
    }
  };
  button.addEventListener("click", () => open(panel.hasAttribute("hidden")));
  closeBtn.addEventListener("click", () => open(false));
  pre.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const who = Object.fromEntries(fields.map((f) => [f.name, f.value.trim()]).filter(([, v]) => v));
    void ensureToken(who).then(
      () => {
        pre.replaceWith(form);
        input.focus();
      },
      () => {
        error.hidden = false;
      },
    );
  });
  // what the visitor sent shows at once (the server's id, so a later read doesn't repeat it)
  const deliver = async (work: (token: string) => Promise<{ id: string }>, body: string, mediaName: string | null) => {
    error.hidden = true;
    try {
      const { id } = await work(await ensureToken());
      render({ id, fromMe: false, body, mediaType: mediaName ? "document" : "chat", mediaName, createdAt: new Date().toISOString() });
    } catch {
      error.hidden = false;
    }
  };
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const body = input.value.trim();
    if (!body) return;
    input.value = "";
    void deliver((tk) => api.send(tk, body), body, null);
  });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });
  attach.addEventListener("click", () => fileInput.click());
  fileInput.addEventListener("change", () => {
    const file = fileInput.files?.[0];
    fileInput.value = "";
    if (file) void deliver((tk) => api.sendFile(tk, file), "", file.name);
  });
  if (token) {
    void refresh();
    goLive();
  }
};

const current = document.currentScript as HTMLScriptElement | null;
if (current) {
  const start = () => void mountWidget(current);
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start);
}
