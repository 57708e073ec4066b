/**
 * Amounts of wei and hex quantities: the one grammar of balances that the service, the provider, the constructs
 * and the client share (docs/service.md "Domain rules"). All arithmetic is bigint: no amount is ever a float.
 *
 * A balance is written as hex wei (`0x56bc75e2d63100000`), decimal wei (`1000`) or a decimal amount with a unit
 * (`100ether`, `0.5 ether`, `5gwei`, `42wei`; `eth` is `ether`). The service's API itself takes only hex wei
 * (`accounts[].balance`, docs/api.md "Create an environment"); the other spellings are for people, and are turned into canonical hex before any request.
 */

/** 2^256-1, the largest EVM word: the bound of balances and token amounts. */
export const MAX_UINT256 = (1n << 256n) - 1n;
/** Largest balance in wei: a uint256. */
export const MAX_WEI = MAX_UINT256;

/**
 * An amount in a token's smallest unit (an ERC-20 balance): decimal or 0x hex, 0 to 2^256 - 1; null when it is
 * neither.
 *
 * @example
 * parseTokenAmount("1000000") // 1000000n
 * parseTokenAmount("1.5") // null
 */
export function parseTokenAmount(text: string): bigint | null {
  if (!/^(0|[1-9][0-9]{0,77})$/.test(text) && !/^0x[0-9a-fA-F]{1,64}$/.test(text)) return null;
  const n = BigInt(text);
  return n <= MAX_UINT256 ? n : null;
}

/** Units a balance may carry, with their decimals. */
export const BALANCE_UNITS: Readonly<Record<string, number>> = { wei: 0, gwei: 9, ether: 18, eth: 18 };

/** Hex quantity as the API takes it: `0x` and 1 to 64 hex digits (any case, leading zeros allowed). */
export const HEX_QUANTITY_PATTERN = "^0x[0-9a-fA-F]{1,64}$";
const HEX_QUANTITY = new RegExp(HEX_QUANTITY_PATTERN);

/** What {@link parseBalance} accepts, in words (for validator messages). */
export const BALANCE_FORMATS =
  'wei as hex ("0x56bc75e2d63100000") or decimal ("1000"), or an amount with a unit ("100ether", "0.5 ether", "5gwei")';

/**
 * Reads a balance written in any of the accepted forms.
 * @returns the amount in wei, or an error message saying what is wrong
 * @example
 * parseBalance("1.5ether") // { wei: 1500000000000000000n }
 * parseBalance("5gwei")    // { wei: 5000000000n }
 */
export function parseBalance(text: string): { wei: bigint } | { error: string } {
  if (typeof text !== "string") return { error: `${JSON.stringify(text)} is not a balance` };
  const trimmed = text.trim();
  let wei: bigint;
  if (HEX_QUANTITY.test(trimmed)) wei = BigInt(trimmed);
  else if (/^\d{1,80}$/.test(trimmed)) wei = BigInt(trimmed);
  else {
    const match = /^(\d{1,80})(?:\.(\d{1,18}))?\s?([a-zA-Z]+)$/.exec(trimmed);
    const unit = match ? BALANCE_UNITS[match[3]!.toLowerCase()] : undefined;
    if (!match || unit === undefined) return { error: `${JSON.stringify(text)} is not a balance` };
    const [, whole, fraction = ""] = match;
    const scaled = parseUnits(`${whole}${fraction ? `.${fraction}` : ""}`, unit);
    if ("error" in scaled) return { error: `${JSON.stringify(text)} is more precise than 1 wei` };
    wei = scaled.value;
  }
  if (wei > MAX_WEI) return { error: `${JSON.stringify(text)} is more than 2^256-1 wei` };
  return { wei };
}

/**
 * A balance as the service takes it: canonical hex wei (lowercase, no leading zeros).
 * @throws RangeError when `text` is not a balance
 * @example
 * normalizeBalance("100ether") // "0x56bc75e2d63100000"
 */
export function normalizeBalance(text: string): string {
  const parsed = parseBalance(text);
  if ("error" in parsed) throw new RangeError(`${parsed.error}: use ${BALANCE_FORMATS}`);
  return `0x${parsed.wei.toString(16)}`;
}

/** Whether `text` is a hex quantity the API accepts (`0x` and 1 to 64 hex digits). */
export function isHexQuantity(text: unknown): boolean {
  return typeof text === "string" && HEX_QUANTITY.test(text);
}

/**
 * Canonical hex of a hex quantity: lowercase, no leading zeros (`0x00A` → `0xa`, `0x000` → `0x0`).
 * @example
 * canonicalHex("0x00FF") // "0xff"
 */
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

/** Whether two hex quantities (block numbers) are the same number (false when either is not hex). */
export function sameQuantity(a: string, b: string): boolean {
  return /^0x[0-9a-fA-F]+$/.test(a) && /^0x[0-9a-fA-F]+$/.test(b) && canonicalHex(a) === canonicalHex(b);
}

/** Most decimals {@link parseUnits} and {@link formatUnits} take: 10^77 is the largest power of ten below 2^256. */
export const MAX_UNIT_DECIMALS = 77;

/**
 * A decimal amount in a unit of `decimals` decimals, as the integer count of its smallest unit (ether has 18, USDC
 * 6): exact at any size, rejecting what is more precise than one smallest unit.
 * @returns the integer, or an error message saying what is wrong
 * @example
 * parseUnits("1.5", 6)  // { value: 1500000n }
 * parseUnits("1.5", 18) // { value: 1500000000000000000n }
 */
export function parseUnits(text: string, decimals: number): { value: bigint } | { error: string } {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_UNIT_DECIMALS) {
    return { error: `${decimals} is not a number of decimals: use a whole number from 0 to ${MAX_UNIT_DECIMALS}` };
  }
  const match = /^(\d{1,80})(?:\.(\d{1,80}))?$/.exec(typeof text === "string" ? text.trim() : "");
  if (!match) return { error: `${JSON.stringify(text)} is not a decimal amount: use digits with an optional fraction, e.g. "1.5"` };
  const [, whole, fraction = ""] = match;
  if (fraction.replace(/0+$/, "").length > decimals) {
    return { error: `${JSON.stringify(text)} has more than ${decimals} decimals (it is more precise than one smallest unit)` };
  }
  return { value: BigInt(whole! + fraction.padEnd(decimals, "0").slice(0, decimals)) };
}

/**
 * An integer count of smallest units as a decimal amount with `decimals` decimals, without trailing zeros: the
 * inverse of {@link parseUnits}.
 * @example
 * formatUnits(1500000000000000000n, 18) // "1.5"
 */
export function formatUnits(value: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_UNIT_DECIMALS) {
    throw new RangeError(`${decimals} is not a number of decimals: use a whole number from 0 to ${MAX_UNIT_DECIMALS}`);
  }
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}
