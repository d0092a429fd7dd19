import type { VisitorMessage } from "./api";

/** While the socket is down, the conversation is still read this often (docs/adr/0096). */
export const FALLBACK_POLL_MS = 30_000;
/** A frame now and then keeps API Gateway from closing a quiet socket (it does after 10 idle minutes). */
export const KEEPALIVE_MS = 5 * 60_000;
const PING = '{"action":"webchat.ping"}';
const MAX_BACKOFF_MS = 30_000;

/**
 * The visitor's socket (docs/adr/0096): opened with the visitor's token, it brings the company's replies at once.
 * Closed or refused, it is opened again after 1, 2, 4 … 30 s (with jitter); while it is down, `read` runs every
 * FALLBACK_POLL_MS; each time it opens, `read` runs once to catch what came while it was down.
 */
export const startLive = (opts: { url: () => string | null; onMessage: (m: VisitorMessage) => void; read: () => void }) => {
  let ws: WebSocket | null = null;
  let attempt = 0;
  let stopped = false;
  let retry: number | undefined;
  let poll: number | undefined;
  let keepalive: number | undefined;
  const fallback = (on: boolean) => {
    window.clearInterval(poll);
    poll = on ? window.setInterval(opts.read, FALLBACK_POLL_MS) : undefined;
  };
  const open = () => {
    const url = opts.url();
    if (stopped || !url) return;
    const socket = new WebSocket(url);
    ws = socket;
    socket.onopen = () => {
      attempt = 0;
      fallback(false);
      window.clearInterval(keepalive);
      keepalive = window.setInterval(() => socket.send(PING), KEEPALIVE_MS);
      opts.read();
    };
    socket.onmessage = (ev) => {
      try {
        const frame = JSON.parse(String(ev.data)) as { type?: string; message?: VisitorMessage };
        if (frame.type === "message" && typeof frame.message?.id === "string") opts.onMessage(frame.message);
      } catch {
        // not ours: ignored
      }
    };
    socket.onclose = () => {
      window.clearInterval(keepalive);
      if (ws !== socket || stopped) return;
      ws = null;
      if (poll === undefined) fallback(true);
      const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt++) * (0.75 + Math.random() * 0.5);
      retry = window.setTimeout(open, wait);
    };
  };
  open();
  return {
    connected: () => ws?.readyState === WebSocket.OPEN,
    stop() {
      stopped = true;
      window.clearTimeout(retry);
      window.clearInterval(keepalive);
      fallback(false);
      ws?.close();
      ws = null;
    },
  };
};
