import { ProviderError, type Provider, type ProviderSession, type SessionContext } from "../provider.port";
import type { SimulatorNetwork } from "./simulator-network";
import type { Delivery } from "./simulator-types";

/**
 * The simulator provider: a session is a client of the simulated network, as a Baileys session is a client of
 * WhatsApp. Every event reaches the host's handlers and is acknowledged to the network only after the handler
 * resolved (the event is on the durable queue).
 */
export const createSimulatorProvider = (network: SimulatorNetwork): Provider => ({
  channel: "simulator",
  createSession(ctx: SessionContext): ProviderSession {
    const { events } = ctx;
    let handle: ReturnType<SimulatorNetwork["attach"]> | undefined;
    let closed = false;
    let pairingCode: string | undefined;
    /** the QR on screen: kept on the event that brings the pairing code (the admin may still scan instead) */
    let lastQr = "";
    const report = (p: Promise<void>) => p.catch(() => undefined);

    const attach = () => {
      handle?.detach();
      closed = false;
      handle = network.attach(ctx.identity, {
        onQr: (qr) => {
          lastQr = qr;
          void report(events.connection({ status: "qrcode", qrcode: qr, ...(pairingCode ? { pairingCode } : {}) }));
        },
        onPairingCode: (code) => {
          pairingCode = code;
          void report(events.connection({ status: "qrcode", qrcode: lastQr, pairingCode: code }));
        },
        onPairing: () => {
          pairingCode = undefined;
          void report(events.connection({ status: "PAIRING", qrcode: "" }));
        },
        onConnected: (number) => void report(events.connection({ status: "CONNECTED", qrcode: "", number })),
        onLoggedOut: () => void report(events.connection({ status: "DISCONNECTED", qrcode: "", loggedOut: true })),
        deliver: async (d: Delivery) => {
          if (closed) throw new Error("session closed");
          if (d.kind === "message") await events.message(d.message);
          else if (d.kind === "update") await events.messageUpdate(d.update);
          else if (d.kind === "presence") await events.presence(d.update);
          else await events.call(d.call);
        },
      });
    };
    const live = () => {
      if (!handle || closed) throw new ProviderError("ERR_WAPP_NOT_INITIALIZED");
      return handle;
    };

    return {
      async start() {
        await events.connection({ status: "OPENING", qrcode: "" });
        attach();
      },
      async stop() {
        closed = true;
        handle?.detach();
        handle = undefined;
      },
      async logout() {
        if (!handle) attach();
        await handle?.logout();
        closed = true;
        handle?.detach();
        handle = undefined;
        await ctx.auth.clear();
      },
      async requestNewQr() {
        await ctx.auth.clear();
        if (!handle || closed) attach();
        await live().newQr();
      },
      async requestPairingCode(phoneNumber) {
        if (!handle || closed) attach();
        if (live().isConnected()) return;
        await live().requestPairingCode(phoneNumber);
      },
      isConnected: () => Boolean(handle && !closed && handle.isConnected()),
      send: (m) => live().send(m),
      edit: (chatJid, targetId, body) => live().edit(chatJid, targetId, body),
      delete: (chatJid, targetId) => live().delete(chatJid, targetId),
      react: (chatJid, targetId, emoji) => live().react(chatJid, targetId, emoji),
      markRead: (chatJid, ids) => live().markRead(chatJid, ids),
      sendPresence: (chatJid, presence) => live().presence(chatJid, presence),
      checkNumber: (number) => live().checkNumber(number),
      listContacts: () => live().listContacts(),
      checkNumbers: (numbers) => live().checkNumbers(numbers),
      rejectCall: (callId, from) => live().rejectCall(callId, from),
    };
  },
});
