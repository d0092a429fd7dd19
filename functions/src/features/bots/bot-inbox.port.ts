import type { BotAction, BotHistoryMessage, BotKind, BotOutMessage } from "./bot-engine.port";

/**
 * What the bot runner needs from the inbox (ADR 0026). The runner reads and changes tickets only through this
 * facade: it never writes ticket, message or note items itself, so every change it makes is recorded, published
 * and ordered exactly like an attendant's. bots.module.ts adapts the inbox's service to it.
 */

/** The ticket as the runner sees it at one moment (read again before sending: an attendant may have accepted). */
export type BotTicket = {
  id: number;
  uuid: string;
  companyId: number;
  status: "pending" | "open" | "closed" | string;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  contactId: number;
  isGroup: boolean;
  /** the attention cycle's protocol number (issue 13, ADR 0033), as the product shows it; null on tickets from before it */
  protocol?: string | null;
};

/** A stored message of the ticket. */
export type BotStoredMessage = {
  id: string;
  ticketId: number;
  fromMe: boolean;
  body: string;
  mediaType: string;
  mediaUrl: string | null;
  mediaKey: string | null;
  mediaMimetype: string | null;
  /** the audio's transcript, once a prompt transcribed it */
  transcript: string | null;
  /** a pressed reply button / list row's id (Cloud API), the body being its title */
  replyId?: string | null;
  /** an internal note or a system line that is not part of the conversation with the customer */
  internal?: boolean;
  createdAt: string;
};

export type BotTurnContext = {
  company: { id: number; name: string };
  connection: { id: number; name: string };
  queue: { id: number; name: string } | null;
  contact: { id: number; name: string; number: string; email?: string };
};

export type BotInbox = {
  /**
   * `turn`: a turn's first read. What the turn reads next starts beside it: the contact (when its id is known; the
   * ticket's must still be it) for `context`, and the company's open sockets for the sends' realtime frames.
   */
  ticket(companyId: number, ticketId: number, opts?: { turn?: { contactId?: number } }): Promise<BotTicket | null>;
  /** company, connection, queue and contact names for the engine (null: the connection or contact is gone) */
  context(ticket: BotTicket): Promise<BotTurnContext | null>;
  message(companyId: number, ticketId: number, messageId: string): Promise<BotStoredMessage | null>;
  /**
   * The ticket's newest `limit` messages as the conversation stood at `upTo`'s turn, oldest first, ending with `upTo`:
   * ours all, the customer's up to `upTo` without those still `waiting` for their own turns (WhatsApp times are whole
   * seconds, so two messages of one second are told apart by the runner's queue, not by time). No internal notes.
   * Audio carries its transcript as its body when there is one.
   */
  history(companyId: number, ticketId: number, upTo: BotStoredMessage, limit: number, waiting?: readonly string[]): Promise<BotHistoryMessage[]>;
  readMedia(companyId: number, message: BotStoredMessage): Promise<Uint8Array>;
  saveTranscript(companyId: number, ticketId: number, messageId: string, transcript: string): Promise<void>;
  /**
   * Stores and sends one message from the bot (no attendant), as automation's messages are sent. `key` is unique per
   * customer message and position: a turn run again (a worker died after sending) stores and sends nothing twice.
   * `onlyIf`: checked on the ticket as it is written with the message (its version guards the write): false there
   * (an attendant accepted meanwhile) stores and sends nothing, and the answer is `false`.
   * `ticket` as `ticket()` answered it (and as an earlier `send` of the same turn left it) is not read again.
   * `followed`: another message of this turn comes after this one; the turn's messages reach the customer in the
   * order they were sent here, on every channel (ADR 0106).
   */
  send(ticket: BotTicket, message: BotOutMessage, key: string, opts?: { onlyIf?: (current: BotTicket) => boolean; followed?: boolean }): Promise<boolean | void>;
  /**
   * Stops the bot for this ticket's attention cycle: the ticket stays (or becomes) pending in its queue, without an
   * owner, for the queue's attendants, with an internal note (`note`) saying why and what was said.
   */
  handover(ticket: BotTicket, note: string): Promise<void>;
  /** the other actions a bot may ask for; a refused one (unknown queue or user, other open ticket) throws */
  apply(ticket: BotTicket, action: Exclude<BotAction, { type: "handover" }>): Promise<void>;
};

/** Which bot (if any) answers a ticket now: the queue's prompt or integration, else the connection's. */
export type BotBinding = {
  kind: BotKind;
  /** the prompt's or the queue integration's id */
  id: number;
  /** what the engine gets: the stored prompt or integration with its secrets opened */
  config: unknown;
  /** how many of the ticket's latest messages the engine is given (prompts: maxMessages); default 20, at most 100 */
  historyLimit?: number;
  /**
   * the engine reads the conversation only now and then (a flow: its `ai` node): `history` comes empty and
   * `loadHistory` reads it when asked (a handover note reads it too), saving three reads on every other turn
   */
  historyOnDemand?: boolean;
  /** the prompt's monthly token cap; 0 or absent = none */
  monthlyTokenCap?: number;
};
/** `known.item`: the ticket's bot item as the runner holds it (its lease's answer), so it is not read again. */
export type BotResolver = { resolve(ticket: BotTicket, known?: { item?: KnownBotItem }): Promise<BotBinding | null> };
/** What a resolver reads of the ticket's bot item (bots/bot-turns.repository.ts). */
export type KnownBotItem = { bot: { kind: string; id: number } | null; state: Record<string, unknown> | null; stoppedAt: string | null };
