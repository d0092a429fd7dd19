import type { BotAction, BotEngine, BotOutMessage, BotTurnInput, BotTurnResult } from "../bot-engine.port";
import type { UrlGuard } from "../../../platform/net/public-url-guard";
import { customerText, engineRequest, NOT_JSON, sameKeyword, type EngineFetch } from "./engine-http";

/**
 * Typebot (issue 11 item 4) through its public chat API: `POST {urlN8N}/api/v1/typebots/{typebotSlug}/startChat`
 * opens a session and answers the flow's first bubbles; `POST {urlN8N}/api/v1/sessions/{sessionId}/continueChat`
 * carries each customer answer. The session id lives in the turn state on the ticket.
 *
 * - text, image, audio and video bubbles become messages, sent `typebotDelayMessage` ms apart (the runner waits);
 * - a choice input is listed as numbered options; the customer may answer with the number or the text;
 * - `typebotKeywordFinish` ends the session and hands over; `typebotKeywordRestart` sends `typebotRestartMessage`
 *   and starts the flow again;
 * - what the flow does not take (Typebot answers nothing new, or the customer sent media the input cannot take)
 *   gets `typebotUnknownMessage`;
 * - a session idle for more than `typebotExpires` minutes (0: never) is over: the next message starts the flow
 *   afresh; so is a session Typebot no longer knows (404);
 * - the end of the flow (an answer with no input waiting) hands the ticket to the queue's attendants.
 * A turn with nothing to say (no unknown message configured) is silence: the runner hands over.
 */
export type TypebotConfig = {
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
};

/** What the engine keeps on the ticket between turns. */
export type TypebotState = {
  sessionId: string;
  /** ISO time of the last exchange, for typebotExpires */
  lastActivityAt: string;
  /** the choice input's options when the flow waits on one (answers by number) */
  choices?: string[];
  /** the kind of input the flow waits on ("text input", "choice input", "file input" ...) and its block id */
  inputType?: string;
  inputId?: string;
};

type TypebotBubble = { id?: string; type?: string; content?: Record<string, unknown> };
type TypebotInput = { id?: string; type?: string; items?: { id?: string; content?: string }[]; options?: Record<string, unknown> };
type TypebotAnswer = { sessionId?: string; messages?: TypebotBubble[]; input?: TypebotInput | null };

const SERVICE = "Typebot";

/** Why the flow handed over (pt, like every automatic text: the runner writes it at the top of the internal note). */
export const TYPEBOT_REASONS = {
  endOfFlow: "o fluxo do Typebot chegou ao fim",
  finishKeyword: (k: string) => `o cliente encerrou o Typebot com "${k}"`,
} as const;

/** `urlN8N` is the Typebot server (viewer) address; an address already ending in /api/v1 is accepted too. */
export const typebotApiBase = (urlN8N: string) => {
  const base = urlN8N.trim().replace(/\/+$/, "");
  return base.endsWith("/api/v1") ? base : `${base}/api/v1`;
};

/** Slate rich text (older Typebot answers) flattened to lines of text. */
const richTextToPlain = (nodes: unknown): string => {
  if (!Array.isArray(nodes)) return "";
  const walk = (n: unknown): string => {
    if (!n || typeof n !== "object") return "";
    const node = n as { text?: unknown; children?: unknown; type?: unknown; bold?: unknown; italic?: unknown };
    if (typeof node.text === "string") {
      if (!node.text) return "";
      if (node.bold) return `*${node.text}*`;
      if (node.italic) return `_${node.text}_`;
      return node.text;
    }
    return Array.isArray(node.children) ? node.children.map(walk).join("") : "";
  };
  return nodes.map(walk).join("\n");
};

