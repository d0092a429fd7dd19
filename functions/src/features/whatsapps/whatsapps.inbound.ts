import type { InboundHandlers } from "../../platform/queues/inbound-handlers";
import type { ContactListsService } from "../contact-lists/contact-lists.service";
import type { NumberChecksRepository } from "./number-checks.repository";
import type { WhatsappsService } from "./whatsapps.service";

/** The inbound events this feature owns: connection state (QR, pairing, connected ...) and number checks. */
export const whatsappsInboundHandlers: InboundHandlers<{
  services: { whatsapps: Pick<WhatsappsService, "onConnectionEvent">; contactLists: Pick<ContactListsService, "onNumberChecked"> };
  repos: { numberChecks: NumberChecksRepository };
  clock: () => Date;
}> = {
  connection: (container, event) => container.services.whatsapps.onConnectionEvent(event),
  "number.checked": async (container, event) => {
    await container.repos.numberChecks.put(event.companyId, {
      requestId: event.requestId,
      whatsappId: event.whatsappId,
      number: event.number,
      exists: event.exists,
      jid: event.jid ?? null,
      checkedAt: container.clock().toISOString(),
    });
    await container.services.contactLists.onNumberChecked(event); // contact-list items asked with a "cli:" request id
  },
};
