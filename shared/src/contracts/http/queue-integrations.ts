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

/** POST /queueIntegration/testSession answer. */
export type DialogflowTestResponse = { message: string };
