import { getRequestListener } from "@hono/node-server";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { extname, join, normalize, resolve } from "node:path";
import { appContentSecurityPolicy, COMMON_SECURITY_HEADERS } from "@atende/shared/constants/security-headers";
import type { WsGateway } from "./ws-gateway";

/**
 * The SPA's headers, as CloudFront sends them in AWS (docs/security.md "Headers"): the WebSocket is same-origin
 * here (/ws), which 'self' covers. /api answers carry the Hono app's own headers.
 */
export const APP_HEADERS: Readonly<Record<string, string>> = { ...COMMON_SECURITY_HEADERS, "content-security-policy": appContentSecurityPolicy() };
/**
 * The simulator (a local-only tool that plays the customer's phone) is one page with an inline script: it may run
 * that, nothing from elsewhere, and no page may frame it.
 */
const SIMULATOR_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON_SECURITY_HEADERS,
  "content-security-policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
};
const setHeaders = (res: ServerResponse, headers: Readonly<Record<string, string>>) => {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
};

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".webp": "image/webp",
  // the web app manifest (issue 32)
  ".webmanifest": "application/manifest+json",
};

/**
 * The one local origin, as CloudFront will be in AWS: /api/* to the Hono app, /ws and /socket.io/ to the WebSocket gateway,
 * /config.json for the browser's runtime settings, everything else from the built web app (SPA fallback).
 */
export const createPublicServer = (opts: {
  fetch: (req: Request) => Response | Promise<Response>;
  gateway: WsGateway;
  webDist: string;
  runtimeConfig: () => Record<string, unknown>;
  /** the WhatsApp simulator's page and API (/simulator, /simulator/api/*), served by the in-process session host */
  simulator?: (req: Request) => Response | Promise<Response>;
}) => {
  const api = getRequestListener(opts.fetch);
  const simulator = opts.simulator ? getRequestListener(opts.simulator) : undefined;
  const root = resolve(opts.webDist);

  const serveStatic = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, "");
    let file = join(root, rel);
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) file = join(root, "index.html");
    if (!existsSync(file)) {
      res.writeHead(503, { "content-type": "text/plain" }).end("web app not built: npm run build -w web");
      return;
    }
    const immutable = file.includes(`${join(root, "assets")}`);
    setHeaders(res, APP_HEADERS);
    res.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
    });
    createReadStream(file).pipe(res);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (path === "/api" || path.startsWith("/api/")) {
      // The client address the throttles use is this socket's peer, read by the API from the adapter's env
      // (functions/src/platform/http/client-address.ts); headers the client sends are never believed.
      void api(req, res);
      return;
    }
    if (simulator && (path === "/simulator" || path.startsWith("/simulator/"))) {
      // the simulator's media route sets its own sandboxing CSP (shared/domain/media/media-sniff): kept
      setHeaders(res, SIMULATOR_HEADERS);
      void simulator(req, res);
      return;
    }
    if (path === "/config.json") {
      setHeaders(res, APP_HEADERS);
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-cache" }).end(JSON.stringify(opts.runtimeConfig()));
      return;
    }
    serveStatic(req, res);
  });

  server.on("upgrade", (req, socket, head) => {
    const path = (req.url ?? "/").split("?")[0];
    // /socket.io/ is the spec's clients' Socket.IO endpoint: the same gateway, as CloudFront routes it to the
    // same WebSocket API stage in AWS; the handler tells the protocols apart by the EIO query (ADR 0013).
    if (path === "/ws" || path === "/socket.io/" || path === "/socket.io") void opts.gateway.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  return server;
};
