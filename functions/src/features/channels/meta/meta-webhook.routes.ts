import { signedWebhookRoutes } from "../../../platform/channels/meta-webhook/signed-webhook.routes";
import type { MetaWebhookService } from "./meta-webhook.service";

/** Where Meta posts a Messenger / Instagram connection's events: `${META_WEBHOOK_PATH}/{hookId}` (docs/adr/0090). */
export const META_WEBHOOK_PATH = "/api/channels/meta/webhook";

/** The same verification handshake and signed POST as the Cloud API's (platform/channels/meta-webhook). */
export const metaWebhookRoutes = (service: MetaWebhookService) => signedWebhookRoutes(service);
