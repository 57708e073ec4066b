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

/**
 * A block number as chainform takes it: hex, up to 16 significant digits (leading zeros allowed), or decimal with
 * no sign and no leading zero, up to 20 digits (the range, up to 2^64-1, is checked apart). The spec's API speaks
 * hex (`0x12a05f2`); decimal (`19500000`) is how explorers, dashboards and HCL number variables write blocks, so
 * every part of chainform accepts both and sends hex ({@link blockNumberHex}).
 */
export const BLOCK_NUMBER_PATTERN = "^(0x0*[0-9a-fA-F]{1,16}|0|[1-9][0-9]{0,19})$";
const BLOCK_NUMBER = new RegExp(BLOCK_NUMBER_PATTERN);

/**
 * A block number as the service API takes it in requests: hex only, as the spec defines it (the hosted service
 * refuses decimal, and so does the local one). Everything in front of the API (provider, constructs, client, CLI)
 * takes {@link BLOCK_NUMBER_PATTERN} and sends {@link blockNumberHex}.
 */
export const HEX_BLOCK_NUMBER_PATTERN = "^0x0*[0-9a-fA-F]{1,16}$";

/** What {@link parseBlockNumber} accepts, in words (for messages). */
export const BLOCK_NUMBER_FORMATS = 'a block number in decimal ("19500000") or hex ("0x12a05f2"), at most 2^64-1';

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
  if (chainId < 1n || chainId > MAX_CHAIN_ID)
    return { error: `${shown} is not a chain id: use a positive integer from 1 to ${MAX_CHAIN_ID} (EIP-2294)` };
  return { chainId };
}

/** Whether `value` is a chain id (see {@link parseChainId}). */
export function isChainId(value: unknown): boolean {
  return "chainId" in parseChainId(value);
}

/**
 * Reads a block number: a decimal or hex string (see {@link BLOCK_NUMBER_PATTERN}), a bigint, or a JS number that
 * is a safe non-negative integer.
 * @returns the block number, or an error message
 * @example
 * parseBlockNumber("19500000")  // { blockNumber: 19500000n }
 * parseBlockNumber("0x12a05f2") // { blockNumber: 19500530n }
 * parseBlockNumber("0xfffffffffffffffff") // { error: "... above 2^64-1 ..." }
 */
export function parseBlockNumber(value: unknown): { blockNumber: bigint } | { error: string } {
  const shown = typeof value === "bigint" ? `${value}` : JSON.stringify(value);
  let blockNumber: bigint;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) return { error: `${shown} is not a block number: use ${BLOCK_NUMBER_FORMATS}` };
    blockNumber = BigInt(value);
  } else if (typeof value === "bigint") {
    blockNumber = value;
  } else if (typeof value === "string" && (/^0x[0-9a-fA-F]{1,64}$/.test(value) || /^(0|[1-9][0-9]{0,79})$/.test(value))) {
    blockNumber = BigInt(value);
    if (blockNumber <= MAX_BLOCK_NUMBER && !BLOCK_NUMBER.test(value))
      return { error: `${shown} is not a block number: use ${BLOCK_NUMBER_FORMATS}` };
  } else {
    return { error: `${shown} is not a block number: use ${BLOCK_NUMBER_FORMATS}` };
  }
  if (blockNumber < 0n || blockNumber > MAX_BLOCK_NUMBER) return { error: `${shown} is above 2^64-1, the largest block number` };
  return { blockNumber };
}

/**
 * A block number as the API sends it: canonical hex (lowercase, no leading zeros).
 * @throws RangeError when `value` is not a block number
 * @example
 * blockNumberHex("19500000") // "0x1298be0"
 */
export function blockNumberHex(value: unknown): string {
  const parsed = parseBlockNumber(value);
  if ("error" in parsed) throw new RangeError(parsed.error);
  return `0x${parsed.blockNumber.toString(16)}`;
}

/** Whether two block numbers, in any accepted spelling, are the same block (false when either does not parse). */
export function sameBlockNumber(a: unknown, b: unknown): boolean {
  const x = parseBlockNumber(a);
  const y = parseBlockNumber(b);
  return "blockNumber" in x && "blockNumber" in y && x.blockNumber === y.blockNumber;
}

/** Whether `value` is an address (`0x` and 40 hex digits). */
export function isAddress(value: unknown): value is string {
  return typeof value === "string" && ADDRESS.test(value);
}
