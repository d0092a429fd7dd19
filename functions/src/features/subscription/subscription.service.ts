import { randomBytes, timingSafeEqual } from "node:crypto";
import * as z from "zod";
import type { SubscriptionResponse } from "@atende/shared/contracts/http/invoices";
import { pixAmount, type SubscriptionInput } from "@atende/shared/domain/invoices/invoices";
import { pad } from "../../platform/db/keys";
import { AppError } from "../../platform/errors";
import type { Logger } from "../../platform/logger";
import type { PixCharge, PixProvider } from "../../platform/payments/pix-provider.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { InvoicesService } from "../invoices/invoices.service";

/** How long a Pix charge accepts payment; an unpaid invoice gets a fresh charge after it. */
const CHARGE_TTL_SECONDS = 3600;

/** Our txid names the invoice it pays (BACEN: 26-35 letters and digits): AT + company + invoice + random. */
export const txidFor = (companyId: number, invoiceId: number) => `AT${pad(companyId)}${pad(invoiceId)}${randomBytes(4).toString("hex")}`;
const parseTxid = (txid: string) => {
  const m = /^AT(\d{10})(\d{10})[0-9a-f]{8}$/.exec(txid);
  return m ? { companyId: Number(m[1]), invoiceId: Number(m[2]) } : null;
};

const webhookSchema = z.object({ pix: z.array(z.object({ txid: z.string().min(1).max(64) }).passthrough()).min(1).max(20) });

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Checkout (POST /subscription) and the provider's payment notification (POST /subscription/webhook). */
export const createSubscriptionService = (deps: { invoices: InvoicesService; provider: PixProvider; webhookSecret?: string; logger: Logger; clock: () => Date }) => {
  const { invoices, provider, logger, clock } = deps;

  const toResponse = (invoiceId: number, charge: PixCharge): SubscriptionResponse => ({
    invoiceId,
    txid: charge.txid,
    valor: { original: charge.original },
    qrcode: { qrcode: charge.copyPaste },
    expiresAt: charge.expiresAt,
  });

  return {
    /** A Pix charge for one of the caller's unpaid invoices, for the invoice's own value; an open charge is reused. */
    async subscribe(auth: AuthContext, input: SubscriptionInput): Promise<SubscriptionResponse> {
      const invoice = await invoices.findPayable(auth.companyId, input.invoiceId);
      const now = clock();
      if (invoice.chargeId && invoice.chargeExpiresAt && new Date(invoice.chargeExpiresAt).getTime() - 60_000 > now.getTime()) {
        const open = await provider.getCharge(invoice.chargeId);
        if (open?.status === "ATIVA") return toResponse(invoice.id, open);
      }
      const charge = await provider.createPixCharge({
        txid: txidFor(invoice.companyId, invoice.id),
        original: pixAmount(invoice.value),
        description: `Fatura ${invoice.id} - ${invoice.detail}`,
        expiresInSeconds: CHARGE_TTL_SECONDS,
      });
      await invoices.attachCharge(invoice.companyId, invoice.id, { chargeId: charge.txid, chargeCode: charge.copyPaste, chargeExpiresAt: charge.expiresAt }, now);
      logger.info("pix charge created", { companyId: invoice.companyId, invoiceId: invoice.id, provider: provider.name });
      return toResponse(invoice.id, charge);
    },

    /**
     * The provider says a Pix arrived. Trusted only with our shared secret, and then only what the provider itself
     * confirms when asked (charge known, CONCLUIDA, enough paid). Replays change nothing.
     */
    async handleWebhook(secretHeader: string | undefined, body: unknown): Promise<{ paid: number }> {
      if (!deps.webhookSecret || !safeEqual(secretHeader ?? "", deps.webhookSecret)) throw new AppError("ERR_NO_PERMISSION");
      const { pix } = webhookSchema.parse(body);
      let paid = 0;
      for (const { txid } of pix) {
        const ref = parseTxid(txid);
        if (!ref) throw new AppError("ERR_NOT_FOUND");
        const invoice = await invoices.findById(ref.companyId, ref.invoiceId);
        const charge = invoice ? await provider.getCharge(txid) : null;
        if (!invoice || !charge) {
          logger.warn("payment webhook: unknown charge", { txid });
          throw new AppError("ERR_NOT_FOUND");
        }
        if (charge.status !== "CONCLUIDA" || Number(charge.paid ?? 0) + 1e-9 < invoice.value) {
          logger.warn("payment webhook: charge not paid at the provider", { txid, status: charge.status });
          throw new AppError("ERR_VALIDATION");
        }
        if (invoice.status === "paid") continue;
        if (await invoices.markPaid(invoice, txid)) paid++;
      }
      return { paid };
    },
  };
};
export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
