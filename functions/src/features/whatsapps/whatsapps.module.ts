import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { NumberChecksRepository } from "./number-checks.repository";
import { createWhatsappsInboundHandlers } from "./whatsapps.inbound";
import type { WhatsappsRepository } from "./whatsapps.repository";
import { whatsappRestartRoutes, whatsappSessionRoutes, whatsappsRoutes } from "./whatsapps.routes";
import { createWhatsappsService, type WhatsappsService } from "./whatsapps.service";

/** The connections feature: /whatsapp, /whatsappsession, /whatsapp-restart, connection events (docs/adr/0024-feature-modules.md). */
export const createWhatsappsModule = (
  deps: Omit<Parameters<typeof createWhatsappsService>[0], "whatsapps"> & { repository: WhatsappsRepository; numberChecks: NumberChecksRepository; guards: Guards },
): FeatureModule<WhatsappsService> => {
  const service = createWhatsappsService({ ...deps, whatsapps: deps.repository });
  return {
    service,
    routes: [
      { path: "/whatsapp", app: whatsappsRoutes(service, deps.guards) },
      { path: "/whatsappsession", app: whatsappSessionRoutes(service, deps.guards) },
      { path: "/whatsapp-restart", app: whatsappRestartRoutes(service, deps.guards) },
    ],
    inbound: createWhatsappsInboundHandlers({ whatsapps: service, numberChecks: deps.numberChecks, clock: deps.clock }),
  };
};
