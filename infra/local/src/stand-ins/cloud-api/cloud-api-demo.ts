import type { Logger } from "@atende/functions/platform/logger";
import type { CloudApiSimulator, SimNumber } from "./cloud-api-simulator";

/**
 * The demo company's Cloud API connection (first start with demo conversations, `npm start`): created through our
 * API as an admin would, with the simulator's test number, then the webhook subscribed on the simulator (Meta's
 * handshake against our URL), so a person can write to it from /simulator/cloudapi at once.
 */
export const wireCloudApiDemo = async (opts: { url: string; sim: CloudApiSimulator; number: SimNumber; login: { email: string; password: string }; logger: Logger }) => {
  // the number as addNumber answered it: the only place its plain credentials are seen
  const number = opts.number;
  const json = async (path: string, init: RequestInit & { token?: string } = {}) => {
    const res = await fetch(`${opts.url}${path}`, {
      ...init,
      headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
  };
  const auth = await json("/api/auth/login", { method: "POST", body: JSON.stringify(opts.login) });
  const token = auth.body?.token as string | undefined;
  if (!token) return opts.logger.warn("cloud-api demo: login failed", { status: auth.status });
  const made = await json("/api/whatsapp", {
    method: "POST",
    token,
    body: JSON.stringify({
      name: "API oficial (simulador)",
      provider: "cloudapi",
      phoneNumberId: number.phoneNumberId,
      wabaId: number.wabaId,
      accessToken: number.accessToken,
      appSecret: number.appSecret,
      graphApiUrl: `${opts.url}/simulator/cloudapi/graph/v23.0`,
    }),
  });
  const view = made.body?.cloudApi as { webhookUrl: string; verifyToken: string } | undefined;
  if (made.status !== 200 || !view) return opts.logger.warn("cloud-api demo: connection not created", { status: made.status, error: made.body?.error });
  const hooked = await opts.sim.setWebhook(number.phoneNumberId, view.webhookUrl, view.verifyToken);
  if (!hooked.ok) opts.logger.warn("cloud-api demo: webhook not verified", { status: hooked.status });
};
