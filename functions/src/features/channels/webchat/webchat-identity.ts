import { channelJid } from "@atende/shared/domain/channels/channel-providers";

/**
 * A website visitor in the inbound pipeline (docs/adr/0088, 0092): `<visitorId>@webchat`, a contact identity of kind
 * C (`webchat:<visitorId>`). The id is random ("wc" + 24 hex), made by the server with the session.
 */
export const visitorJid = (visitorId: string) => channelJid("webchat", visitorId);
/** The visitor id of a visitor's jid; null for any other jid. */
export const visitorIdOf = (jid: string): string | null => /^(wc[0-9a-f]{24})@webchat$/.exec(jid)?.[1] ?? null;
