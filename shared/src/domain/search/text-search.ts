/**
 * Full-text search's text rules (docs/adr/0035-full-text-search.md), shared by the index (functions) and the web
 * (highlighting inside a conversation): accent- and case-folding, Portuguese stop words, a light Portuguese stemmer
 * (plural and gender endings, after Savoy's light stemmer as Lucene ships it), whole words and prefixes, and
 * highlight ranges (never HTML: a customer's text is untrusted).
 */

const DIGITS = /^\d+$/;

/** Lower case, accents removed (NFD, combining marks dropped), ç → c. */
export const fold = (s: string): string => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** Function words that carry no meaning on their own: never indexed, dropped from queries (pt, with a few en/es). */
export const STOP_WORDS = new Set(
  (
    "a o e as os um uma uns umas de do da dos das em no na nos nas por pelo pela pelos pelas para pra pro com sem " +
    "ao aos que se me te lhe lhes nos vos eu tu ele ela eles elas voce voces meu minha meus minhas seu sua seus suas " +
    "isso isto aquilo esse essa este esta aquele aquela ja mas ou como mais muito tambem so entao foi ser ter ha " +
    "the of and to in is it el la los las y en es"
  ).split(" "),
);

/**
 * Words frequent in customer conversations after stop words: their postings are spread over several partitions
 * (hot-partition limit of DynamoDB, ~1,000 writes/s per key), read in parallel.
 */
export const FREQUENT_TERMS = new Set(
  "oi ola bom boa dia tard noit obrigad ok sim nao bem tud aqui agor hoj quer pod favor preciso gostari atend vc".split(" "),
);
export const FREQUENT_SHARDS = 4;

/** Light Portuguese stemmer on a folded word: plural, then gender/diminutive, then a final vowel. */
export const stem = (w: string): string => {
  if (w.length <= 3 || /^\d+$/.test(w)) return w;
  let s = w;
  const swap = (from: string, to: string, min = 4) => {
    if (s.length >= min && s.endsWith(from)) {
      s = s.slice(0, -from.length) + to;
      return true;
    }
    return false;
  };
  // plurals: -ões/-ães → -ão, -ais → -al, -éis/-eis → -el, -óis → -ol, -res/-les/-zes → -r/-l/-z, -ns → -m, -s
  if (s.endsWith("s")) {
    void (
      swap("oes", "ao") ||
      swap("aes", "ao") ||
      swap("ais", "al", 5) ||
      swap("eis", "el", 5) ||
      swap("ois", "ol", 5) ||
      swap("res", "r", 5) ||
      swap("les", "l", 5) ||
      swap("zes", "z", 5) ||
      swap("ns", "m") ||
      (s.length > 3 && !s.endsWith("ss") && !s.endsWith("us") && !s.endsWith("is") ? ((s = s.slice(0, -1)), true) : false)
    );
  }
  // diminutives and feminine forms
  void (swap("inha", "inho", 6) || swap("zinho", "", 7) || swap("inho", "", 6) || swap("ona", "ao", 5) || swap("mente", "", 8));
  // final vowel (gender: vencido/vencida → vencid)
  if (s.length > 3 && /[aeo]$/.test(s)) s = s.slice(0, -1);
  return s;
};

export type Token = { word: string; term: string; start: number; end: number };

/** Words of a text with their positions in the original string (letters and digits, folded). */
export const tokenize = (text: string): Token[] => {
  const out: Token[] = [];
  const re = /[\p{L}\p{N}]+/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const word = fold(m[0]);
    out.push({ word, term: stem(word), start: m.index, end: m.index + m[0].length });
  }
  return out;
};

/** The distinct index terms of a text (stop words and single letters left out), at most `max`. */
export const indexTerms = (text: string, max = 200): string[] => {
  const terms = new Set<string>();
  for (const t of tokenize(text)) {
    if (t.word.length < 2 && !/\d/.test(t.word)) continue;
    if (STOP_WORDS.has(t.word)) continue;
    terms.add(t.term.slice(0, 40));
    if (terms.size >= max) break;
  }
  return [...terms];
};

/**
 * A phone number or protocol as indexed terms: its digits, without the country code 55, and its last 9 and 8
 * digits (how people type a number), each searchable by its prefix.
 */
