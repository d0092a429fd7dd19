import { canonicalBrazilianNumber } from "@atende/shared/domain/format/phone";
import { channelJid, isChannelProvider, parseChannelJid } from "@atende/shared/domain/channels/channel-providers";
import type { Contact } from "@atende/shared/domain/contacts/contact";

/**
 * One key a contact is found by: a canonical number (N), a LID (L), a group jid (G), or a user of another channel
 * (C, value `<channel>:<user id>`, e.g. "telegram:12345"; docs/adr/0088).
 */
export type ContactIdentity = { kind: "N" | "L" | "G" | "C"; value: string };

export const channelIdentity = (channel: string, userId: string): ContactIdentity => ({ kind: "C", value: `${channel}:${userId}` });

/** The jid we send to: groups by their id, people by number, LID-only people by LID, other channels' users by their id. */
export const chatJidOf = (c: Pick<Contact, "number" | "isGroup" | "lid" | "channel" | "channelUserId">): string => {
  if (c.channel && c.channelUserId && isChannelProvider(c.channel)) return channelJid(c.channel, c.channelUserId);
  if (c.isGroup) return c.number.includes("@") ? c.number : `${c.number}@g.us`;
  if (c.number) return `${c.number}@s.whatsapp.net`;
  return `${c.lid ?? ""}@lid`;
};

const userPart = (jid: string) => jid.split("@")[0]?.split(":")[0] ?? "";

/** Identities of a WhatsApp party: its canonical number (ninth digit added) and/or its LID, or a group jid. */
export const identitiesOf = (party: { jid: string; number?: string; lid?: string; isGroup?: boolean }): ContactIdentity[] => {
  if (party.isGroup || party.jid.endsWith("@g.us")) return [{ kind: "G", value: userPart(party.jid) }];
  const other = parseChannelJid(party.jid);
  if (other) return [channelIdentity(other.channel, other.userId)];
  const out: ContactIdentity[] = [];
  const number = party.number ?? (party.jid.endsWith("@s.whatsapp.net") || party.jid.endsWith("@c.us") ? userPart(party.jid) : "");
  if (number) out.push({ kind: "N", value: canonicalBrazilianNumber(number) });
  const lid = party.lid ?? (party.jid.endsWith("@lid") ? userPart(party.jid) : "");
  if (lid) out.push({ kind: "L", value: lid });
  return out;
};

/** Name sort/search key: lower case without accents, so "João" is found by "joao". */
export const normalizeName = (name: string) =>
  name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();
