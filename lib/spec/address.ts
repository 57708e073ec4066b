/**
 * EIP-55 mixed-case address checksums: the one implementation that the provider's functions and validators, the
 * constructs and the CLI share. An address in one letter case (all lower or all upper) carries no checksum and is
 * valid as it is; a mixed-case one must match its checksum, which catches a mistyped digit.
 */
import { isAddress } from "./chain";
import { keccak256 } from "./keccak";

/**
 * The EIP-55 checksummed spelling of an address (`0x` and 40 hex digits, any case).
 * @throws RangeError when `address` is not an address
 * @example
 * toChecksumAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed") // "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
 */
export function toChecksumAddress(address: string): string {
  if (!isAddress(address)) throw new RangeError(`${JSON.stringify(address)} is not an address: use 0x followed by 40 hex digits`);
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256(new TextEncoder().encode(lower));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    // Letter i is upper case when the i-th nibble of the hash of the lower-case hex is 8 or more.
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i];
  }
  return out;
}

/**
 * What is wrong with an address's checksum, or undefined when there is nothing wrong: an address in one letter
 * case has no checksum to check; a mixed-case one must be exactly its EIP-55 spelling.
 * @example
 * addressChecksumProblem("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD") // "... fails its EIP-55 checksum ..."
 */
export function addressChecksumProblem(address: string): string | undefined {
  if (!isAddress(address)) return `${JSON.stringify(address)} is not an address: use 0x followed by 40 hex digits`;
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return undefined;
  const expected = toChecksumAddress(address);
  return address === expected
    ? undefined
    : `${JSON.stringify(address)} fails its EIP-55 checksum (a mistyped digit or letter case?): the checksummed spelling of these digits is ${expected}`;
}
