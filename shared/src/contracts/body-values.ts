import * as z from "zod";

/**
 * One rule for the values a client of the spec sends in a request body (docs/adr/0011-accepting-spec-clients.md).
 * Be liberal in what is accepted as the spec's clients send it, and refuse what is really wrong:
 *
 * - a boolean is `true`/`false` or `1`/`0`, and in multipart or query text also `"true"`/`"false"`/`"1"`/`"0"`;
 * - an optional id is a positive integer (or its digits as text); `null`, `false`, `""`, `0` and `"0"` mean "none"
 *   (ids are positive, so 0 is never one) and become `null`; absent stays absent (an update keeps the value);
 * - an optional text accepts `null` as empty (`""`);
 * - a number may come as its digits in text (multipart and form fields); `""` or `null` in an optional number is
 *   "not given"; a required number that is empty, or text that is not a number, is refused;
 * - a list of ids may also come as a JSON-array string (`"[1,2]"`) or comma-separated text (multipart, query).
 *
 * Anything else keeps being refused with ERR_VALIDATION: `"abc"` for an id, `2` for a boolean, `-1` for an id.
 * The helpers are unions (not preprocessors) so a form typed from the same schema keeps its input types.
 */

/** The "none" values of an optional id. */
export const NONE_ID_VALUES = [null, false, "", 0, "0"] as const;

const DIGITS = /^\d{1,15}$/;
const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/** A boolean: true/false, 1/0, "true"/"false", "1"/"0". Anything else (2, "yes", null) is refused. */
export const flag = () => z.union([z.boolean(), z.literal([1, 0, "1", "0", "true", "false"]).transform((v) => v === 1 || v === "1" || v === "true")]);

/** A required id: a positive integer, or its digits as text. */
export const requiredId = (message?: string) => {
  const opts = message ? { error: message } : undefined;
  const id = z.number(opts).int(message).positive(message);
  return z.union([id, z.string(opts).regex(DIGITS, message).transform(Number).pipe(id)], opts);
};

/** An optional id: positive integer (or digits), `null` for none (null/false/""/0/"0"), absent stays undefined. */
export const optionalId = () => z.union([requiredId(), z.literal(NONE_ID_VALUES).transform(() => null)]).optional();

/** The "none" values of an optional value that is not an id (an object, a bounded number): null, false, "". */
export const NONE_VALUES = [null, false, ""] as const;

/** A value, or `null` for none (null/false/""): `orNone(num(z.number().int().min(1)))`, `orNone(templateSchema)`. */
export const orNone = <S extends z.ZodType>(schema: S) => z.union([schema, z.literal(NONE_VALUES).transform(() => null)]);

/** An optional text: `null` is empty. Pass the string schema (limits, trim) to keep its own messages. */
export const optionalText = <S extends z.ZodType<string, string>>(schema: S) => z.union([schema, z.null().transform(() => "")]);

/** A number that may come as text ("12", "0.5"); bounds and integer-ness are the caller's (`num(z.number().int())`). */
export const num = <S extends z.ZodType<number, number>>(schema: S) =>
  z.union([schema, z.string().regex(NUMERIC, "Invalid number").transform(Number).pipe(schema)]);

/**
 * An optional number that may come as text; `""` and `null` are "not given". The schema says what "not given" becomes:
 * `optionalNum(z.number().default(1))` or `optionalNum(z.number().optional())`.
 */
export const optionalNum = <T extends number | undefined>(schema: z.ZodType<T, number | undefined>) => {
  const target = schema as z.ZodType<T, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fed undefined or a number below
  return z.union([schema, z.literal(["", null]).transform(() => undefined).pipe(target), z.string().regex(NUMERIC, "Invalid number").transform(Number).pipe(target)]);
};

const listText = (raw: string): unknown => {
  const v = raw.trim();
  if (v === "") return [];
  if (!v.startsWith("[")) return v.split(",").map((x) => x.trim());
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return null;
  }
};

/** A list of ids: an array, a JSON-array string ("[1,2]") or comma-separated text ("1,2"); elements may be digits. */
export const idList = (max: number) => {
  const list = z.array(requiredId()).max(max);
  return z.union([list, z.string().max(20_000).transform(listText).pipe(list)]);
};
