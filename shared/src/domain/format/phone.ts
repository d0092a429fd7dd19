/** Phone display of spec 2 section 5: drop '@c.us', then +CC (AA) NNNN-NNNN or +CC (AA) NNNNN-NNNN. */
export const formatPhone = (raw: string | null | undefined): string => {
  if (!raw) return "";
  const digits = raw.replace(/@c\.us$/, "").replace(/\D/g, "");
  if (digits.length === 13) return `+${digits.slice(0, 2)} (${digits.slice(2, 4)}) ${digits.slice(4, 9)}-${digits.slice(9)}`;
  if (digits.length >= 10 && digits.length <= 12)
    return `+${digits.slice(0, 2)} (${digits.slice(2, 4)}) ${digits.slice(4, digits.length - 4)}-${digits.slice(-4)}`;
  return digits;
};

/**
 * The canonical identity of a Brazilian mobile number: with the ninth digit.
 * 55 + DDD (2) + 8 digits starting 6-9 becomes 55 + DDD + 9 + 8 digits.
 */
export const canonicalBrazilianNumber = (raw: string): string => {
  const digits = raw.replace(/\D/g, "");
  if (digits.length === 12 && digits.startsWith("55") && /[6-9]/.test(digits[4] ?? "")) {
    return `${digits.slice(0, 4)}9${digits.slice(4)}`;
  }
  return digits;
};

/**
 * A phone number as WhatsApp's pairing-code login wants it (digits only, with the country code), from what an
 * admin types in Brazil: "+55 (11) 94444-3333", "11 94444-3333", "5511944443333", "(11) 3333-4444".
 * Null when it is not a Brazilian number (DDD 11-99; 8 digits, or 9 starting with 9).
 */
export const pairingPhoneNumber = (raw: string): string | null => {
  if (!/^[\d\s()+.-]*$/.test(raw)) return null;
  let digits = raw.replace(/\D/g, "");
  if (digits.length === 10 || digits.length === 11) digits = `55${digits}`;
  if (!/^55[1-9][1-9]\d{8,9}$/.test(digits)) return null;
  if (digits.length === 13 && digits[4] !== "9") return null;
  return digits;
};

/**
 * The digits of a search term that is a number (digits with phone punctuation: "(11) 97000-0102", "+55 11 9…"),
 * else "": a term like "Loja 2" is a name, and its digits must not match ticket 2 or numbers containing 2.
 */
export const searchedDigits = (term: string): string => (/^[\d\s()+\-./]+$/.test(term.trim()) ? term.replace(/\D/g, "") : "");