/** Typebot's markdown to WhatsApp's marks: **bold** → *bold*, ~~strike~~ → ~strike~, markdown escapes removed. */
export const markdownToWhatsapp = (md: string) =>
  md
    .replace(/\*\*(.+?)\*\*/g, "*$1*")
    .replace(/~~(.+?)~~/g, "~$1~")
    .replace(/\\([\\`*_{}[\]()#+\-.!>~|])/g, "$1")
    .trim();

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** One Typebot bubble as our outgoing messages (an embed or a hosted video platform becomes its link). */
export const bubbleToMessages = (b: TypebotBubble): BotOutMessage[] => {
  const c = b.content ?? {};
  switch (b.type) {
    case "text": {
      const body = typeof c.markdown === "string" ? markdownToWhatsapp(c.markdown) : richTextToPlain(c.richText).trim() || str(c.plainText).trim();
      return body ? [{ kind: "text", body }] : [];
    }
    case "image":
      return str(c.url) ? [{ kind: "media", mediaType: "image", url: str(c.url) }] : [];
    case "audio":
      return str(c.url) ? [{ kind: "media", mediaType: "audio", url: str(c.url) }] : [];
    case "video": {
      const url = str(c.url);
      if (!url) return [];
      // youtube, vimeo, tiktok ... are pages, not files: the customer gets the link
      const hosted = str(c.type) && str(c.type) !== "url";
      return hosted ? [{ kind: "text", body: url }] : [{ kind: "media", mediaType: "video", url }];
    }
    case "embed":
      return str(c.url) ? [{ kind: "text", body: str(c.url) }] : [];
    default:
      return [];
  }
};

const choicesOf = (input: TypebotInput | null | undefined) =>
  input?.type === "choice input" && Array.isArray(input.items) ? input.items.map((i) => str(i.content)).filter(Boolean) : undefined;

const choicesText = (choices: string[]) => choices.map((c, i) => `*${i + 1}* - ${c}`).join("\n");

/** A numbered answer to a choice input becomes the option's text; anything else is sent as written. */
const answerFor = (text: string, state: TypebotState | null) => {
  const n = /^\s*(\d{1,2})\s*$/.exec(text);
  if (n && state?.choices) {
    const chosen = state.choices[Number(n[1]) - 1];
    if (chosen) return chosen;
  }
  return text;
};

const parseAnswer = (json: unknown, what: string): TypebotAnswer => {
  if (json === NOT_JSON || !json || typeof json !== "object") throw new Error(`${SERVICE} ${what}: the answer is not a chat answer (JSON object)`);
  return json as TypebotAnswer;
};

export const createTypebotEngine = (deps: { fetch?: EngineFetch; guard?: UrlGuard } = {}): BotEngine<TypebotConfig> => {
  const fetchFn = deps.fetch ?? fetch;
  const guard = deps.guard ?? (async () => undefined);
  const headers = { "content-type": "application/json", accept: "application/json" };

  const start = async (config: TypebotConfig, input: BotTurnInput) => {
    const url = `${typebotApiBase(config.urlN8N)}/typebots/${encodeURIComponent(config.typebotSlug)}/startChat`;
    await guard(url);
    const body = {
      textBubbleContentFormat: "markdown",
      // Typebot keeps only the variables its flow declares; these are the ones a flow may use
      prefilledVariables: {
        name: input.contact.name,
        firstName: input.contact.name.split(/\s+/)[0] ?? "",
        number: input.contact.number,
        email: input.contact.email ?? "",
        ticketId: String(input.ticket.id),
        protocol: input.ticket.uuid,
        company: input.company.name,
        queue: input.queue?.name ?? "",
      },
    };
    const res = await engineRequest(fetchFn, SERVICE, url, { headers, body: JSON.stringify(body), signal: input.signal });
    const answer = parseAnswer(res.json, "startChat");
    if (typeof answer.sessionId !== "string" || !answer.sessionId) throw new Error(`${SERVICE} startChat: no sessionId in the answer`);
    return answer as TypebotAnswer & { sessionId: string };
  };

  /** null when Typebot no longer knows the session (404): the caller starts afresh */
  const continueChat = async (config: TypebotConfig, input: BotTurnInput, sessionId: string, text: string) => {
    const url = `${typebotApiBase(config.urlN8N)}/sessions/${encodeURIComponent(sessionId)}/continueChat`;
    await guard(url);
    const body = { message: { type: "text", text }, textBubbleContentFormat: "markdown" };
    const res = await engineRequest(fetchFn, SERVICE, url, { headers, body: JSON.stringify(body), signal: input.signal }, { notFound: "return" });
    if (res.status === 404) return null;
    return parseAnswer(res.json, "continueChat");
  };

  /** The turn's result from a Typebot answer: bubbles, the options of a choice, the end of the flow. */
  const toResult = (config: TypebotConfig, answer: TypebotAnswer, sessionId: string, now: Date, before: BotOutMessage[] = []): BotTurnResult => {
    const messages = [...before, ...(answer.messages ?? []).flatMap(bubbleToMessages)];
    const delayMs = config.typebotDelayMessage;
    if (!answer.input) {
      const actions: BotAction[] = [{ type: "handover", reason: TYPEBOT_REASONS.endOfFlow }];
      return { messages, actions, state: null, delayMs };
    }
    const choices = choicesOf(answer.input);
    if (choices?.length) messages.push({ kind: "text", body: choicesText(choices) });
    const state: TypebotState = {
      sessionId,
      lastActivityAt: now.toISOString(),
      ...(answer.input.type ? { inputType: answer.input.type } : {}),
      ...(answer.input.id ? { inputId: answer.input.id } : {}),
      ...(choices?.length ? { choices } : {}),
    };
    return { messages, actions: [], state, delayMs };
  };

  const restartMessages = (config: TypebotConfig): BotOutMessage[] => (config.typebotRestartMessage.trim() ? [{ kind: "text", body: config.typebotRestartMessage.trim() }] : []);
  const unknown = (config: TypebotConfig): BotOutMessage[] => (config.typebotUnknownMessage.trim() ? [{ kind: "text", body: config.typebotUnknownMessage.trim() }] : []);

  return {
    kind: "typebot",
    async turn(config, input) {
      const text = customerText(input.message);
      const now = input.now;
      let state = readState(input.state);
      if (state && config.typebotExpires > 0 && now.getTime() - Date.parse(state.lastActivityAt) > config.typebotExpires * 60_000) state = null;

      if (sameKeyword(text, config.typebotKeywordFinish)) {
        return { messages: [], actions: [{ type: "handover", reason: TYPEBOT_REASONS.finishKeyword(config.typebotKeywordFinish.trim()) }], state: null };
      }
      if (sameKeyword(text, config.typebotKeywordRestart)) {
        const started = await start(config, input);
        return toResult(config, started, started.sessionId, now, restartMessages(config));
      }
      if (!state) {
        const started = await start(config, input);
        return toResult(config, started, started.sessionId, now);
      }
      // media without text (a sticker, a photo) for an input that takes text: the flow cannot take it
      if (!text && state.inputType !== "file input") {
        return { messages: [...unknown(config), ...(state.choices ? [{ kind: "text" as const, body: choicesText(state.choices) }] : [])], actions: [], state: { ...state, lastActivityAt: now.toISOString() }, delayMs: config.typebotDelayMessage };
      }
      const reply = state.inputType === "file input" && input.message.mediaUrl ? input.message.mediaUrl : answerFor(text, state);
      const answer = await continueChat(config, input, state.sessionId, reply);
      if (!answer) {
        // Typebot forgot the session (expired on its side): the flow starts again
        const started = await start(config, input);
        return toResult(config, started, started.sessionId, now);
      }
      // the same input again with nothing said: the flow did not take the answer
      const sameInput = !!answer.input && (answer.input.id ?? "") === (state.inputId ?? "");
      const nothingNew = sameInput && !(answer.messages ?? []).some((b) => bubbleToMessages(b).length);
      if (nothingNew) {
        const again = choicesOf(answer.input) ?? state.choices;
        return {
          messages: [...unknown(config), ...(again?.length ? [{ kind: "text" as const, body: choicesText(again) }] : [])],
          actions: [],
          state: { ...state, lastActivityAt: now.toISOString(), ...(again?.length ? { choices: again } : {}) },
          delayMs: config.typebotDelayMessage,
        };
      }
      return toResult(config, answer, state.sessionId, now);
    },
  };
};

const readState = (s: Record<string, unknown> | null): TypebotState | null => {
  if (!s || typeof s.sessionId !== "string" || !s.sessionId) return null;
  const lastActivityAt = typeof s.lastActivityAt === "string" && !Number.isNaN(Date.parse(s.lastActivityAt)) ? s.lastActivityAt : new Date(0).toISOString();
  const choices = Array.isArray(s.choices) ? s.choices.filter((c): c is string => typeof c === "string") : undefined;
  return {
    sessionId: s.sessionId,
    lastActivityAt,
    ...(choices?.length ? { choices } : {}),
    ...(typeof s.inputType === "string" ? { inputType: s.inputType } : {}),
    ...(typeof s.inputId === "string" ? { inputId: s.inputId } : {}),
  };
};
