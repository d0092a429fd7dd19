import type { InboundHandlers } from "../../jobs/inbound-consumer";

/**
 * The inbound events this feature owns: the parts of a phone's contacts asked for by POST /contacts/import, and a
 * LID and a number found to be the same person.
 */
export const contactsInboundHandlers: InboundHandlers = {
  "contacts.listed": (container, event) => container.services.contacts.onContactsListed(event),
  "contact.identity": async (container, event) => {
    await container.services.contacts.linkIdentities(event.companyId, { lid: event.lid, number: event.number });
  },
};
