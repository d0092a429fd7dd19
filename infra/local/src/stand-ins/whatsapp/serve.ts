import { serve } from "@hono/node-server";
import { memoryPairingStore } from "./network-types";
import { startWhatsAppStandIn } from "./whatsapp-stand-in";
import { createSimulatorHttp } from "./whatsapp.http";

/**
 * WhatsApp's stand-in alone, in its own process: what the session host's tests (and anyone without the whole local
 * runner) dial, as they would dial WhatsApp. Prints one JSON line, `{"wire":"ws://...","http":"http://..."}`, then
 * serves until its parent goes away. Timings from SIM_ACK_DELAY_MS, SIM_PAIRING_DELAY_MS, SIM_QR_REFRESH_MS.
 */
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const standIn = await startWhatsAppStandIn({
  pairing: memoryPairingStore(),
  ackDelayMs: num(process.env.SIM_ACK_DELAY_MS),
  pairingDelayMs: num(process.env.SIM_PAIRING_DELAY_MS),
  qrRefreshMs: num(process.env.SIM_QR_REFRESH_MS),
});
const http = createSimulatorHttp(standIn.network);
const server = serve({ fetch: http.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  process.stdout.write(`${JSON.stringify({ wire: standIn.wire.url, http: `http://127.0.0.1:${info.port}` })}\n`);
});
const stop = async () => {
  server.close();
  await standIn.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("disconnect", stop);
