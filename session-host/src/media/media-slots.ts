import { Semaphore } from "async-mutex";

/**
 * One semaphore per process on media transfers (downloads and their decryption into the media store, uploads
 * of outbound media): a burst of videos across many connections never holds more than `slots` transfers —
 * and their buffers — at once. The rest wait their turn.
 */
export const createMediaSlots = (slots: number) => {
  const sem = new Semaphore(slots);
  return {
    run: <T>(task: () => Promise<T>): Promise<T> => sem.runExclusive(task),
    /** transfers running now (tests, metrics) */
    busy: () => slots - Math.max(0, sem.getValue()),
  };
};
export type MediaSlots = ReturnType<typeof createMediaSlots>;

/** the process's slots (4 transfers at once unless a host is configured otherwise) */
let shared: MediaSlots | undefined;
export const mediaSlots = () => (shared ??= createMediaSlots(4));
export const configureMediaSlots = (slots: number) => {
  shared = createMediaSlots(slots);
};
