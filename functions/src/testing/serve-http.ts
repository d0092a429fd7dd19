import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";

/** Serves a fetch handler (a Hono app, a stand-in) on a free loopback port, for tests that talk real HTTP. */
export const serveHttp = async (fetchHandler: (req: Request) => Response | Promise<Response>) => {
  const server: Server = createServer(getRequestListener(fetchHandler));
  await new Promise<void>((res) => server.listen(0, "127.0.0.1", () => res()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((res) => {
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
};
