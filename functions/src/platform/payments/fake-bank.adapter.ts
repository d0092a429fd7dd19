import { randomBytes } from "node:crypto";
import type { Logger } from "../logger";
import { pixCopyPaste } from "./pix-code";
import type { NewPixCharge, PixCharge, PixProvider } from "./pix-provider.port";

/** Where the fake bank delivers its payment notifications: a URL, or a fetch-like function (tests call the app directly). */
export type WebhookTarget = { url: string; fetch?: (req: Request) => Promise<Response> };

export type FakeBank = PixProvider & {
  /** every charge issued, newest first (the bank's page) */
  list(): PixCharge[];
  /** the charge a copy-paste code belongs to */
  findByCode(code: string): PixCharge | null;
  /**
   * A developer pays the charge: the bank marks it CONCLUIDA and calls our webhook exactly as a PSP would
   * (Efí's body, the shared secret header). Returns the webhook's HTTP status.
   */
  pay(txid: string): Promise<{ charge: PixCharge; webhookStatus: number | null }>;
  /** re-sends the notification of a paid charge (providers retry; our webhook must be idempotent) */
  notify(txid: string): Promise<number | null>;
  setWebhook(target: WebhookTarget): void;
};

/**
 * The local "fake bank" Pix provider (one machine and tests). Charges live in memory: a restart forgets them, and an
 * open invoice then gets a new charge on its next PAGAR.
 */
export const createFakeBank = (opts: { webhookSecret?: string; clock?: () => Date; logger?: Logger }): FakeBank => {
  const clock = opts.clock ?? (() => new Date());
  const charges = new Map<string, PixCharge>();
  let webhook: WebhookTarget | null = null;

  const send = async (charge: PixCharge): Promise<number | null> => {
    if (!webhook) {
      opts.logger?.warn("fake bank: no webhook configured", { txid: charge.txid });
      return null;
    }
    const body = { pix: [{ endToEndId: `E${randomBytes(15).toString("hex").slice(0, 31)}`, txid: charge.txid, valor: charge.paid, horario: clock().toISOString() }] };
    const req = new Request(webhook.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(opts.webhookSecret ? { "x-webhook-secret": opts.webhookSecret } : {}) },
      body: JSON.stringify(body),
    });
    const res = await (webhook.fetch ?? fetch)(req);
    return res.status;
  };

  return {
    name: "fake-bank",
    async createPixCharge(input: NewPixCharge) {
      const charge: PixCharge = {
        txid: input.txid,
        status: "ATIVA",
        original: input.original,
        paid: null,
        copyPaste: pixCopyPaste({ key: "fake-bank@atende.local", amount: input.original, merchantName: "ATENDE LOCAL", merchantCity: "SAO PAULO", txid: input.txid }),
        expiresAt: new Date(clock().getTime() + input.expiresInSeconds * 1000).toISOString(),
      };
      charges.set(charge.txid, charge);
      return { ...charge };
    },
    async getCharge(txid) {
      const charge = charges.get(txid);
      return charge ? { ...charge } : null;
    },
    list: () => [...charges.values()].reverse().map((c) => ({ ...c })),
    findByCode: (code) => [...charges.values()].find((c) => c.copyPaste === code.trim()) ?? null,
    async pay(txid) {
      const charge = charges.get(txid);
      if (!charge) throw new Error("unknown charge");
      if (charge.status === "ATIVA") {
        charge.status = "CONCLUIDA";
        charge.paid = charge.original;
      }
      return { charge: { ...charge }, webhookStatus: await send(charge) };
    },
    async notify(txid) {
      const charge = charges.get(txid);
      if (!charge || charge.status !== "CONCLUIDA") throw new Error("charge not paid");
      return send(charge);
    },
    setWebhook(target) {
      webhook = target;
    },
  };
};
