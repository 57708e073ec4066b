/** Units accepted by `parseDuration`, in milliseconds. */
const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * Parses a duration such as `90s`, `30m`, `2h`, `1d` or `1h30m` into milliseconds.
 * @throws Error naming the accepted forms when `text` is not one of them
 * @example
 * parseDuration("2h") // 7_200_000
 */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (!/^(\d+[smhdw])+$/.test(trimmed)) {
    throw new Error(`"${text}" is not a duration: write a number and a unit (s, m, h, d, w), e.g. 90s, 30m, 2h, 1d or 1h30m`);
  }
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)([smhdw])/g)) total += Number(amount) * UNIT_MS[unit];
  if (total === 0) throw new Error(`"${text}" is zero: give a duration longer than zero`);
  return total;
}

/**
 * Writes a duration as {@link parseDuration} reads it, largest units first: `1h30m`, `2h`, `1s`, `90s` -> `1m30s`
 * (whole seconds; under one second, `0s`). For messages that echo a `--older-than`.
 * @example
 * durationText(5_400_000) // "1h30m"
 */
export function durationText(ms: number): string {
  let rest = Math.floor(ms / 1_000) * 1_000;
  let text = "";
  for (const unit of ["w", "d", "h", "m", "s"]) {
    const count = Math.floor(rest / UNIT_MS[unit]);
    if (count > 0) text += `${count}${unit}`;
    rest -= count * UNIT_MS[unit];
  }
  return text || "0s";
}

/**
 * Formats milliseconds for people: `850 ms`, `4.2 s`, `3 min 5 s`.
 * @example
 * formatDuration(4_200) // "4.2 s"
 */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1_000)} s`;
}
