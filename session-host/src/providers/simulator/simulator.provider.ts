import { WIRE_CLOSE_REPLACED, type WireClientFrame, type WireOp, type WireServerFrame } from "@atende/shared/contracts/simulator-wire";
import WebSocket from "ws";
import { ProviderError, type IncomingCall, type MessageUpdate, type PresenceUpdate, type Provider, type ProviderMessage, type ProviderSession, type SessionContext } from "../provider.port";

/**
 * The simulator provider: a session is a client of the simulated WhatsApp network, over the wire, as a Baileys
 * session is a client of WhatsApp (one WebSocket per session; the frames: shared/contracts/simulator-wire.ts).
 * The network runs outside the session hosts (infra/local/src/stand-ins/whatsapp/, never imported here). Every
 * delivered event reaches the host's handlers and is acknowledged to the network only after the handler resolved
 * (the event is on the durable queue); what is not acknowledged stays with the network and comes again.
 */
export type SimulatorProviderOptions = {
  /** the network's wire, e.g. ws://127.0.0.1:4100/wa (SIMULATOR_NETWORK_URL) */
  url: string;
  /** before dialling again after the network went away */
  reconnectMs?: number;
};

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
const PROVIDER_CODES = new Set(["ERR_WAPP_NOT_INITIALIZED", "ERR_SENDING_WAPP_MSG", "ERR_DELETE_WAPP_MSG", "ERR_WAPP_INVALID_CONTACT", "ERR_WAPP_CHECK_CONTACT", "ERR_WAPP_MEDIA_TOO_LARGE"]);

