import { createServer, type Server } from "node:http";
import { WIRE_CLOSE_REPLACED, type WireClientFrame, type WireOp, type WireOutgoingMedia, type WireServerFrame } from "@atende/shared/contracts/simulator-wire";
import { WebSocketServer, type WebSocket } from "ws";
import type { BusinessHandle, NetworkOutgoing } from "./business";
import type { SimulatorNetwork } from "./network";
import { BusinessError, type Delivery } from "./network-types";

/**
 * The network's side of the wire (shared/contracts/simulator-wire.ts): a WebSocket per business session on a
 * loopback port, as WhatsApp's servers take a socket per linked device, and the attachments it delivered over
 * HTTP beside it (GET /media/<unguessable id>), as WhatsApp's CDN.
 */
export type WireServer = { url: string; port: number; close: () => Promise<void> };

const MAX_FRAME_BYTES = 128 * 1024 * 1024;

export const startWireServer = async (network: SimulatorNetwork, opts: { port?: number; host?: string } = {}): Promise<WireServer> => {
  const host = opts.host ?? "127.0.0.1";
  const server: Server = createServer((req, res) => {
    const m = /^\/media\/([A-Za-z0-9_-]{16,64})$/.exec(req.url ?? "");
    const found = m?.[1] ? network.mediaById(m[1]) : undefined;
    if (req.method !== "GET" || !found) return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
    res.writeHead(200, { "content-type": found.mimetype, "content-length": found.bytes.length }).end(found.bytes);
  });
  const wss = new WebSocketServer({ server, path: "/wa", maxPayload: MAX_FRAME_BYTES });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, host, r));
  const port = (server.address() as { port: number }).port;
  const mediaBase = `http://${host}:${port}/media/`;

  wss.on("connection", (ws: WebSocket) => {
    let handle: BusinessHandle | undefined;
    let seq = 0;
    const waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
    const send = (frame: WireServerFrame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    const failWaiting = () => {
      for (const w of waiting.values()) w.reject(new Error("socket closed"));
      waiting.clear();
    };

    const deliver = (d: Delivery) =>
      new Promise<void>((resolve, reject) => {
        if (ws.readyState !== ws.OPEN) return reject(new Error("socket closed"));
        const n = ++seq;
        waiting.set(n, { resolve, reject });
        const payload: Record<string, unknown> =
          d.kind === "message"
            ? {
                ...d.message,
                media: d.message.media && { mimetype: d.message.media.mimetype, filename: d.message.media.filename, url: mediaBase + d.message.media.mediaId },
              }
            : d.kind === "call"
              ? d.call
              : d.update;
        send({ t: "deliver", seq: n, kind: d.kind, payload });
      });

    const run = async (op: WireOp, args: unknown[]): Promise<unknown> => {
      if (!handle) throw new BusinessError("ERR_WAPP_NOT_INITIALIZED", "attach first");
      const a = args as [never, never, never];
      switch (op) {
        case "send": {
          const m = args[0] as Omit<NetworkOutgoing, "media"> & { media?: WireOutgoingMedia };
          const media = m.media && { kind: m.media.kind, key: m.media.key, mimetype: m.media.mimetype, filename: m.media.filename, bytes: Buffer.from(m.media.base64, "base64") };
          return handle.send({ ...m, media });
        }
        case "logout":
          return handle.logout();
        case "requestPairingCode":
          return handle.requestPairingCode(a[0]);
        case "newQr":
          return handle.newQr();
        case "edit":
          return handle.edit(a[0], a[1], a[2]);
        case "delete":
          return handle.delete(a[0], a[1]);
        case "react":
          return handle.react(a[0], a[1], a[2]);
        case "markRead":
          return handle.markRead(a[0], a[1]);
        case "presence":
          return handle.presence(a[0], a[1]);
        case "checkNumber":
          return handle.checkNumber(a[0]);
        case "listContacts":
          return handle.listContacts();
        case "checkNumbers":
          return handle.checkNumbers(a[0]);
        case "rejectCall":
          return handle.rejectCall(a[0], a[1]);
      }
    };

    ws.on("message", (raw) => {
      let frame: WireClientFrame;
      try {
        frame = JSON.parse(String(raw)) as WireClientFrame;
      } catch {
        return void ws.close(1003, "not JSON");
      }
      if (frame.t === "attach") {
        if (handle || !Number.isInteger(frame.companyId) || !Number.isInteger(frame.whatsappId)) return void ws.close(1008, "one attach per socket");
        handle = network.attach(
          { companyId: frame.companyId, whatsappId: frame.whatsappId },
          {
            onQr: (qr) => send({ t: "qr", qr }),
            onPairingCode: (code) => send({ t: "pairingCode", code }),
            onPairing: () => send({ t: "pairing" }),
            onConnected: (number) => send({ t: "connected", number }),
            onLoggedOut: () => send({ t: "loggedOut" }),
            onPasskeyRequired: () => send({ t: "passkeyRequired" }),
            onReplaced: () => {
              failWaiting();
              ws.close(WIRE_CLOSE_REPLACED, "connection replaced");
            },
            deliver,
          },
        );
      } else if (frame.t === "ack") {
        const w = waiting.get(frame.seq);
        waiting.delete(frame.seq);
        if (frame.ok) w?.resolve();
        else w?.reject(new Error("not acknowledged"));
      } else if (frame.t === "call") {
        run(frame.op, frame.args).then(
          (value) => send({ t: "result", id: frame.id, ok: true, value }),
          (err: unknown) => send({ t: "result", id: frame.id, ok: false, code: err instanceof BusinessError ? err.code : undefined, message: err instanceof Error ? err.message : String(err) }),
        );
      }
    });
    ws.on("close", () => {
      failWaiting();
      handle?.detach();
    });
  });

  return {
    url: `ws://${host}:${port}/wa`,
    port,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};
