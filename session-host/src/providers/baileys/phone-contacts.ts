import type { PhoneContact } from "@atende/shared/contracts/queue-messages";
import { userOf } from "./support";

export const MAX_PHONE_BOOK = 20_000;
export type BaileysContact = { id: string; lid?: string; phoneNumber?: string; name?: string; notify?: string; verifiedName?: string };

/** A Baileys contact as a phone-book entry: people only (no groups, broadcast lists or newsletters). */
export const phoneContactOf = (c: Partial<BaileysContact>): PhoneContact | null => {
  const id = c.id ?? "";
  const pn = [id, c.phoneNumber ?? ""].find((j) => j.endsWith("@s.whatsapp.net"));
  const lid = [id, c.lid ?? ""].find((j) => j.endsWith("@lid"));
  const jid = pn ?? lid;
  if (!jid) return null;
  const number = pn ? userOf(pn) : undefined;
  const name = c.name || c.verifiedName || c.notify || undefined;
  return { jid, ...(number ? { number } : {}), ...(lid ? { lid: userOf(lid) } : {}), ...(name ? { name } : {}) };
};

/**
 * The phone's contacts as this socket received them (contacts.upsert/update, history sync). Kept in memory
 * only: WhatsApp sends them on link and history sync, so a session taken over by another host starts with
 * what arrives there (docs/adr/0012).
 */
export const createPhoneBook = () => {
  const book = new Map<string, PhoneContact>();
  return {
    learn(list: Partial<BaileysContact>[]) {
      for (const c of list) {
        const entry = phoneContactOf(c);
        if (!entry) continue;
        const before = book.get(entry.jid);
        book.set(entry.jid, { ...before, ...entry, name: entry.name ?? before?.name });
        if (book.size > MAX_PHONE_BOOK) book.delete(book.keys().next().value as string);
      }
    },
    list: () => [...book.values()],
  };
};
