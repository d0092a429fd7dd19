import type { InboundHandlers } from "../../platform/modules/feature-module";
import type { NumberChecksRepository } from "./number-checks.repository";
import type { WhatsappsService } from "./whatsapps.service";

/**
 * The inbound events this feature owns: connection state (QR, pairing, connected ...) and number checks
 * (stored here; the contact-lists module registers its own "number.checked" handler, run after this one).
 */
export const createWhatsappsInboundHandlers = (deps: {
  whatsapps: Pick<WhatsappsService, "onConnectionEvent">;
  numberChecks: NumberChecksRepository;
  clock: () => Date;
}): InboundHandlers => ({
  connection: (event) => deps.whatsapps.onConnectionEvent(event),
  "number.checked": async (event) => {
    await deps.numberChecks.put(event.companyId, {
      requestId: event.requestId,
      whatsappId: event.whatsappId,
      number: event.number,
      exists: event.exists,
      jid: event.jid ?? null,
      checkedAt: deps.clock().toISOString(),
    });
  },
});