export const numberForms = (n: string): string[] => {
  const d = n.replace(/\D/g, "");
  if (d.length < 3) return [];
  const out = [d];
  if (d.startsWith("55") && d.length > 11) out.push(d.slice(2));
  if (d.length > 9) out.push(d.slice(-9), d.slice(-8));
  return [...new Set(out)];
};

export type QueryTerm = {
  /** the stemmed term (what postings are keyed by) */
  term: string;
  /** the folded word as typed */
  word: string;
  /** matches every indexed term starting with `word` (the word the user is still typing, or a short word) */
  prefix: boolean;
};

/**
 * What a query asks for: every word must match (AND). The last word is also a prefix (search as you type); so is
 * any word the stemmer would not touch (three letters or fewer). Stop words are dropped unless nothing else is left.
 */
export const parseQuery = (q: string, maxTerms = 5): QueryTerm[] => {
  const tokens = tokenize(q.slice(0, 200));
  const meaningful = tokens.filter((t) => !STOP_WORDS.has(t.word));
  const chosen = (meaningful.length ? meaningful : tokens).slice(0, maxTerms);
  const seen = new Set<string>();
  return chosen.flatMap((t, i) => {
    const key = t.word;
    if (seen.has(key)) return [];
    seen.add(key);
    const last = i === chosen.length - 1;
    return [{ term: t.term, word: t.word, prefix: last || t.word.length <= 3 || /^\d+$/.test(t.word) }];
  });
};

/** Whether an index term answers a query term: the same stem, or (prefix) an indexed term starting with the typed word's stem or the word. */
export const termMatches = (q: QueryTerm, term: string): boolean =>
  term === q.term || (q.prefix && (term.startsWith(q.word) || term.startsWith(q.term)));

/** Whether a word of a text (folded, stemmed) answers a query term; digits also by a number's shorter forms. */
const tokenMatches = (q: QueryTerm, t: Token): boolean =>
  t.term === q.term ||
  (q.prefix && (t.word.startsWith(q.word) || t.term.startsWith(q.term))) ||
  (DIGITS.test(q.word) && DIGITS.test(t.word) && numberForms(t.word).some((f) => f.startsWith(q.word)));

/** True when every query term occurs in the text (what a result must satisfy). */
export const textMatches = (query: QueryTerm[], text: string): boolean => {
  if (!query.length) return false;
  const tokens = tokenize(text);
  return query.every((q) => tokens.some((t) => tokenMatches(q, t)));
};

/** A piece of a snippet: plain text, `match` when it answered the query (the UI draws it highlighted; never HTML). */
export type Segment = { text: string; match: boolean };

/** Highlight ranges `[start, end)` of a text for a query (words answering any query term). */
export const highlightRanges = (query: QueryTerm[], text: string): Array<[number, number]> =>
  tokenize(text)
    .filter((t) => query.some((q) => tokenMatches(q, t)))
    .map((t) => [t.start, t.end]);

/**
 * A snippet of at most `width` characters around the first match, cut at word boundaries, as segments
 * (`…` marks a cut). Without a match: the text's start.
 */
export const snippet = (query: QueryTerm[], text: string, width = 160): Segment[] => {
  const ranges = highlightRanges(query, text);
  let from = 0;
  let to = text.length;
  if (text.length > width) {
    const first = ranges[0]?.[0] ?? 0;
    from = Math.max(0, first - Math.floor(width / 3));
    if (from > 0) {
      const space = text.lastIndexOf(" ", from);
      from = space > 0 && first - space < width / 2 ? space + 1 : from;
    }
    to = Math.min(text.length, from + width);
    if (to < text.length) {
      const space = text.lastIndexOf(" ", to);
      if (space > from) to = space;
    }
  }
  const out: Segment[] = [];
  if (from > 0) out.push({ text: "…", match: false });
  let at = from;
  for (const [s, e] of ranges) {
    if (e <= from || s >= to) continue;
    const a = Math.max(s, from);
    const b = Math.min(e, to);
    if (a > at) out.push({ text: text.slice(at, a), match: false });
    out.push({ text: text.slice(a, b), match: true });
    at = b;
  }
  if (at < to) out.push({ text: text.slice(at, to), match: false });
  if (to < text.length) out.push({ text: "…", match: false });
  return out;
};

