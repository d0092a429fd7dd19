import { channelJid } from "@atende/shared/domain/channels/channel-providers";

/**
 * A website visitor in the inbound pipeline (docs/adr/0088, 0092): `<visitorId>@webchat`, a contact identity of kind
 * C (`webchat:<visitorId>`). The id is random ("wc" + 24 hex), made by the server with the session.
 */
export const visitorJid = (visitorId: string) => channelJid("webchat", visitorId);
