/**
 * Whether compiled runtime code reproduces deployed code, the way explorers decide it: the CBOR metadata at the
 * end (which hashes the source's comments and file names) is left out, and immutables (filled in by the
 * constructor) are compared as the zeros the compiler leaves in their place.
 */

/** Byte ranges of immutables in the compiled runtime code (solc `evm.deployedBytecode.immutableReferences`). */
export type ImmutableReferences = Record<string, readonly { readonly start: number; readonly length: number }[]>;

/** Whether `compiledHex` (no `0x` needed) and the `deployedHex` code match, metadata and immutables aside. */
export function sameRuntimeCode(compiledHex: string, deployedHex: string, immutables: ImmutableReferences = {}): boolean {
  const compiled = toBytes(compiledHex);
  const deployed = toBytes(deployedHex);
  if (compiled.length === 0 || compiled.length !== deployed.length) return false;
  for (const ranges of Object.values(immutables)) {
    for (const { start, length } of ranges) deployed.fill(0, start, start + length);
  }
  const compiledBody = withoutMetadata(compiled);
  const deployedBody = withoutMetadata(deployed);
  return compiledBody.length === deployedBody.length && Buffer.compare(compiledBody, deployedBody) === 0;
}

/** The code without its trailing CBOR metadata (length in the last two bytes), when it has one. */
export function withoutMetadata(code: Buffer): Buffer {
  if (code.length < 2) return code;
  const length = code.readUInt16BE(code.length - 2);
  const start = code.length - 2 - length;
  // A CBOR map header (0xa0..0xbf) must open the metadata; otherwise the code has none.
  if (length === 0 || start < 0 || (code[start] & 0xe0) !== 0xa0) return code;
  return code.subarray(0, start);
}

function toBytes(hex: string): Buffer {
  const digits = hex.startsWith("0x") ? hex.slice(2) : hex;
  return /^([0-9a-fA-F]{2})*$/.test(digits) ? Buffer.from(digits, "hex") : Buffer.alloc(0);
}
