import type { DuplicateContact, DuplicateGroup } from "@atende/shared/contracts/http/contact-merge";
import { canonicalBrazilianNumber } from "@atende/shared/domain/format/phone";
import { normalizeName } from "./contact-identity";

/** What the duplicates view reads of a contact (the number index's projection). */
export type DuplicateCandidate = DuplicateContact & { lid: string | null; isGroup: boolean };

/**
 * A number as one key whatever its form: digits only, a Brazilian number typed without the country code gets it
 * (10 or 11 digits), then the same canonical form (ninth digit added) the inbound identities use (contact-identity.ts).
 */
export const numberKey = (raw: string): string => {
  const digits = raw.replace(/\D/g, "");
  if (digits.length < 8) return "";
  return canonicalBrazilianNumber(digits.length === 10 || digits.length === 11 ? `55${digits}` : digits);
};
const emailKey = (email: string) => email.trim().toLowerCase();
/** "Similar name": the same first word once accents and case are gone ("Marta", "marta silva", "Márta S."). */
const firstName = (name: string) => normalizeName(name).split(/\s+/)[0] ?? "";

/** At most this many groups in one answer (the view pages nothing: a company fixes the first ones, then reloads). */
export const MAX_DUPLICATE_GROUPS = 500;

/**
 * The groups of contacts that look like one person (issue 34 point 5): the same number once normalised, the same
 * e-mail, the same LID, or a similar name with the same last 8 digits (a number stored in two forms the normaliser
 * does not join, e.g. another country code). A name group whose contacts already share a number group is not repeated.
 */
export const duplicateGroups = (contacts: DuplicateCandidate[]): DuplicateGroup[] => {
  const people = contacts.filter((c) => !c.isGroup);
  const groups: DuplicateGroup[] = [];
  const collect = (reason: DuplicateGroup["reason"], keyOf: (c: DuplicateCandidate) => string) => {
    const by = new Map<string, DuplicateCandidate[]>();
    for (const c of people) {
      const k = keyOf(c);
      if (!k) continue;
      const list = by.get(k) ?? [];
      list.push(c);
      by.set(k, list);
    }
    const out: DuplicateCandidate[][] = [];
    for (const list of by.values()) if (list.length > 1) out.push(list);
    return out;
  };
  const view = (c: DuplicateCandidate): DuplicateContact => ({ id: c.id, name: c.name, number: c.number, email: c.email });
  for (const list of collect("number", (c) => numberKey(c.number))) groups.push({ reason: "number", contacts: list.map(view) });
  for (const list of collect("email", (c) => emailKey(c.email))) groups.push({ reason: "email", contacts: list.map(view) });
  for (const list of collect("lid", (c) => c.lid ?? "")) groups.push({ reason: "lid", contacts: list.map(view) });
  for (const list of collect("name", (c) => {
    const digits = c.number.replace(/\D/g, "");
    const name = firstName(c.name);
    return digits.length >= 8 && name ? `${digits.slice(-8)}#${name}` : "";
  })) {
    // already one number group: nothing new to say
    if (new Set(list.map((c) => numberKey(c.number))).size === 1) continue;
    groups.push({ reason: "name", contacts: list.map(view) });
  }
  for (const g of groups) g.contacts.sort((a, b) => a.id - b.id);
  return groups.slice(0, MAX_DUPLICATE_GROUPS);
};
