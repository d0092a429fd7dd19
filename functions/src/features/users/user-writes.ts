/**
 * This process's writes of user items, by user (a generation number each): a reader that keeps user items for a
 * moment (the request authenticator's ≤ 1 s reuse, docs/adr/0040) drops what it read before a write made here,
 * so on one instance a logout, a new login, a changed queue or a deleted user takes effect at once; other
 * instances see it when their reuse ends (≤ 1 s). Bumped after the write has completed.
 */
const generations = new Map<string, number>();
const keyOf = (companyId: number, userId: number) => `${companyId}:${userId}`;

export const userWriteGeneration = (companyId: number, userId: number): number => generations.get(keyOf(companyId, userId)) ?? 0;

export const noteUserWrite = (companyId: number, userId: number): void => {
  const k = keyOf(companyId, userId);
  generations.set(k, (generations.get(k) ?? 0) + 1);
};