/**
 * Ranking of a matching document: whole-word hits above prefix hits, more distinct query words above fewer, a
 * contact/protocol hit above a message hit; newer breaks ties (the caller sorts by score then time).
 */
export const score = (query: QueryTerm[], text: string, field: "message" | "contact" | "protocol"): number => {
  const tokens = tokenize(text);
  let s = 0;
  for (const q of query) {
    const exact = tokens.filter((t) => t.term === q.term).length;
    if (exact) s += 10 + Math.min(exact, 3);
    else if (tokens.some((t) => tokenMatches(q, t))) s += 6;
  }
  // an adjacent phrase ("boleto vencido") beats the words far apart
  for (let i = 0; i + 1 < query.length; i++) {
    const a = query[i]!;
    const b = query[i + 1]!;
    if (tokens.some((t, k) => t.term === a.term && tokens[k + 1] && tokenMatches(b, tokens[k + 1]!))) s += 5;
  }
  return s + (field === "message" ? 0 : 3);
};

/**
 * Index keys (docs/adr/0041-fewer-index-writes.md): a word's entry is written under its first 3 and 5 letters, a
 * number's under its first 4, 6 and 8 digits — a term shorter than the shortest length under itself. A whole word or
 * a prefix is still one partition read: the longest key length not longer than what was typed ("bol" → `bol`,
 * "vencido" → `venci`, "venc" → `ven`), filtered on the entry's terms (`w`) for the whole word or the prefix. Before
 * ADR 0041 the term itself and its 4-letter prefix were keys too (~17 writes per message instead of ~9).
 */
const WORD_KEY_LENGTHS = [3, 5];
const DIGIT_KEY_LENGTHS = [4, 6, 8];
const keyLengthsOf = (s: string) => (DIGITS.test(s) ? DIGIT_KEY_LENGTHS : WORD_KEY_LENGTHS);
/** The partition keys a term's entry is written under. */
export const prefixKeysOf = (term: string): string[] => {
  const lengths = keyLengthsOf(term).filter((k) => k <= term.length);
  return lengths.length ? lengths.map((k) => term.slice(0, k)) : [term];
};
/** The key a query term reads: the longest key length that fits what was typed (a whole word's stem, or a prefix). */
export const queryKeyOf = (q: QueryTerm): { key: string; own: string; exact: boolean } => {
  const p = q.prefix ? commonPrefix(q.word, q.term) : q.term;
  const lengths = keyLengthsOf(p);
  // shorter than any key length: the whole term was written under itself (prefix or not, only that term answers)
  if (p.length < lengths[0]!) return { key: q.term, own: q.term, exact: true };
  const k = [...lengths].reverse().find((n) => n <= p.length)!;
  return { key: p.slice(0, k), own: p, exact: !q.prefix };
};
/**
 * Whether a text has a word the index finds only as that exact word, not as the start of longer ones: a word of
 * fewer letters than the shortest key (one or two letters: "jo", the "d" of "maria d"). The ticket list's search then
 * also looks names up by prefix in the contacts' own index (docs/adr/0055). Numbers are not: a number is read by
 * its prefix from three digits on (search-index.repository.ts).
 */
export const shortForIndex = (q: string): boolean => parseQuery(q).some((t) => !DIGITS.test(t.word) && t.word.length < WORD_KEY_LENGTHS[0]!);
/** The longest common start of the typed word and its stem ("cartoes" / "cartao" → "carta"). */
export const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, Math.max(i, 1));
};

const FREQUENT_KEYS = new Set([...FREQUENT_TERMS].flatMap(prefixKeysOf));
/** The partitions a key's postings live in (frequent words and their prefixes: several shards). */
export const shardsOf = (key: string): number => (FREQUENT_KEYS.has(key) ? FREQUENT_SHARDS : 1);
/** Which shard one document's posting under a key goes to (stable per document). */
export const shardFor = (key: string, docId: string): number => {
  const n = shardsOf(key);
  if (n === 1) return 0;
  let h = 0;
  for (let i = 0; i < docId.length; i++) h = (h * 31 + docId.charCodeAt(i)) | 0;
  return Math.abs(h) % n;
};
