import { httpJson, poll, type Json } from "./http";

/**
 * The demo company's simulator connection and its customers, over HTTP (the simulator's API and ours), for e2e tests
 * and benchmarks against a running platform.
 */
export type ChatEntry = { id: string; fromCustomer: boolean; body: string; ack?: number };
export type SimulatorSession = { token: string; companyId: number; whatsappId: number };

/** Signs in over HTTP and makes sure the company's connection named `name` (or its first one) is connected. */
export const connectSimulator = async (base: string, login: { email: string; password: string }, name = "Simulador"): Promise<SimulatorSession> => {
  const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(base, path, init);
  const auth = await http<{ token: string; user: { companyId: number } }>("/api/auth/login", { method: "POST", body: login });
  if (auth.status !== 200) throw new Error(`login failed: ${auth.status} ${JSON.stringify(auth.data)}`);
  const token = auth.data.token;
  const companyId = auth.data.user.companyId;
  const list = await http<{ id: number; name: string }[]>("/api/whatsapp/", { token });
  const whatsappId = list.data.find((w) => w.name === name)?.id ?? list.data[0]!.id;
  const statusOf = async () =>
    (await http<{ companyId: number; whatsappId: number; status: string }[]>("/simulator/api/connections")).data.find((c) => c.companyId === companyId && c.whatsappId === whatsappId)
      ?.status;
  if ((await statusOf()) !== "CONNECTED") {
    await http(`/api/whatsappsession/${whatsappId}`, { method: "POST", token });
    await poll(statusOf, (s) => s === "qrcode");
    await http(`/simulator/api/connections/${companyId}/${whatsappId}/scan`, { method: "POST", body: { number: "5511900000001" } });
    if ((await poll(statusOf, (s) => s === "CONNECTED")) !== "CONNECTED") throw new Error("the simulator connection did not connect");
  }
  // the platform learns it through the inbound queue a moment later
  const stored = async () => (await http<{ status: string }>(`/api/whatsapp/${whatsappId}`, { token })).data.status;
  if ((await poll(stored, (s) => s === "CONNECTED")) !== "CONNECTED") throw new Error("the platform did not see the connection connected");
  return { token, companyId, whatsappId };
};

/** What a customer's simulated phone shows in its chat with the connection. */
export const customerChat = async (base: string, s: Pick<SimulatorSession, "companyId" | "whatsappId">, number: string): Promise<ChatEntry[]> =>
  (await httpJson<{ messages?: ChatEntry[] }>(base, `/simulator/api/customers/${number}/messages?companyId=${s.companyId}&whatsappId=${s.whatsappId}`)).data.messages ?? [];
