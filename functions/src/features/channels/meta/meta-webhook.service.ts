import { METRIC } from "@atende/shared/contracts/metric-names";
import type { Logger } from "../../../platform/logger";
import { noMetrics, type Metrics } from "../../../platform/metrics";
import type { SecretBox } from "../../../platform/secrets/secret-box.port";
import { chatOfEvent, type InboundQueue } from "../../../platform/queues/inbound-queue.port";
import { verificationChallenge, verifySignature } from "../../../platform/channels/meta-webhook/webhook-signature";
import { mapMessagingWebhook, type MetaMessagingWebhook } from "../../../platform/channels/meta/meta-webhook.mapper";
import type { MetaRepository } from "./meta.repository";

export type MetaWebhookOutcome = { status: 200; enqueued: number } | { status: 403 | 404 | 400 };

/**
 * The public webhook of one Messenger / Instagram connection (`/api/channels/meta/webhook/{hookId}`,
 * docs/adr/0090), built like the Cloud API's and with its shared helpers (platform/channels/meta-webhook): the
 * connection comes from our index by hookId (never from the body); the verification handshake answers the
 * challenge only for the connection's `verifyToken`; every POST is checked (X-Hub-Signature-256, HMAC-SHA256 of the
 * raw body with the connection's app secret, constant time) before anything is read, and only entries for the
 * connection's own page / account id become events, stamped with its company. A wrong signature stores nothing.
 */
export const createMetaWebhookService = (deps: { repo: MetaRepository; secrets: SecretBox; inbound: InboundQueue; logger: Logger; metrics?: Metrics }) => {
  const { repo, secrets, inbound, logger } = deps;
  const metrics = deps.metrics ?? noMetrics;
  const find = async (hookId: string) => {
    const ref = await repo.byHook(hookId);
    const rec = ref && (await repo.get(ref.companyId, ref.whatsappId));
    return ref && rec ? { ref, rec } : null;
  };
  return {
    async verify(hookId: string, query: Record<string, string | undefined>): Promise<string | null> {
      const found = await find(hookId);
      return found ? verificationChallenge(query, found.rec.verifyToken) : null;
    },
    async receive(hookId: string, rawBody: string, signature: string | null | undefined): Promise<MetaWebhookOutcome> {
      const found = await find(hookId);
      if (!found) return { status: 404 };
      const { ref, rec } = found;
      const appSecret = rec.appSecret ? await secrets.open(rec.appSecret) : "";
      if (!verifySignature(rawBody, signature, appSecret)) {
        logger.warn("meta webhook: bad signature", { companyId: ref.companyId, whatsappId: ref.whatsappId, provider: rec.provider, signed: Boolean(signature) });
        // alarm MetaSignatureFailures (infra/aws/constructs/monitoring.ts)
        metrics.count(METRIC.metaSignatureFailures);
        return { status: 403 };
      }
      let body: MetaMessagingWebhook;
      try {
        body = JSON.parse(rawBody) as MetaMessagingWebhook;
      } catch {
        return { status: 400 };
      }
      const mapped = mapMessagingWebhook(body, { ...ref, provider: rec.provider, pageId: rec.pageId });
      for (const s of mapped.skipped) logger.info("meta webhook: message not mapped", { companyId: ref.companyId, type: s.type });
      if (mapped.foreign) logger.warn("meta webhook: entries for another page ignored", { companyId: ref.companyId, whatsappId: ref.whatsappId, count: mapped.foreign });
      for (const event of mapped.events) {
        await inbound.put(event, chatOfEvent(event));
        metrics.count(METRIC.messagesIn, 1, { provider: rec.provider });
      }
      return { status: 200, enqueued: mapped.events.length };
    },
  };
};
export type MetaWebhookService = ReturnType<typeof createMetaWebhookService>;
