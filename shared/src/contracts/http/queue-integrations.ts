import type { DialogflowLanguage, IntegrationType } from "../../domain/queue-integrations/queue-integration";

/** GET /queueIntegration/{id} and items of GET /queueIntegration/. */
export type QueueIntegrationResponse = {
  id: number;
  name: string;
  type: IntegrationType;
  projectName: string;
  jsonContent: string;
  language: DialogflowLanguage | null;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
  /** n8n and webhook: whether a signing secret is set (the secret itself is shown only once, see below) */
  hasWebhookSecret: boolean;
  companyId: number;
  createdAt: string;
  updatedAt: string;
};

/** GET /queueIntegration/ (searchParam, pageNumber): 20 a page, by name. */
export type QueueIntegrationListResponse = { queueIntegrations: QueueIntegrationResponse[]; hasMore: boolean };

/** Realtime `queueIntegration` on company-{companyId}-queueIntegration (admins). */
export type QueueIntegrationEventData =
  | { action: "create" | "update"; queueIntegration: QueueIntegrationResponse }
  | { action: "delete"; integrationId: number };

/**
 * POST /queueIntegration and PUT /queueIntegration/{id} answer: the record, plus `webhookSecret` when this call made
 * an n8n/webhook integration's signing secret (create, or a switch to those types): the only time it is shown.
 */
export type QueueIntegrationSavedResponse = QueueIntegrationResponse & { webhookSecret?: string };

/** POST /queueIntegration/{id}/rotate-secret answer: the new signing secret, shown this once. */
export type WebhookSecretResponse = { webhookSecret: string };

/** POST /queueIntegration/testSession answer: the agent's answer to the test phrase. */
export type DialogflowTestResponse = { message: string; answer: string[]; intent: string | null; endInteraction: boolean };
