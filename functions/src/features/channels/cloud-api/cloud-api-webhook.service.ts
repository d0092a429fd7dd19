import type { Logger } from "../../../platform/logger";
import { METRIC } from "@atende/shared/contracts/metric-names";
import { noMetrics, recordMessageIn, type Metrics } from "../../../platform/metrics";
import type { SecretBox } from "../../../platform/secrets/secret-box.port";
import { chatOfEvent, type InboundQueue } from "../../../platform/queues/inbound-queue.port";
import { mapWebhook, type MetaWebhook } from "../../../platform/channels/cloud-api/webhook.mapper";
import { verificationChallenge, verifySignature } from "../../../platform/channels/meta-webhook/webhook-signature";
import type { CloudApiRepository } from "./cloud-api.repository";

export type WebhookOutcome = { status: 200; enqueued: number } | { status: 403 | 404 | 400 };

/**
 * The public webhook of one Cloud API connection (`/api/channels/cloud-api/webhook/{hookId}`). It only verifies and
 * enqueues (in AWS its own Lambda), so Meta always gets its answer in time: the connection comes from our index
 * by hookId (never from the body), the signature is checked over the raw body with that connection's app secret,
 * and only entries for that connection's phone number id become events, stamped with its company: a webhook for
 * company A's connection can never create data in company B. Nothing is enqueued unless the signature holds.
 */
export const createCloudApiWebhookService = (deps: { repo: CloudApiRepository; secrets: SecretBox; inbound: InboundQueue; logger: Logger; metrics?: Metrics }) => {
  const { repo, secrets, inbound, logger } = deps;
  const metrics = deps.metrics ?? noMetrics;
  return {
    async verify(hookId: string, query: Record<string, string | undefined>): Promise<string | null> {
      const ref = await repo.byHook(hookId);
      const rec = ref && (await repo.get(ref.companyId, ref.whatsappId));
      return rec ? verificationChallenge(query, rec.verifyToken) : null;
    },
    async receive(hookId: string, rawBody: string, signature: string | null | undefined): Promise<WebhookOutcome> {
      const ref = await repo.byHook(hookId);
      const rec = ref && (await repo.get(ref.companyId, ref.whatsappId));
      if (!ref || !rec) return { status: 404 };
      const appSecret = rec.appSecret ? await secrets.open(rec.appSecret) : "";
      if (!verifySignature(rawBody, signature, appSecret)) {
        logger.warn("cloud-api webhook: bad signature", { companyId: ref.companyId, whatsappId: ref.whatsappId, signed: Boolean(signature) });
        // alarm CloudApiSignatureFailures (docs/operations.md#cloudapisignaturefailures)
        metrics.count(METRIC.cloudApiSignatureFailures);
        return { status: 403 };
      }
      let body: MetaWebhook;
      try {
        body = JSON.parse(rawBody) as MetaWebhook;
      } catch {
        return { status: 400 };
      }
      const mapped = mapWebhook(body, { companyId: ref.companyId, whatsappId: ref.whatsappId, phoneNumberId: rec.phoneNumberId });
      for (const s of mapped.skipped) logger.info("cloud-api webhook: message type not mapped", { companyId: ref.companyId, type: s.type });
      if (mapped.foreign) logger.warn("cloud-api webhook: entries for another phone number ignored", { companyId: ref.companyId, whatsappId: ref.whatsappId, count: mapped.foreign });
      for (const event of mapped.events) {
        await inbound.put(event, chatOfEvent(event));
        if (event.type === "message" && !event.message.fromMe) recordMessageIn(metrics, "cloud-api");
      }
      return { status: 200, enqueued: mapped.events.length };
    },
  };
};
export type CloudApiWebhookService = ReturnType<typeof createCloudApiWebhookService>;
