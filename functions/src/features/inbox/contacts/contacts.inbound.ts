import type { InboundHandlers } from "../../../platform/queues/inbound-handlers";
import type { ContactsService } from "./contacts.service";

/**
 * The inbound events this feature owns: the parts of a phone's contacts asked for by POST /contacts/import, a
 * LID and a number found to be the same person, and profile pictures.
 */
export const contactsInboundHandlers: InboundHandlers<{
  services: { contacts: Pick<ContactsService, "onContactsListed" | "setPictureFromWhatsapp" | "linkIdentities"> };
}> = {
  "contacts.listed": (container, event) => container.services.contacts.onContactsListed(event),
  "contact.picture": async (container, event) => {
    await container.services.contacts.setPictureFromWhatsapp(event.companyId, { jid: event.chatJid, number: event.number, lid: event.lid }, event.profilePicUrl);
  },
  "contact.identity": async (container, event) => {
    await container.services.contacts.linkIdentities(event.companyId, { lid: event.lid, number: event.number });
  },
};
