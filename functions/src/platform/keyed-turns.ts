/** The wait of a caller that did not get its turn in time. */
export class TurnTimeout extends Error {
  constructor(readonly key: string) {
    super(`no turn for ${key} in time`);
    this.name = "TurnTimeout";
  }
}

/**
 * One at a time per key within this process (a Lambda instance, the local platform), later callers waiting in arrival
 * order (docs/adr/0067: parallel sends to one number take turns instead of colliding on the ticket's version). A caller
 * still waiting after `maxWaitMs` gets TurnTimeout and leaves the line (those behind it still wait for the ones before
 * it). Across processes nothing is held: the writes' own conditions and retries keep them correct.
 */
export const createKeyedTurns = (opts: { maxWaitMs: number }) => {
  const tails = new Map<string, Promise<void>>();
  return {
    async run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const before = tails.get(key);
      let done!: () => void;
      const mine = new Promise<void>((r) => (done = r));
      const tail = before ? before.then(() => mine) : mine;
      tails.set(key, tail);
      let timer: NodeJS.Timeout | undefined;
      try {
        if (before) {
          const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), opts.maxWaitMs)));
          if ((await Promise.race([before.then(() => "turn" as const), late])) === "late") throw new TurnTimeout(key);
        }
        return await work();
      } finally {
        clearTimeout(timer);
        done();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
    /** keys with a line (tests) */
    get size() {
      return tails.size;
    },
  };
};
export type KeyedTurns = ReturnType<typeof createKeyedTurns>;
