/**
 * Balances and quantities as the environment resource accepts them, and how they compare. The configuration keeps
 * the user's text (`"100ether"`); the service stores canonical hex wei (`0x56bc75e2d63100000`). Two texts are the
 * same balance when they normalize to the same hex, which is how the resource avoids a perpetual diff.
 */

const UNITS: Record<string, number> = { wei: 0, gwei: 9, ether: 18, eth: 18 };
const MAX_QUANTITY = (1n << 256n) - 1n;

/**
 * Reads a balance: hex wei (`0x56bc75e2d63100000`), decimal wei (`"1000000000000000000"`), or a decimal amount
 * with a unit suffix (`"100ether"`, `"0.5 ether"`, `"5gwei"`, `"42wei"`).
 * @returns the amount in wei, or an error message saying what is wrong
 * @example
 * parseBalance("1.5ether") // { wei: 1500000000000000000n }
 */
export function parseBalance(text: string): { wei: bigint } | { error: string } {
  const trimmed = text.trim();
  let wei: bigint;
  if (/^0x[0-9a-fA-F]{1,64}$/.test(trimmed)) wei = BigInt(trimmed);
  else if (/^\d+$/.test(trimmed)) wei = BigInt(trimmed);
  else {
    const match = /^(\d+)(?:\.(\d+))?\s*([a-zA-Z]+)$/.exec(trimmed);
    const unit = match ? UNITS[match[3]!.toLowerCase()] : undefined;
    if (!match || unit === undefined) {
      return { error: `${JSON.stringify(text)} is not a balance` };
    }
    const [, whole, fraction = ""] = match;
    if (fraction.length > unit) return { error: `${JSON.stringify(text)} is more precise than 1 wei` };
    wei = BigInt(whole! + fraction.padEnd(unit, "0"));
  }
  if (wei > MAX_QUANTITY) return { error: `${JSON.stringify(text)} is more than 2^256-1 wei` };
  return { wei };
}

/** What {@link parseBalance} accepts, in words (for validator messages). */
export const BALANCE_FORMATS = 'wei as hex ("0x56bc75e2d63100000") or decimal ("1000"), or an amount with a unit ("100ether", "0.5 ether", "5gwei")';

/**
 * A balance as the service wants it: canonical hex wei (lowercase, no leading zeros).
 * @example
 * normalizeBalance("100ether") // "0x56bc75e2d63100000"
 */
export function normalizeBalance(text: string): string {
  const parsed = parseBalance(text);
  if ("error" in parsed) throw new RangeError(parsed.error);
  return `0x${parsed.wei.toString(16)}`;
}

/** Canonical hex of a hex quantity (`0x00A` → `0xa`). */
export function canonicalHex(text: string): string {
  const digits = text.trim().slice(2).toLowerCase().replace(/^0+/, "");
  return `0x${digits === "" ? "0" : digits}`;
}

/** Whether two balance texts are the same amount (false when either does not parse). */
export function sameBalance(a: string, b: string): boolean {
  const x = parseBalance(a);
  const y = parseBalance(b);
  return "wei" in x && "wei" in y && x.wei === y.wei;
}

/** Whether two hex quantities (block numbers) are the same number. */
export function sameQuantity(a: string, b: string): boolean {
  return /^0x[0-9a-fA-F]+$/.test(a) && /^0x[0-9a-fA-F]+$/.test(b) && canonicalHex(a) === canonicalHex(b);
}
