/**
 * The p-th percentile of `values` by the nearest-rank method: the smallest value with at least p% of the values at
 * or below it (rank ⌈p/100 × n⌉). So p99 of 100 values is the 99th smallest, not the largest, and p100 is the maximum.
 * Rounded to `decimals` places; null when there is no value.
 */
export const percentile = (values: readonly number[], p: number, decimals = 1): number | null => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  const scale = 10 ** decimals;
  return Math.round(sorted[rank - 1]! * scale) / scale;
};
