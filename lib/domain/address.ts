/**
 * EIP-55 address checksums: the letter case of a mixed-case address encodes a hash of the address, so that a
 * mistyped digit is caught before funds go to the wrong account. An all-lowercase or all-uppercase address carries
 * no checksum and is accepted as it is (EIP-55); a mixed-case one must match. One rule for the service, the
 * provider and the constructs; TypeBox-free, with its own Keccak-256 (lib/domain/keccak.ts).
 */
import { isAddress } from "./chain";
import { keccak256 } from "./keccak";

/**
 * The EIP-55 spelling of an address (`0x` and 40 hex digits, any case).
 * @throws RangeError when `address` is not an address
 * @example
 * checksumAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed") // "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
 */
export function checksumAddress(address: string): string {
  if (!isAddress(address)) throw new RangeError(`${JSON.stringify(address)} is not an address: use 0x followed by 40 hex digits`);
  const digits = address.slice(2).toLowerCase();
  const hash = keccak256(new TextEncoder().encode(digits));
  let spelled = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    spelled += nibble >= 8 ? digits[i]!.toUpperCase() : digits[i]!;
  }
  return spelled;
}

/**
 * Whether `address` is an address whose letter case is valid: all lowercase, all uppercase, or mixed case
 * matching its EIP-55 checksum.
 */
export function isValidChecksumAddress(address: unknown): address is string {
  if (!isAddress(address)) return false;
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return checksumAddress(address) === `0x${digits}`;
}

/**
 * What is wrong with an address, in words, or undefined when it is valid (shape and, in mixed case, checksum).
 * The message does not offer the "right" spelling: for a mistyped digit, that spelling is of the wrong account.
 * @example
 * addressProblem("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD") // "... does not match its EIP-55 checksum ..."
 */
export function addressProblem(address: unknown): string | undefined {
  if (!isAddress(address)) return `${JSON.stringify(address)} is not an address: use 0x followed by 40 hex digits`;
  if (isValidChecksumAddress(address)) return undefined;
  return `${address} does not match its EIP-55 checksum (the case of its letters): a character may be mistyped. Copy the address again, or write it in lowercase to skip the check`;
}
