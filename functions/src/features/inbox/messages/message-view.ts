import type { MessageView } from "@atende/shared/contracts/http/messages";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Message } from "@atende/shared/domain/messages/message";

/** The API path media is served from (authenticated; the browser fetches it as a blob). */
export const mediaUrlOf = (key: string | null) => (key ? `/api/media/${key.split("/").map(encodeURIComponent).join("/")}` : null);

/** `contact`: the message's contact, or a ticket's copy of its card (docs/adr/0057): only its id, name and number are shown. */
export const toMessageView = (m: Message, quoted: Message | null | undefined, contact: Pick<Contact, "id" | "name" | "number"> | null | undefined): MessageView => {
  // isRepeat is the search index's (docs/adr/0061), replyId the flows' (docs/adr/0094), not the conversation's
  const { mediaKey, isRepeat: _repeat, replyId: _replyId, ...rest } = m;
  return {
    ...rest,
    mediaUrl: m.mediaUrl ?? mediaUrlOf(mediaKey),
    quotedMsg: quoted ? { id: quoted.id, body: quoted.isDeleted ? "" : quoted.body, fromMe: quoted.fromMe, mediaType: quoted.mediaType } : null,
    contact: contact ? { id: contact.id, name: contact.name, number: contact.number } : null,
  };
};
