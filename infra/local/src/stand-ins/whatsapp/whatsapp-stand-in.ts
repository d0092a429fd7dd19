import type { StandIn } from "../registry";
import { createSimulatorNetwork, type SimulatorNetwork } from "./network";
import type { PairingStore } from "./network-types";
import { startWireServer, type WireServer } from "./wire-server";
import { createSimulatorHttp } from "./whatsapp.http";

export type WhatsAppStandIn = {
  network: SimulatorNetwork;
  /** where session hosts connect (SIMULATOR_NETWORK_URL) */
  wire: WireServer;
  /** its page and phones' API for the stand-in registry (/simulator) */
  standIn: StandIn;
  close: () => Promise<void>;
};

/** WhatsApp's stand-in: the network and phones, the wire the session hosts dial, the page with its tab. */
export const startWhatsAppStandIn = async (opts: {
  pairing: PairingStore;
  qrRefreshMs?: number;
  ackDelayMs?: number;
  pairingDelayMs?: number;
  wirePort?: number;
}): Promise<WhatsAppStandIn> => {
  const network = createSimulatorNetwork(opts);
  await network.init();
  const wire = await startWireServer(network, { port: opts.wirePort });
  const http = createSimulatorHttp(network);
  return {
    network,
    wire,
    standIn: {
      id: "whatsapp",
      prefix: "/simulator",
      fetch: (req) => http.fetch(req),
      tab: { path: "/simulator", order: 0, label: { pt: "QR (Baileys)", en: "QR (Baileys)", es: "QR (Baileys)" } },
    },
    close: async () => {
      network.close();
      await wire.close();
    },
  };
};
