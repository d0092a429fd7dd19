import type { SessionIdentity } from "@atende/session-host/providers/provider.port";
import { attachBusiness } from "./business";
import { createNetworkState, type NetworkOptions } from "./network-state";
import type { SimulatorClient } from "./network-types";
import { createPhones } from "./phones";

export type { ConnectionRef } from "./network-state";
export type { CustomerMessageInput } from "./phones";
export { SimulatorError } from "./network-types";

/**
 * The simulated WhatsApp network: a stand-in for WhatsApp's servers and its users' phones, outside the session
 * hosts as WhatsApp is. Business clients (the session hosts' simulator sessions, over the wire: ./wire-server.ts)
 * attach to it; customers (a person on the simulator page, or tests through its HTTP API) send and receive.
 * Like WhatsApp, it keeps what it has not yet delivered to the business and delivers it, in order, once a
 * client is attached again: a host that dies before acknowledging loses nothing.
 */
export type SimulatorNetwork = ReturnType<typeof createSimulatorNetwork>;

export const createSimulatorNetwork = (opts: NetworkOptions) => {
  const s = createNetworkState(opts);
  return {
    ...createPhones(s),

    /** loads the paired connections (they reconnect without a QR, like a linked phone) */
    async init() {
      for (const p of await opts.pairing.load()) s.conn(p.companyId, p.whatsappId).number = p.number;
    },

    subscribe(listener: () => void) {
      s.listeners.add(listener);
      return () => s.listeners.delete(listener);
    },

    /** A business client connects. Paired: connected at once and pending events flow; otherwise a QR is shown. */
    attach: (identity: SessionIdentity, client: SimulatorClient) => attachBusiness(s, identity, client),

    /** a delivered attachment, for the business that got it (by its unguessable id) */
    mediaById: (id: string) => s.media.get(id),

    connections() {
      return [...s.conns.values()].map((c) => ({
        companyId: c.companyId,
        whatsappId: c.whatsappId,
        status: c.status,
        number: c.number ?? null,
        qr: c.qr ?? null,
        pairingCodeIssued: Boolean(c.pairingCode),
        pending: c.pending.length,
      }));
    },

    close() {
      for (const c of s.conns.values()) s.stopQr(c);
      for (const t of s.timers) clearTimeout(t);
      s.timers.clear();
    },
  };
};
