import { DEFAULT_THROUGHPUT_PER_SECOND, PAIR_RATE_MS } from "@atende/shared/domain/cloud-api/cloud-api-connection";

/**
 * Pacing of Cloud API sends. Two gates, each answering how long a send must wait (0: go now) and reserving its slot:
 * - throughput: at most `perSecond` messages per business phone number per second (Meta: 80 by default);
 * - pair rate: campaign messages to the same person one every 6 s (Meta's error 131056 otherwise).
 * The in-memory gates pace one process; the DynamoDB gates (features/channels/cloud-api) pace every Lambda together.
 */
export type SendGates = {
  /** ms to wait before sending on this phone number at `perSecond` */
  throughput(phoneNumberId: string, perSecond: number, now: number): Promise<number>;
  /** ms to wait before the next campaign message to this recipient */
  pair(phoneNumberId: string, recipient: string, now: number): Promise<number>;
};

/** Spaces sends evenly: slot n of a key starts `interval` after slot n-1 (a burst is smoothed, never refused). */
export const createMemoryGates = (opts: { pairIntervalMs?: number } = {}): SendGates => {
  const next = new Map<string, number>();
  const reserve = (key: string, interval: number, now: number) => {
    const slot = Math.max(now, next.get(key) ?? 0);
    next.set(key, slot + interval);
    if (next.size > 10_000) for (const [k, v] of next) if (v < now) next.delete(k);
    return slot - now;
  };
  return {
    throughput: async (phone, perSecond, now) => reserve(`t:${phone}`, 1000 / Math.max(1, perSecond || DEFAULT_THROUGHPUT_PER_SECOND), now),
    pair: async (phone, recipient, now) => reserve(`p:${phone}:${recipient}`, opts.pairIntervalMs ?? PAIR_RATE_MS, now),
  };
};
