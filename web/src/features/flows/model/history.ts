/**
 * Undo/redo for the flow editor (ADR 0086): the whole document is immutable and each change pushes the previous one
 * on `past`. Changes that come in a burst (typing in one inspector field, the positions while a node is dragged) share
 * a `key`: a change with the same key as the last one, within `coalesceMs`, replaces the present instead of pushing,
 * so one undo takes back the whole burst.
 */
export type History<T> = { past: T[]; present: T; future: T[]; lastKey: string | null; lastAt: number };

export const HISTORY_LIMIT = 100;
export const COALESCE_MS = 1000;

export const createHistory = <T>(present: T): History<T> => ({ past: [], present, future: [], lastKey: null, lastAt: 0 });

export type HistoryAction<T> =
  | { type: "set"; next: T; key?: string; at?: number }
  /** replace the present without an undo step (e.g. a save's answer, live drag frames) */
  | { type: "replace"; next: T }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "reset"; present: T };

export function historyReducer<T>(h: History<T>, action: HistoryAction<T>): History<T> {
  switch (action.type) {
    case "set": {
      if (action.next === h.present) return h;
      const at = action.at ?? Date.now();
      if (action.key && action.key === h.lastKey && at - h.lastAt <= COALESCE_MS) return { ...h, present: action.next, future: [], lastAt: at };
      const past = [...h.past, h.present].slice(-HISTORY_LIMIT);
      return { past, present: action.next, future: [], lastKey: action.key ?? null, lastAt: at };
    }
    case "replace":
      return { ...h, present: action.next };
    case "undo": {
      if (!h.past.length) return h;
      const previous = h.past[h.past.length - 1]!;
      return { past: h.past.slice(0, -1), present: previous, future: [h.present, ...h.future], lastKey: null, lastAt: 0 };
    }
    case "redo": {
      if (!h.future.length) return h;
      const [next, ...future] = h.future;
      return { past: [...h.past, h.present], present: next!, future, lastKey: null, lastAt: 0 };
    }
    case "reset":
      return createHistory(action.present);
  }
}
