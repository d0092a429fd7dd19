/**
 * What may go into a log line (functions and session host, both through Powertools Logger): values under
 * secret-looking keys are replaced at any depth, errors become their name, message and stack head, binary its
 * length. Correlation fields are the ones every line of a request, a ticket or a connection should carry.
 */
export const SECRET_KEYS = /pass(word|phrase)?|token|secret|authorization|cookie|api[-_]?key|signature|credential|private[-_]?key/i;
export const REDACTED = "[redacted]";

export const CORRELATION_KEYS = ["requestId", "companyId", "ticketId", "connectionId"] as const;
export type CorrelationKey = (typeof CORRELATION_KEYS)[number];
export type Correlation = Partial<Record<CorrelationKey, string | number | undefined | null>>;

/** The correlation fields that are known (undefined/null/empty dropped), as strings. */
export const correlationFields = (known: Correlation): Record<string, string> =>
  Object.fromEntries(
    CORRELATION_KEYS.flatMap((k) => {
      const v = known[k];
      return v === undefined || v === null || v === "" ? [] : [[k, String(v)]];
    }),
  );

const MAX_DEPTH = 5;

/** A copy safe to log: secrets redacted by key at every depth, errors and buffers made plain. */
export const redactValue = (value: unknown, depth = 0): unknown => {
  if (value instanceof Error) return { name: value.name, message: value.message, ...(value.stack ? { stack: value.stack.split("\n").slice(0, 6).join("\n") } : {}) };
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (typeof value === "bigint") return value.toString();
  if (!value || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[depth]";
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value instanceof Date) return value.toISOString();
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEYS.test(k) ? REDACTED : redactValue(v, depth + 1)]));
};

export const redactFields = (fields: Record<string, unknown> = {}): Record<string, unknown> => redactValue(fields) as Record<string, unknown>;
