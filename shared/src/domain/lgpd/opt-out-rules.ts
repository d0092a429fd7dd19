/**
 * Opt-outs (LGPD consent for marketing): a customer who answers one of the company's opt-out words is put on the
 * company's opt-out list; campaigns and the external API skip that number until an admin clears it.
 */

/** The words a reply must be (alone, apart from punctuation, case and accents) to count as a request to opt out. */
export const DEFAULT_OPT_OUT_KEYWORDS = ["SAIR", "PARAR", "STOP", "CANCELAR"] as const;

/** The confirmation sent after opting out (the company may change it; empty means none is sent). */
export const DEFAULT_OPT_OUT_CONFIRMATION =
  "Pronto! Você não receberá mais nossas mensagens de campanha. Se mudar de ideia, é só nos avisar por aqui.";

/** Upper case, no accents, no punctuation or emoji, single spaces: how replies and keywords are compared. */
export const normalizeOptOutText = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toUpperCase()
    .replace(/[^\p{L}\p{N} ]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

/**
 * True when the reply is exactly one of the keywords (after normalising both): "Sair", "sair!", " PARAR. " count;
 * "não quero sair agora" does not (a word inside a sentence is a conversation, not a request).
 */
export const isOptOutReply = (body: string, keywords: readonly string[]): boolean => {
  if (!mayBeOptOutReply(body)) return false;
  const reply = normalizeOptOutText(body);
  return keywords.some((k) => normalizeOptOutText(k) === reply);
};

/**
 * False when no list of keywords can make the reply an opt-out (empty, or longer than a keyword may be): the
 * inbound check skips reading the company's keywords for it.
 */
export const mayBeOptOutReply = (body: string): boolean => {
  const reply = normalizeOptOutText(body);
  return reply.length > 0 && reply.length <= 40;
};

/** When a reply counts: always after a campaign message; in any other ticket only when the company says so. */
export const optOutApplies = (opts: { afterCampaign: boolean; anyTicket: boolean }): boolean => opts.afterCampaign || opts.anyTicket;

/** Days a campaign message keeps a reply "a reply to that campaign" (the customer may answer a day or two later). */
export const CAMPAIGN_REPLY_WINDOW_DAYS = 7;
