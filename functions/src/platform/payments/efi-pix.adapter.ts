import { readFileSync } from "node:fs";
import { request } from "node:https";
import type { LookupFunction } from "node:net";
import { AppError } from "../errors";
import type { NewPixCharge, PixCharge, PixChargeStatus, PixProvider } from "./pix-provider.port";

/**
 * Efí (ex-Gerencianet) Pix API adapter: a SKELETON, never run against Efí (no network, no credentials here).
 * What it needs before use (docs/billing.md): an Efí account with a Pix key, the API client id/secret, the mTLS
 * certificate (.p12) Efí issues, and the webhook registered at Efí (PUT /v2/webhook/{chave}) pointing at
 * POST /api/subscription/webhook with our secret header (Efí's "skip-mTLS" webhook mode adds it via the URL: see docs).
 * Calls follow Efí's public API: POST /oauth/token, PUT /v2/cob/{txid}, GET /v2/cob/{txid}, GET /v2/loc/{id}/qrcode.
 */
export type EfiConfig = {
  baseUrl: string;
  clientId?: string;
  clientSecret?: string;
  pixKey?: string;
  certPath?: string;
  certPassphrase?: string;
  /** the outbound guard's checking look-up (docs/adr/0062): resolved once, every address checked, connected to it */
  lookup?: LookupFunction;
};

type Json = Record<string, unknown>;

export const createEfiPixProvider = (config: EfiConfig): PixProvider => {
  let token: { value: string; until: number } | null = null;

  const ready = () => {
    if (!config.clientId || !config.clientSecret || !config.pixKey || !config.certPath) throw new AppError("ERR_PAYMENT_PROVIDER_UNAVAILABLE");
    return { pfx: readFileSync(config.certPath), passphrase: config.certPassphrase ?? "" };
  };

  const call = (method: string, path: string, body?: Json, auth?: string): Promise<{ status: number; json: Json }> =>
    new Promise((resolve, reject) => {
      const cert = ready();
      const url = new URL(path, config.baseUrl);
      const payload = body ? JSON.stringify(body) : undefined;
      const req = request(
        url,
        {
          method,
          ...cert,
          ...(config.lookup ? { lookup: config.lookup } : {}),
          headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}), ...(payload ? { "content-length": Buffer.byteLength(payload) } : {}) },
          timeout: 10_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            try {
              resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as Json) : {} });
            } catch {
              resolve({ status: res.statusCode ?? 0, json: {} });
            }
          });
        },
      );
      req.on("timeout", () => req.destroy(new Error("efi timeout")));
      req.on("error", reject);
      if (payload) req.write(payload);
      req.end();
    });

  const bearer = async () => {
    if (token && token.until > Date.now()) return token.value;
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString("base64");
    const out = await call("POST", "/oauth/token", { grant_type: "client_credentials" }, `Basic ${basic}`).catch(() => null);
    if (!out || out.status !== 200 || typeof out.json.access_token !== "string") throw new AppError("ERR_PAYMENT_PROVIDER_UNAVAILABLE");
    token = { value: `Bearer ${out.json.access_token}`, until: Date.now() + (Number(out.json.expires_in ?? 3600) - 60) * 1000 };
    return token.value;
  };

  const toCharge = (cob: Json, copyPaste: string): PixCharge => {
    const valor = (cob.valor ?? {}) as Json;
    const calendario = (cob.calendario ?? {}) as Json;
    const pix = Array.isArray(cob.pix) ? (cob.pix as Json[]) : [];
    const created = new Date(String(calendario.criacao ?? Date.now()));
    return {
      txid: String(cob.txid),
      status: String(cob.status) as PixChargeStatus,
      original: String(valor.original ?? "0.00"),
      paid: pix.length ? pix.map((p) => Number(p.valor ?? 0)).reduce((a, b) => a + b, 0).toFixed(2) : null,
      copyPaste: String(cob.pixCopiaECola ?? copyPaste),
      expiresAt: new Date(created.getTime() + Number(calendario.expiracao ?? 0) * 1000).toISOString(),
    };
  };

  return {
    name: "efi",
    async createPixCharge(input: NewPixCharge) {
      const auth = await bearer();
      const out = await call(
        "PUT",
        `/v2/cob/${input.txid}`,
        { calendario: { expiracao: input.expiresInSeconds }, valor: { original: input.original }, chave: config.pixKey, solicitacaoPagador: input.description.slice(0, 140) },
        auth,
      ).catch(() => null);
      if (!out || out.status >= 300) throw new AppError("ERR_PAYMENT_PROVIDER_UNAVAILABLE");
      return toCharge(out.json, String(out.json.pixCopiaECola ?? ""));
    },
    async getCharge(txid) {
      const auth = await bearer();
      const out = await call("GET", `/v2/cob/${encodeURIComponent(txid)}`, undefined, auth).catch(() => null);
      if (!out) throw new AppError("ERR_PAYMENT_PROVIDER_UNAVAILABLE");
      if (out.status === 404) return null;
      if (out.status >= 300) throw new AppError("ERR_PAYMENT_PROVIDER_UNAVAILABLE");
      return toCharge(out.json, "");
    },
  };
};
