import type { RewriteStyle } from "@atende/shared/contracts/http/copilot";
import type { CopilotChatMessage } from "./copilot-provider.port";

/** One line of a conversation, oldest first (features/inbox/copilot-reads.ts). */
export type PromptLine = { kind: "customer" | "agent" | "note"; text: string; createdAt: string };

/**
 * The prompt stays bounded however long the conversation (issue 33 item 7, docs/adr/0099): the newest RECENT_LINES
 * lines go as they are (each cut at LINE_CHARS), the older ones only as a digest (customer lines and notes, each cut
 * at DIGEST_LINE_CHARS, at most DIGEST_CHARS in all, the newest of them kept). The reads are bounded too: the copilot
 * reads at most READ_LIMIT messages of a ticket.
 */
export const READ_LIMIT = 120;
export const RECENT_LINES = 30;
export const LINE_CHARS = 1_000;
export const DIGEST_LINE_CHARS = 160;
export const DIGEST_CHARS = 3_000;
export const KNOWLEDGE_CHARS = 4_000;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const who = (kind: PromptLine["kind"]) => (kind === "customer" ? "Cliente" : kind === "agent" ? "Atendente" : "Nota interna");

/** The older lines as one digest text, newest kept when over DIGEST_CHARS; "" when there are none. */
export const digestOf = (older: readonly PromptLine[]): string => {
  const kept: string[] = [];
  let size = 0;
  for (let i = older.length - 1; i >= 0; i--) {
    const l = older[i]!;
    if (l.kind === "agent") continue;
    const row = `- ${who(l.kind)}: ${cut(l.text.replace(/\s+/g, " "), DIGEST_LINE_CHARS)}`;
    if (size + row.length > DIGEST_CHARS) break;
    kept.unshift(row);
    size += row.length + 1;
  }
  if (!kept.length) return "";
  const dropped = older.length - kept.length;
  return `Histórico anterior resumido (${older.length} mensagens${dropped ? `, ${dropped} omitidas` : ""}):\n${kept.join("\n")}`;
};

/** The conversation as chat messages: the digest (if any) as context, then the recent lines (customer = user). */
export const conversationMessages = (lines: readonly PromptLine[]): CopilotChatMessage[] => {
  const recent = lines.slice(-RECENT_LINES);
  const digest = digestOf(lines.slice(0, Math.max(0, lines.length - RECENT_LINES)));
  return [
    ...(digest ? [{ role: "system" as const, content: digest }] : []),
    ...recent.map((l): CopilotChatMessage =>
      l.kind === "customer"
        ? { role: "user", content: cut(l.text, LINE_CHARS) }
        : { role: "assistant", content: `${l.kind === "note" ? "[Nota interna] " : ""}${cut(l.text, LINE_CHARS)}` },
    ),
  ];
};

const LANGUAGES: Record<string, string> = { pt: "português", en: "inglês (English)", es: "espanhol (español)" };
export const languageName = (lang: string | undefined) => LANGUAGES[(lang ?? "pt").slice(0, 2)] ?? LANGUAGES.pt!;

export const summaryMessages = (lines: readonly PromptLine[], lang: string | undefined): CopilotChatMessage[] => [
  {
    role: "system",
    content: `Resuma em poucas linhas, em ${languageName(lang)}, a conversa a seguir para o atendente humano que vai continuar o atendimento. Inclua o que importa das notas internas e das transcrições de áudio. Termine com o último pedido do cliente.`,
  },
  ...conversationMessages(lines),
];

/** Quick messages and the queue's AI prompt, cut to KNOWLEDGE_CHARS. */
export const knowledgeText = (k: { quickMessages: readonly { shortcode: string; message: string }[]; queuePrompt: string | null }) => {
  const parts: string[] = [];
  if (k.queuePrompt) parts.push(`Instruções do setor:\n${cut(k.queuePrompt, 1_500)}`);
  if (k.quickMessages.length) parts.push(`Respostas rápidas da empresa:\n${k.quickMessages.map((q) => `- /${q.shortcode}: ${cut(q.message.replace(/\s+/g, " "), 300)}`).join("\n")}`);
  return cut(parts.join("\n\n"), KNOWLEDGE_CHARS);
};

export const suggestionsMessages = (lines: readonly PromptLine[], knowledge: string, lang: string | undefined): CopilotChatMessage[] => [
  {
    role: "system",
    content: [
      `Sugira até 3 respostas curtas, em ${languageName(lang)}, que o atendente pode enviar agora ao cliente. Uma por linha, sem numeração nem aspas.`,
      knowledge ? `Use como conhecimento:\n${knowledge}` : "",
    ]
      .filter(Boolean)
      .join("\n\n"),
  },
  ...conversationMessages(lines),
];

const STYLES: Record<RewriteStyle, string> = {
  fix: "corrigindo ortografia e gramática, sem mudar o sentido nem o tom",
  formal: "em tom formal e cordial",
  friendly: "em tom amigável e próximo",
  shorter: "de forma mais curta, mantendo o essencial",
};
export const rewriteMessages = (text: string, style: RewriteStyle): CopilotChatMessage[] => [
  { role: "system", content: `Reescreva (${style}) o texto do atendente ${STYLES[style]}, no mesmo idioma. Responda só com o texto reescrito.` },
  { role: "user", content: text },
];

/** The model's suggestions: one per line, numbering and quotes removed, at most 3. */
export const parseSuggestions = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "").replace(/^["“](.*)["”]$/, "$1").trim())
    .filter(Boolean)
    .slice(0, 3);

/** Characters of a prompt (bench: its size for a long conversation). */
export const promptChars = (messages: readonly CopilotChatMessage[]) => messages.reduce((n, m) => n + m.content.length, 0);
