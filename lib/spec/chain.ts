/**
 * Chain ids, block numbers and addresses with their exact ranges (docs/service.md "Domain rules"). Values above
 * 2^53 are bigints or decimal strings here, never JS numbers, so nothing rounds on the way to the chain.
 */

/**
 * Largest chain id: EIP-2294's bound, floor(2^64-1 / 2) - 36, the largest for which EIP-155 signatures
 * (`v = chainId * 2 + 36`) still fit 64 bits.
 */
export const MAX_CHAIN_ID = 9_223_372_036_854_775_771n;

/** A chain id as a decimal string: no sign, no leading zero, at most 19 digits (the range is checked apart). */
export const CHAIN_ID_PATTERN = "^[1-9][0-9]{0,18}$";
const CHAIN_ID = new RegExp(CHAIN_ID_PATTERN);

/** Largest block number a chain can be forked at: 2^64-1 (block numbers are 64-bit in every client). */
export const MAX_BLOCK_NUMBER = (1n << 64n) - 1n;

/** A block number as the API takes it: hex, up to 16 significant digits (leading zeros allowed). */
export const BLOCK_NUMBER_PATTERN = "^0x0*[0-9a-fA-F]{1,16}$";
const BLOCK_NUMBER = new RegExp(BLOCK_NUMBER_PATTERN);

/** An account address: `0x` and 40 hex digits, any case. */
export const ADDRESS_PATTERN = "^0x[0-9a-fA-F]{40}$";
const ADDRESS = new RegExp(ADDRESS_PATTERN);

/**
 * Reads a chain id: a decimal string, a bigint, or a JS number that is a safe integer.
 * @returns the exact chain id, or an error message naming the accepted range
 * @example
 * parseChainId("9007199254740993") // { chainId: 9007199254740993n }
 */
export function parseChainId(value: unknown): { chainId: bigint } | { error: string } {
  let chainId: bigint | undefined;
  if (typeof value === "string" && CHAIN_ID.test(value)) chainId = BigInt(value);
  else if (typeof value === "bigint") chainId = value;
  else if (typeof value === "number" && Number.isSafeInteger(value)) chainId = BigInt(value);
  const shown = typeof value === "bigint" ? `${value}` : JSON.stringify(value);
  if (chainId === undefined) {
    const hint = typeof value === "number" && Number.isInteger(value) ? " (above 2^53: write it as a string)" : "";
    return { error: `${shown} is not a chain id${hint}: use a positive integer from 1 to ${MAX_CHAIN_ID}, e.g. "1"` };
  }
  if (chainId < 1n || chainId > MAX_CHAIN_ID) return { error: `${shown} is not a chain id: use a positive integer from 1 to ${MAX_CHAIN_ID} (EIP-2294)` };
  return { chainId };
}

/** Whether `value` is a chain id (see {@link parseChainId}). */
export function isChainId(value: unknown): boolean {
  return "chainId" in parseChainId(value);
}

/**
 * Reads a block number: hex (`0x12a05f2`), or a JS number that is a safe non-negative integer.
 * @returns the block number, or an error message
 * @example
 * parseBlockNumber("0xfffffffffffffffff") // { error: "... above 2^64-1 ..." }
 */
export function parseBlockNumber(value: unknown): { blockNumber: bigint } | { error: string } {
  const shown = JSON.stringify(value);
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value >= 0 ? { blockNumber: BigInt(value) } : { error: `${shown} is not a block number: use hex such as "0x12a05f2" or a non-negative integer` };
  }
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]+$/.test(value) || value.length > 66) {
    return { error: `${shown} is not a block number: use hex such as "0x12a05f2"` };
  }
  const blockNumber = BigInt(value);
  if (blockNumber > MAX_BLOCK_NUMBER || !BLOCK_NUMBER.test(value)) return { error: `${shown} is above 2^64-1, the largest block number` };
  return { blockNumber };
}

/** Whether `value` is an address (`0x` and 40 hex digits). */
export function isAddress(value: unknown): value is string {
  return typeof value === "string" && ADDRESS.test(value);
}
