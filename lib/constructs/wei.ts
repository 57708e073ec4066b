/**
 * Amounts of ether as the service wants them: wei, hex-encoded. All arithmetic is bigint, so `ether("0.1")` is
 * exactly 10^17 wei and never a float rounding of it. Balances written as text follow lib/domain's one grammar.
 */
import { MAX_WEI, parseBalance as parseDomainBalance } from "../domain/amounts";

/** Something that reads as a non-negative decimal amount: `100`, `"0.5"`, `10n`, `"1e-3"`. */
export type Amount = number | bigint | string;

const DECIMAL = /^(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** `amount` × 10^`decimals` as an exact bigint; throws when the amount has more precision than wei. */
function scale(fn: string, amount: Amount, decimals: number): bigint {
  if (typeof amount === "bigint") {
    if (amount < 0n) throw new RangeError(`${fn}(${amount}n): an amount must not be negative`);
    return amount * 10n ** BigInt(decimals);
  }
  if (typeof amount === "number" && !Number.isFinite(amount)) {
    throw new RangeError(`${fn}(${amount}): an amount must be a finite number`);
  }
  const text = String(amount).trim();
  if (text.startsWith("-")) throw new RangeError(`${fn}(${JSON.stringify(amount)}): an amount must not be negative`);
  const match = DECIMAL.exec(text);
  if (!match) {
    throw new RangeError(`${fn}(${JSON.stringify(amount)}): expected a decimal amount such as 100 or "0.5"`);
  }
  const [, whole, fraction = "", exponent = "0"] = match;
  const shift = decimals + Number(exponent) - fraction.length;
  const digits = BigInt(whole + fraction);
  if (shift >= 0) return digits * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  if (digits % divisor !== 0n) {
    throw new RangeError(`${fn}(${JSON.stringify(amount)}): more decimals than 1 wei can hold`);
  }
  return digits / divisor;
}

function toHex(fn: string, amount: Amount, value: bigint): string {
  if (value > MAX_WEI) throw new RangeError(`${fn}(${JSON.stringify(String(amount))}): more than 2^256-1 wei`);
  return `0x${value.toString(16)}`;
}

/**
 * An amount of ether as hex wei (1 ether = 10^18 wei).
 * @example
 * ether(100)   // "0x56bc75e2d63100000"
 * ether("0.5") // "0x6f05b59d3b20000"
 */
export function ether(amount: Amount): string {
  return toHex("ether", amount, scale("ether", amount, 18));
}

/**
 * An amount of gwei as hex wei (1 gwei = 10^9 wei).
 * @example
 * gwei(30) // "0x6fc23ac00"
 */
export function gwei(amount: Amount): string {
  return toHex("gwei", amount, scale("gwei", amount, 9));
}

/**
 * An amount of wei as hex.
 * @example
 * wei(1_000_000n) // "0xf4240"
 */
export function wei(amount: Amount): string {
  return toHex("wei", amount, scale("wei", amount, 0));
}

/**
 * Reads a balance the way the service, the provider and the constructs all accept it (lib/domain/amounts.ts): hex
 * wei (`0x...`), decimal wei (`"1000"`) or an amount with a unit (`"100ether"`, `"0.5 ether"`, `"5gwei"`).
 * @returns the wei as a bigint, or `undefined` when `balance` is none of these
 */
export function parseBalance(balance: string): bigint | undefined {
  const parsed = parseDomainBalance(balance);
  return "wei" in parsed ? parsed.wei : undefined;
}
