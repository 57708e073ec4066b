/**
 * Keccak-256, the hash of Ethereum (the original Keccak padding, not SHA3-256's): here only for EIP-55 address
 * checksums (lib/domain/address.ts). A small pure implementation, so that the Terraform provider's eager bundle checks
 * checksums without loading viem or @noble/hashes (docs/performance.md). Each 64-bit lane is two 32-bit halves.
 */

/** The 24 round constants of Keccak-f[1600], as [low, high] 32-bit halves. */
const ROUND_CONSTANTS: readonly (readonly [number, number])[] = [
  "0000000000000001",
  "0000000000008082",
  "800000000000808a",
  "8000000080008000",
  "000000000000808b",
  "0000000080000001",
  "8000000080008081",
  "8000000000008009",
  "000000000000008a",
  "0000000000000088",
  "0000000080008009",
  "000000008000000a",
  "000000008000808b",
  "800000000000008b",
  "8000000000008089",
  "8000000000008003",
  "8000000000008002",
  "8000000000000080",
  "000000000000800a",
  "800000008000000a",
  "8000000080008081",
  "8000000000008080",
  "0000000080000001",
  "8000000080008008",
].map((hex) => [parseInt(hex.slice(8), 16) >>> 0, parseInt(hex.slice(0, 8), 16) >>> 0] as const);

/** Rotation of each lane in the rho step, in the order the pi step visits the lanes. */
const ROTATIONS = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44];
/** The lane the pi step moves to next. */
const PI_LANES = [10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1];

/** Bytes absorbed per permutation by Keccak-256 (1600 bits minus twice the 256-bit output). */
const RATE = 136;

/** Rotates the lane [lo, hi] left by n (1 to 63) bits. */
function rotl(lo: number, hi: number, n: number): [number, number] {
  if (n === 32) return [hi, lo];
  if (n > 32) [lo, hi, n] = [hi, lo, n - 32];
  return [((lo << n) | (hi >>> (32 - n))) >>> 0, ((hi << n) | (lo >>> (32 - n))) >>> 0];
}

/** Keccak-f[1600] on 25 lanes held as 50 halves (lane k: low half at 2k, high half at 2k+1). */
function permute(state: Uint32Array): void {
  const c = new Uint32Array(10);
  for (const [rcLo, rcHi] of ROUND_CONSTANTS) {
    // theta
    for (let x = 0; x < 5; x++) {
      c[2 * x] = state[2 * x]! ^ state[2 * x + 10]! ^ state[2 * x + 20]! ^ state[2 * x + 30]! ^ state[2 * x + 40]!;
      c[2 * x + 1] = state[2 * x + 1]! ^ state[2 * x + 11]! ^ state[2 * x + 21]! ^ state[2 * x + 31]! ^ state[2 * x + 41]!;
    }
    for (let x = 0; x < 5; x++) {
      const next = (x + 1) % 5;
      const [rLo, rHi] = rotl(c[2 * next]!, c[2 * next + 1]!, 1);
      const dLo = c[2 * ((x + 4) % 5)]! ^ rLo;
      const dHi = c[2 * ((x + 4) % 5) + 1]! ^ rHi;
      for (let y = 0; y < 25; y += 5) {
        state[2 * (y + x)] ^= dLo;
        state[2 * (y + x) + 1] ^= dHi;
      }
    }
    // rho and pi
    let lo = state[2]!;
    let hi = state[3]!;
    for (let i = 0; i < 24; i++) {
      const lane = PI_LANES[i]!;
      const keptLo = state[2 * lane]!;
      const keptHi = state[2 * lane + 1]!;
      [state[2 * lane], state[2 * lane + 1]] = rotl(lo, hi, ROTATIONS[i]!);
      lo = keptLo;
      hi = keptHi;
    }
    // chi
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 10; x++) c[x] = state[2 * y + x]!;
      for (let x = 0; x < 5; x++) {
        const a = 2 * ((x + 1) % 5);
        const b = 2 * ((x + 2) % 5);
        state[2 * (y + x)] ^= ~c[a]! & c[b]!;
        state[2 * (y + x) + 1] ^= ~c[a + 1]! & c[b + 1]!;
      }
    }
    // iota
    state[0] ^= rcLo;
    state[1] ^= rcHi;
  }
}

/**
 * The Keccak-256 digest of `data`.
 * @example
 * keccak256(new Uint8Array()) // c5d24601...5d85a470 (32 bytes)
 */
export function keccak256(data: Uint8Array): Uint8Array {
  const state = new Uint32Array(50);
  const padded = new Uint8Array(Math.floor(data.length / RATE + 1) * RATE);
  padded.set(data);
  padded[data.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;
  for (let offset = 0; offset < padded.length; offset += RATE) {
    for (let i = 0; i < RATE; i += 4) {
      state[i >> 2] ^=
        (padded[offset + i]! | (padded[offset + i + 1]! << 8) | (padded[offset + i + 2]! << 16) | (padded[offset + i + 3]! << 24)) >>> 0;
    }
    permute(state);
  }
  const digest = new Uint8Array(32);
  for (let i = 0; i < 32; i++) digest[i] = (state[i >> 2]! >>> (8 * (i & 3))) & 0xff;
  return digest;
}
