import type { InboundHandlers } from "../../jobs/inbound-consumer";

/** The inbound events this feature owns: the parts of a phone's contacts asked for by POST /contacts/import. */
export const contactsInboundHandlers: InboundHandlers = {
  "contacts.listed": (container, event) => container.services.contacts.onContactsListed(event),
};
