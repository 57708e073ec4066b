/** Figures the benchmarks share. */

/**
 * The median of a list of figures (of an even count, the mean of the two middle ones).
 *
 * @example
 * median([3, 1, 2]) // 2
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
