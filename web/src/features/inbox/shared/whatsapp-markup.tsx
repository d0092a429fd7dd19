import type { ReactNode } from "react";

/**
 * WhatsApp text markup (*bold*, _italic_, ~strike~, ```mono```) turned into React elements.
 * User text is only ever a React text child: nothing is injected as HTML, so `<script>` stays literal text.
 * http(s) URLs become links opening in a new tab.
 */
const CODE_BLOCK = /```([\s\S]+?)```/g;
/** delimiter preceded by start/non-word, content not starting or ending with a space, closed before a non-word/end */
const INLINE = /(^|[^\p{L}\p{N}_])([*_~])(?!\s)([^\n]*?[^\s\n])\2(?=$|[^\p{L}\p{N}_])/u;
const URL_RE = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;
const TAGS = { "*": "strong", _: "em", "~": "s" } as const;

let keySeq = 0;
const nextKey = () => `m${keySeq++}`;

const linkify = (text: string): ReactNode[] => {
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_RE)) {
    const start = match.index ?? 0;
    if (start > last) out.push(text.slice(last, start));
    out.push(
      <a key={nextKey()} href={match[0]} target="_blank" rel="noopener noreferrer">
        {match[0]}
      </a>,
    );
    last = start + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
};

const inline = (text: string, depth: number): ReactNode[] => {
  if (depth > 6) return linkify(text);
  const out: ReactNode[] = [];
  let rest = text;
  for (;;) {
    const match = INLINE.exec(rest);
    if (!match) break;
    const [whole, lead = "", delim, content = ""] = match;
    const start = match.index;
    out.push(...linkify(rest.slice(0, start) + lead));
    const Tag = TAGS[delim as keyof typeof TAGS];
    out.push(<Tag key={nextKey()}>{inline(content, depth + 1)}</Tag>);
    rest = rest.slice(start + whole.length);
  }
  if (rest) out.push(...linkify(rest));
  return out;
};

/** Parses `text` into React nodes (strings and <strong>/<em>/<s>/<code>/<a> elements). */
export const renderWhatsAppMarkup = (text: string | null | undefined): ReactNode[] => {
  if (!text) return [];
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(CODE_BLOCK)) {
    const start = match.index ?? 0;
    if (start > last) out.push(...inline(text.slice(last, start), 0));
    out.push(
      <code key={nextKey()} style={{ fontFamily: "monospace", whiteSpace: "pre-wrap" }}>
        {match[1]}
      </code>,
    );
    last = start + match[0].length;
  }
  if (last < text.length) out.push(...inline(text.slice(last), 0));
  return out;
};

/** The message text with markup, keeping line breaks. */
export function WhatsAppText({ text }: { text: string | null | undefined }) {
  return <span style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>{renderWhatsAppMarkup(text)}</span>;
}

/** Markup characters removed, for one-line previews (ticket cards, quoted messages). */
export const stripWhatsAppMarkup = (text: string | null | undefined): string =>
  (text ?? "").replace(CODE_BLOCK, "$1").replace(new RegExp(INLINE.source, "gu"), "$1$3");
