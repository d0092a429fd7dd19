import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { copilotRoutes, copilotTicketRoutes } from "./copilot.routes";
import { COPILOT_TRANSCRIBE_JOB, COPILOT_TRANSFER_SUMMARY_JOB, createCopilotService, type CopilotDeps, type CopilotService } from "./copilot.service";

/** The attendants' copilot (issue 33, docs/adr/0099): routes, and the transcription and transfer-summary jobs. */
export const createCopilotModule = (deps: CopilotDeps & { guards: Guards }): FeatureModule<CopilotService> => {
  const service = createCopilotService(deps);
  return {
    service,
    routes: [
      { path: "/copilot", app: copilotRoutes(service, deps.guards) },
      { path: "/tickets", app: copilotTicketRoutes(service, deps.guards) },
    ],
    jobs: {
      named: {
        // our own jobs (enqueued by the service), so their payloads have these shapes
        [COPILOT_TRANSCRIBE_JOB]: (companyId, payload) => service.transcribe(companyId, { ticketId: Number(payload.ticketId), messageId: String(payload.messageId) }),
        [COPILOT_TRANSFER_SUMMARY_JOB]: (companyId, payload) => service.transferSummary(companyId, { ticketId: Number(payload.ticketId) }),
      },
    },
  };
};
