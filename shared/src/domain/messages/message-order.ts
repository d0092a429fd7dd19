/**
 * The order of a conversation (docs/adr/0066-message-order-within-a-second.md): WhatsApp's timestamps are whole
 * seconds, so messages of one second are told apart by `seq`, a number the receiving side gives each inbound
 * message in the order the provider handed them over (the session host per chat, the Cloud API webhook in payload
 * order). It is a hybrid clock: `max(previous + 1, now in ms)`, so it grows within a process, and a process that
 * starts later (a restart, another host taking the connection over) starts above what an earlier one gave, as long
 * as the clocks agree within the time a restart takes. Only its order within one chat and one second matters.
 */
export const createMessageSequencer = (now: () => number = Date.now) => {
  let last = 0;
  return {
    next(): number {
      last = Math.max(last + 1, Math.floor(now()));
      return last;
    },
  };
};
export type MessageSequencer = ReturnType<typeof createMessageSequencer>;

/** Digits of `seq` in a sort key: a ms clock has 13 until the year 2286. */
export const SEQ_DIGITS = 16;

/**
 * The conversation's sort key after the time (`<createdAt>#<this>`): `<seq, 16 digits>#<id>` for a message with a
 * sequence, the id alone for one without (ours, and anything stored before sequences), as before.
 */
export const messageOrderSuffix = (m: { id: string; seq?: number | null }) =>
  typeof m.seq === "number" && m.seq >= 0 ? `${String(Math.floor(m.seq)).padStart(SEQ_DIGITS, "0")}#${m.id}` : m.id;

/** Oldest first, as the conversation's sort key orders them: time, then sequence, then id. */
export const compareMessages = (a: { createdAt: string; id: string; seq?: number | null }, b: { createdAt: string; id: string; seq?: number | null }) => {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  const x = messageOrderSuffix(a);
  const y = messageOrderSuffix(b);
  return x < y ? -1 : x > y ? 1 : 0;
};
