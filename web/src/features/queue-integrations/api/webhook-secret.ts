import { useMutation } from "@tanstack/react-query";
import type { WebhookSecretResponse } from "@atende/shared/contracts/http/queue-integrations";
import { api } from "../../../lib/api-client";

/** POST /queueIntegration/{id}/rotate-secret: a new signing secret for an n8n/webhook integration, shown once. */
export const useRotateWebhookSecret = () => useMutation({ mutationFn: (id: number) => api.post<WebhookSecretResponse>(`/queueIntegration/${id}/rotate-secret`, {}) });