export const createSimulatorProvider = (opts: SimulatorProviderOptions): Provider => ({
  channel: "simulator",
  createSession(ctx: SessionContext): ProviderSession {
    const { events } = ctx;
    const reconnectMs = opts.reconnectMs ?? 1_000;
    let ws: WebSocket | undefined;
    /** stopped by the host (stop, logout) or replaced by another host: no dialling again */
    let closed = true;
    let connected = false;
    let replaced = false;
    let pairingCode: string | undefined;
    /** the QR on screen: kept on the event that brings the pairing code (the admin may still scan instead) */
    let lastQr = "";
    let nextCall = 0;
    const calls = new Map<number, Pending>();
    let redial: NodeJS.Timeout | undefined;
    const report = (p: Promise<void>) => p.catch(() => undefined);

    const failCalls = (why: string) => {
      for (const c of calls.values()) c.reject(new ProviderError("ERR_WAPP_NOT_INITIALIZED", why));
      calls.clear();
    };

    const toProviderMessage = (p: Record<string, unknown>): ProviderMessage => {
      const m = p as unknown as ProviderMessage & { media?: { mimetype: string; filename?: string; url: string } };
      if (!m.media) return m;
      const { url, mimetype, filename } = m.media;
      return {
        ...m,
        media: {
          mimetype,
          filename,
          download: async () => {
            const res = await fetch(url);
            if (!res.ok) throw new Error(`media download failed: ${res.status}`);
            return Buffer.from(await res.arrayBuffer());
          },
        },
      };
    };

    const onFrame = async (socket: WebSocket, frame: WireServerFrame) => {
      switch (frame.t) {
        case "qr":
          connected = false;
          lastQr = frame.qr;
          return report(events.connection({ status: "qrcode", qrcode: frame.qr, ...(pairingCode ? { pairingCode } : {}) }));
        case "pairingCode":
          pairingCode = frame.code;
          return report(events.connection({ status: "qrcode", qrcode: lastQr, pairingCode: frame.code }));
        case "pairing":
          pairingCode = undefined;
          return report(events.connection({ status: "PAIRING", qrcode: "" }));
        case "connected":
          connected = true;
          return report(events.connection({ status: "CONNECTED", qrcode: "", number: frame.number }));
        case "loggedOut":
          connected = false;
          return report(events.connection({ status: "DISCONNECTED", qrcode: "", loggedOut: true }));
        case "passkeyRequired":
          // WhatsApp's passkey_prologue_request during linking: the phone cannot finish here (ADR 0073)
          connected = false;
          return report(events.connection({ status: "PASSKEY_REQUIRED", qrcode: "", reason: "passkey_prologue_request" }));
        case "result": {
          const c = calls.get(frame.id);
          calls.delete(frame.id);
          if (!c) return;
          if (frame.ok) c.resolve(frame.value);
          else c.reject(PROVIDER_CODES.has(frame.code ?? "") ? new ProviderError(frame.code as never, frame.message) : new Error(frame.message));
          return;
        }
        case "deliver": {
          let ok = true;
          try {
            if (closed || socket !== ws) throw new Error("session closed");
            if (frame.kind === "message") await events.message(toProviderMessage(frame.payload));
            else if (frame.kind === "update") await events.messageUpdate(frame.payload as unknown as MessageUpdate);
            else if (frame.kind === "presence") await events.presence(frame.payload as unknown as PresenceUpdate);
            else await events.call(frame.payload as unknown as IncomingCall);
          } catch {
            ok = false;
          }
          send(socket, { t: "ack", seq: frame.seq, ok });
        }
      }
    };

    const send = (socket: WebSocket | undefined, frame: WireClientFrame) => {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
    };

    /** dials the network; resolves once it told this session the connection's state (or the dial failed) */
    const dial = () =>
      new Promise<void>((settle) => {
        clearTimeout(redial);
        // a socket still connecting emits an error when terminated: keep a listener (no unhandled error)
        ws?.removeAllListeners().on("error", () => undefined).terminate();
        closed = replaced = false;
        connected = false;
        const socket = new WebSocket(opts.url, { maxPayload: 128 * 1024 * 1024 });
        ws = socket;
        socket.on("open", () => send(socket, { t: "attach", companyId: ctx.identity.companyId, whatsappId: ctx.identity.whatsappId }));
        socket.on("message", (raw) => {
          const frame = JSON.parse(String(raw)) as WireServerFrame;
          if (frame.t !== "result" && frame.t !== "deliver") settle();
          void onFrame(socket, frame);
        });
        socket.on("error", () => undefined);
        socket.on("close", (code) => {
          settle();
          if (ws !== socket) return;
          connected = false;
          failCalls("the simulated network closed the session");
          // another client attached the connection: stop here; the host dials again if it still holds the lease
          if (code === WIRE_CLOSE_REPLACED) closed = replaced = true;
          if (!closed) redial = setTimeout(() => void dial(), reconnectMs);
        });
      });

    const call = <T>(op: WireOp, ...args: unknown[]) =>
      new Promise<T>((resolve, reject) => {
        if (closed || !ws) return reject(new ProviderError("ERR_WAPP_NOT_INITIALIZED"));
        const socket = ws;
        const go = () => {
          const id = ++nextCall;
          calls.set(id, { resolve: resolve as (v: unknown) => void, reject });
          send(socket, { t: "call", id, op, args });
        };
        if (socket.readyState === WebSocket.OPEN) go();
        else if (socket.readyState === WebSocket.CONNECTING) socket.once("open", go);
        else reject(new ProviderError("ERR_WAPP_NOT_INITIALIZED"));
      });

    const hangUp = () => {
      closed = true;
      connected = false;
      clearTimeout(redial);
      const socket = ws;
      ws = undefined;
      failCalls("session closed");
      socket?.removeAllListeners().on("error", () => undefined);
      socket?.close();
    };

    return {
      async start() {
        replaced = false;
        await events.connection({ status: "OPENING", qrcode: "" });
        await dial();
      },
      async stop() {
        hangUp();
      },
      async logout() {
        if (closed) await dial();
        await call("logout");
        hangUp();
        await ctx.auth.clear();
      },
      async requestNewQr() {
        await ctx.auth.clear();
        if (closed) await dial();
        await call("newQr");
      },
      async requestPairingCode(phoneNumber) {
        if (closed) await dial();
        if (connected) return;
        await call("requestPairingCode", phoneNumber);
      },
      isConnected: () => !closed && connected,
      wasReplaced: () => replaced,
      async send(m) {
        const media = m.media && { kind: m.media.kind, key: m.media.key, mimetype: m.media.mimetype, filename: m.media.filename, ptt: m.media.ptt, base64: (await m.media.read()).toString("base64") };
        return call<{ messageId: string }>("send", { messageId: m.messageId, chatJid: m.chatJid, body: m.body, quotedId: m.quotedId, isForwarded: m.isForwarded, media });
      },
      edit: (chatJid, targetId, body) => call("edit", chatJid, targetId, body),
      delete: (chatJid, targetId) => call("delete", chatJid, targetId),
      react: (chatJid, targetId, emoji) => call("react", chatJid, targetId, emoji),
      markRead: (chatJid, ids) => call("markRead", chatJid, ids),
      sendPresence: (chatJid, presence) => call("presence", chatJid, presence),
      checkNumber: (number) => call("checkNumber", number),
      listContacts: () => call("listContacts"),
      checkNumbers: (numbers) => call("checkNumbers", numbers),
      rejectCall: (callId, from) => call("rejectCall", callId, from),
    };
  },
});
