const KEY_FIELDS = new Set(["pk", "sk", "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk", "gsi3pk", "gsi3sk", "ttl", "entity"]);

/** Drops the table's key attributes from an item; mappers build on this. */
export const stripKeys = <T extends Record<string, unknown>>(item: T): Omit<T, "pk" | "sk"> =>
  Object.fromEntries(Object.entries(item).filter(([k]) => !KEY_FIELDS.has(k))) as Omit<T, "pk" | "sk">;
