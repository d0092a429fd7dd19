import { signedWebhookRoutes } from "../../../platform/channels/meta-webhook/signed-webhook.routes";
import type { CloudApiWebhookService } from "./cloud-api-webhook.service";

/**
 * Meta's webhook for one Cloud API connection (the routes shared by every Meta channel: signed-webhook.routes.ts).
 * Served by the API locally and by its own small Lambda in AWS (handlers/cloud-api-webhook.ts).
 */
export const cloudApiWebhookRoutes = (service: CloudApiWebhookService) => signedWebhookRoutes(service);
