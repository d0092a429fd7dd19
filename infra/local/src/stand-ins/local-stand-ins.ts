import { createDialogflowSimulatorHttp } from "./dialogflow/dialogflow-simulator.http";
import type { StandInRegistry } from "./registry";
import { createTypebotSimulatorHttp } from "./typebot/typebot-simulator.http";
import { createWebhookReceiverSimulatorHttp } from "./webhooks/webhook-receiver-simulator.http";
import { createPushServiceStandIn } from "./push/push-service.http";

type Fetch = (req: Request) => Response | Promise<Response>;

/**
 * Every stand-in other than WhatsApp's phones (which come from their own process, stand-ins/whatsapp), registered
 * with its prefix and its tab on the simulator page's bar (orders in README.md). `bank` is absent when the platform
 * runs a real payment provider.
 */
export const registerStandIns = (registry: StandInRegistry, parts: { cloudApi: Fetch; ai: Fetch; bank: Fetch | null; meta?: Fetch }) => {
  registry.register({
    id: "cloudapi",
    prefix: "/simulator/cloudapi",
    fetch: parts.cloudApi,
    tab: { path: "/simulator/cloudapi", order: 10, label: { pt: "API oficial", en: "Official API", es: "API oficial" } },
  });
  // Meta's Graph API for Messenger and Instagram, and the page that plays their users (issue 31, docs/adr/0095)
  if (parts.meta) registry.register({ id: "meta", prefix: "/simulator/meta", fetch: parts.meta, tab: { path: "/simulator/meta", order: 17, label: { pt: "Messenger/Instagram", en: "Messenger/Instagram", es: "Messenger/Instagram" } } });
  if (parts.bank) registry.register({ id: "bank", prefix: "/simulator/bank", fetch: parts.bank, tab: { path: "/simulator/bank", order: 20, label: { pt: "Banco (Pix)", en: "Bank (Pix)", es: "Banco (Pix)" } } });
  return registry
    .register({ id: "ai", prefix: "/simulator/ai", fetch: parts.ai, tab: { path: "/simulator/ai", order: 30, label: { pt: "IA", en: "AI", es: "IA" } } })
    .register({ id: "typebot", prefix: "/simulator/typebot", fetch: createTypebotSimulatorHttp().fetch, tab: { path: "/simulator/typebot", order: 40, label: { pt: "Typebot", en: "Typebot", es: "Typebot" } } })
    .register({ id: "dialogflow", prefix: "/simulator/dialogflow", fetch: createDialogflowSimulatorHttp().fetch, tab: { path: "/simulator/dialogflow", order: 50, label: { pt: "DialogFlow", en: "DialogFlow", es: "DialogFlow" } } })
    .register({ id: "webhooks", prefix: "/simulator/webhooks", fetch: createWebhookReceiverSimulatorHttp().fetch, tab: { path: "/simulator/webhooks", order: 60, label: { pt: "Webhooks", en: "Webhooks", es: "Webhooks" } } })
    .register({ id: "push", prefix: "/simulator/push", fetch: createPushServiceStandIn().fetch, tab: { path: "/simulator/push", order: 70, label: { pt: "Push", en: "Push", es: "Push" } } });
};
