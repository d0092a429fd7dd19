import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The simulated WhatsApp network for the session host's tests: started as its own process (the local stand-in,
 * infra/local/src/stand-ins/whatsapp/serve.ts, run by path: never imported) and driven through its phones' HTTP
 * API, as the e2e tests drive it. The hosts under test dial `wireUrl` (SIMULATOR_NETWORK_URL).
 */
const SERVE = fileURLToPath(new URL("../../../infra/local/src/stand-ins/whatsapp/serve.ts", import.meta.url));

type Ref = { companyId: number; whatsappId: number };
export type SimConnection = { companyId: number; whatsappId: number; status: string; number: string | null; qr: string | null; pending: number };
export type SimChatEntry = { id: string; fromCustomer: boolean; type: string; body: string; ack: number; media?: { id: string; key?: string; mimetype: string } };

export const startSimulatedNetwork = async (opts: { ackDelayMs?: number; pairingDelayMs?: number; qrRefreshMs?: number } = {}) => {
  const child = spawn(process.execPath, ["--import", "tsx", SERVE], {
    env: {
      ...process.env,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      SIM_ACK_DELAY_MS: String(opts.ackDelayMs ?? 10),
      SIM_PAIRING_DELAY_MS: String(opts.pairingDelayMs ?? 10),
      SIM_QR_REFRESH_MS: String(opts.qrRefreshMs ?? 60_000),
    },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const { wire, http } = await new Promise<{ wire: string; http: string }>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line) as { wire: string; http: string });
    });
    child.once("exit", (code) => reject(new Error(`the simulated network exited (${code})`)));
  });
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${http}/simulator/api${path}`, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as T & { error?: string };
    if (!res.ok) throw Object.assign(new Error(`${method} ${path}: ${res.status} ${json.error ?? ""}`), { status: res.status });
    return json;
  };
  const q = (ref: Ref) => `companyId=${ref.companyId}&whatsappId=${ref.whatsappId}`;
  return {
    wireUrl: wire,
    httpUrl: http,
    connections: () => api<SimConnection[]>("GET", "/connections"),
    scan: (ref: Ref, number?: string, passkey?: boolean) => api<{ number: string | null }>("POST", `/connections/${ref.companyId}/${ref.whatsappId}/scan`, { number, passkey }),
    upsertCustomer: (number: string, name?: string, autoAck?: boolean) => api("POST", "/customers", { number, name, autoAck }),
    customerSend: (number: string, ref: Ref, input: Record<string, unknown>) => api<{ id: string }>("POST", `/customers/${number}/messages`, { ...ref, ...input }),
    chat: (number: string, ref: Ref) => api<{ messages: SimChatEntry[] }>("GET", `/customers/${number}/messages?${q(ref)}`),
    setPhoneBook: (ref: Ref, entries: { number: string; name?: string }[]) => api("PUT", `/connections/${ref.companyId}/${ref.whatsappId}/contacts`, entries),
    unlink: (ref: Ref) => api("POST", `/connections/${ref.companyId}/${ref.whatsappId}/disconnect`),
    close: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await gone;
    },
  };
};
export type SimulatedNetwork = Awaited<ReturnType<typeof startSimulatedNetwork>>;
