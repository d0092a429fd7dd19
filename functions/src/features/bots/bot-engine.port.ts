import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";

/**
 * The contract between the bot runner (one turn per customer message, SERVER-RULES "Inbound message" step 5)
 * and each kind of bot: an AI prompt, a Typebot flow, an n8n or webhook endpoint, a DialogFlow agent.
 * An engine is a pure adapter: it gets the turn's context and its own saved state, talks to its outside service,
 * and answers what to send and what to do. The runner owns everything else: when a turn runs, the timeout and
 * the one retry, storing and sending the messages (with the delay between them), applying the actions, saving
 * the state on the ticket, counting usage, and handing over to a human when the engine fails.
 */

/** `flow`: a flow drawn on the /flows page (issue 30, ADR 0083) */
export type BotKind = "prompt" | "typebot" | "n8n" | "webhook" | "dialogflow" | "flow";

/** One message of the conversation as a bot sees it (oldest first in `history`). */
export type BotHistoryMessage = { fromMe: boolean; body: string; mediaType?: string; createdAt: string };

export type BotTurnInput = {
  company: { id: number; name: string };
  connection: { id: number; name: string };
  queue: { id: number; name: string } | null;
  /** `protocol`: the attention cycle's protocol number (ADR 0033), null on tickets from before it */
  ticket: { id: number; uuid: string; queueId: number | null; protocol?: string | null };
  contact: { id: number; name: string; number: string; email?: string };
  /** the customer's message that started this turn; audio carries its transcript in `body` when there is one */
  /** `replyId`: the id of the reply button / list row the customer pressed (Cloud API; `body` is its title) */
  message: { id: string; body: string; mediaType?: string; mediaUrl?: string; transcript?: string; replyId?: string; createdAt: string };
  /** the ticket's latest messages, oldest first (the runner caps how many; an engine may read fewer) */
  history: BotHistoryMessage[];
  /** the binding asked for the history on demand (BotBinding.historyOnDemand): `history` is empty, this reads it (once) */
  loadHistory?: () => Promise<BotHistoryMessage[]>;
  /** what this engine saved on the ticket at its previous turn (e.g. a Typebot session id); null on the first */
  state: Record<string, unknown> | null;
  now: Date;
  /** aborted when the runner's timeout for this call expires; pass it to fetch/SDK calls */
  signal: AbortSignal;
  /** the bytes of `message`'s media (our storage), for engines that need them (transcribing audio); absent without media */
  readMedia?: () => Promise<Uint8Array>;
};

/** A message the bot wants sent to the customer, in order. Media by URL: the runner downloads it into our storage. */
export type BotOutMessage =
  | { kind: "text"; body: string }
  | { kind: "media"; mediaType: "image" | "audio" | "video" | "document"; url: string; caption?: string; filename?: string }
  | { kind: "voice"; audio: Uint8Array; mimetype: string }
  /** issue 30: a file already in our media store (a flow's uploaded file or a file list's), `key` of the company's own */
  | { kind: "stored"; key: string; filename: string; caption?: string }
  /** issue 30: a menu — `body` as numbered text (every channel), `interactive` for channels that have buttons/lists */
  | { kind: "menu"; body: string; interactive: NonNullable<Extract<OutboundCommand, { type: "send" }>["interactive"]> };

export type BotAction =
  /** stop the bot: the ticket waits as pending in its queue for an attendant, with an internal note */
  | { type: "handover"; reason: string; note?: string }
  | { type: "transferQueue"; queueId: number }
  | { type: "transferUser"; userId: number }
  | { type: "close" }
  | { type: "addTag"; tag: number | string }
  /** issue 30: a flow's `question` saved the answer on the contact (its e-mail, name or an extra field) */
  | { type: "saveContact"; field: "name" | "email" | "extra"; key?: string; value: string };

export type BotTurnResult = {
  messages: BotOutMessage[];
  actions: BotAction[];
  /** saved on the ticket for the next turn; null ends the engine's session (the next message starts afresh) */
  state: Record<string, unknown> | null;
  /** pause between messages (Typebot's typebotDelayMessage); 0 when absent */
  delayMs?: number;
  /** model tokens used by this turn (prompts), counted per company and month */
  usage?: { promptTokens: number; completionTokens: number };
  /** the transcript of the customer's audio, when the engine made one: the runner stores it on the message */
  transcript?: string;
  /** issue 30: the engine meant to say nothing this turn (a flow waiting on a timer): not "silence", no handover */
  quiet?: boolean;
  /** issue 30: the engine is done with this ticket (a flow's transfer or end): the runner stops it after the actions */
  stop?: string;
  /** issue 30: run a turn at this time even if the customer says nothing (a flow's `wait`): a delayed job, no polling */
  wakeAt?: Date;
};

/** Thrown by an engine when a retry may succeed (timeouts, 429, 5xx, connection resets); anything else is final. */
export class BotTransientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BotTransientError";
  }
}

/** One kind of bot. `config` is the stored prompt or queue integration, with its secrets already opened. */
export type BotEngine<Config> = {
  kind: BotKind;
  /**
   * One turn. A result with no messages and no actions is "silence": the runner hands the ticket over, so an
   * engine that means to wait quietly must say so with its state and at least one message or action.
   */
  turn(config: Config, input: BotTurnInput): Promise<BotTurnResult>;
  /**
   * Words that hand the ticket to a human before the engine is called (the runner checks them, accent- and
   * case-insensitively, as whole words of the customer's message). Absent: none.
   */
  handoverKeywords?(config: Config): readonly string[];
  /**
   * The internal note's summary when the runner hands over (keyword, failure, cap). Absent or failing: the runner
   * writes an excerpt of the last messages instead. Gets the same timeout as a turn.
   */
  summarize?(config: Config, input: BotTurnInput): Promise<{ summary: string; usage?: BotTurnResult["usage"] }>;
};

/** The runner's registry: one engine per kind (bot-engines.ts fills it; a kind without an engine is skipped). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each engine has its own config type; the binding carries the matching one
export type BotEngines = Partial<Record<BotKind, BotEngine<any>>>;
