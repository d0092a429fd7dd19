/** The words that hand a ticket to a human when a prompt sets none (issue 11 item 2). */
export const DEFAULT_HANDOVER_KEYWORDS = ["atendente", "humano"] as const;

/** Lower case, accents off, punctuation to spaces: "Quero um ATENDENTE!" and "atendente" meet. */
export const foldText = (s: string) =>
  s
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * The first keyword the customer's message holds as whole words (a keyword of several words matches as a phrase),
 * or null. "atendentes" does not match "atendente"; "falar com atendente" does.
 */
export const matchHandoverKeyword = (message: string, keywords: readonly string[]): string | null => {
  const text = ` ${foldText(message)} `;
  if (text.trim() === "") return null;
  for (const k of keywords) {
    const folded = foldText(k);
    if (folded && text.includes(` ${folded} `)) return k;
  }
  return null;
};

/** A prompt's keywords as stored (comma or line separated in the dialog), trimmed and without duplicates. */
export const parseKeywordList = (raw: string | readonly string[] | null | undefined): string[] => {
  const list = typeof raw === "string" ? raw.split(/[,\n;]/) : (raw ?? []);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const k of list) {
    const t = k.trim();
    if (t && !seen.has(foldText(t))) {
      seen.add(foldText(t));
      out.push(t);
    }
  }
  return out;
};
