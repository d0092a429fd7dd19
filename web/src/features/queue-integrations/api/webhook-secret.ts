import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { WebhookSecretResponse } from "@atende/shared/contracts/http/queue-integrations";
import { api } from "../../../lib/api-client";
import { queueIntegrationKeys } from "./queue-integrations";

/** POST /queueIntegration/{id}/rotate-secret: a new signing secret for an n8n/webhook integration, shown once. */
export const useRotateWebhookSecret = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<WebhookSecretResponse>(`/queueIntegration/${id}/rotate-secret`, {}),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queueIntegrationKeys.all }),
  });
};
