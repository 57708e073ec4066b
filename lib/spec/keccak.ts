/**
 * Keccak-256 (the original Keccak padding, as Ethereum uses it; not NIST SHA3-256), in plain TypeScript on 32-bit
 * halves of the 64-bit lanes. Here so that the address checksum (./address.ts) needs no hashing library: the
 * provider's main bundle must stay small (docs/performance.md), and viem with @noble/hashes is loaded only by the
 * resources that talk to contracts.
 */

// Round constants of Keccak-f[1600], as [high, low] 32-bit halves.
const ROUND_CONSTANTS: readonly number[] = [
  0x00000000, 0x00000001, 0x00000000, 0x00008082, 0x80000000, 0x0000808a, 0x80000000, 0x80008000, 0x00000000, 0x0000808b,
  0x00000000, 0x80000001, 0x80000000, 0x80008081, 0x80000000, 0x00008009, 0x00000000, 0x0000008a, 0x00000000, 0x00000088,
  0x00000000, 0x80008009, 0x00000000, 0x8000000a, 0x00000000, 0x8000808b, 0x80000000, 0x0000008b, 0x80000000, 0x00008089,
  0x80000000, 0x00008003, 0x80000000, 0x00008002, 0x80000000, 0x00000080, 0x00000000, 0x0000800a, 0x80000000, 0x8000000a,
  0x80000000, 0x80008081, 0x80000000, 0x00008080, 0x00000000, 0x80000001, 0x80000000, 0x80008008,
];
// Rotation offsets (rho) and the lane each one moves to (pi), in the order of the usual in-place loop.
const ROTATIONS = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44];
const PI_LANES = [10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1];
const RATE_BYTES = 136; // 1088 bits: Keccak-256's rate

/** The permutation over 25 lanes, each as [high, low] at (2i, 2i+1) of `s`. */
function keccakF(s: Uint32Array): void {
  const c = new Uint32Array(10);
  for (let round = 0; round < 24; round++) {
    // theta
    for (let x = 0; x < 5; x++) {
      c[2 * x] = s[2 * x]! ^ s[2 * x + 10]! ^ s[2 * x + 20]! ^ s[2 * x + 30]! ^ s[2 * x + 40]!;
      c[2 * x + 1] = s[2 * x + 1]! ^ s[2 * x + 11]! ^ s[2 * x + 21]! ^ s[2 * x + 31]! ^ s[2 * x + 41]!;
    }
    for (let x = 0; x < 5; x++) {
      const nh = c[((x + 1) % 5) * 2]!;
      const nl = c[((x + 1) % 5) * 2 + 1]!;
      const dh = c[((x + 4) % 5) * 2]! ^ ((nh << 1) | (nl >>> 31));
      const dl = c[((x + 4) % 5) * 2 + 1]! ^ ((nl << 1) | (nh >>> 31));
      for (let y = 0; y < 25; y += 5) {
        s[2 * (x + y)] ^= dh;
        s[2 * (x + y) + 1] ^= dl;
      }
    }
    // rho and pi
    let h = s[2]!;
    let l = s[3]!;
    for (let i = 0; i < 24; i++) {
      const lane = PI_LANES[i]!;
      const th = s[2 * lane]!;
      const tl = s[2 * lane + 1]!;
      const r = ROTATIONS[i]!;
      if (r === 32) {
        s[2 * lane] = l;
        s[2 * lane + 1] = h;
      } else if (r < 32) {
        s[2 * lane] = (h << r) | (l >>> (32 - r));
        s[2 * lane + 1] = (l << r) | (h >>> (32 - r));
      } else {
        s[2 * lane] = (l << (r - 32)) | (h >>> (64 - r));
        s[2 * lane + 1] = (h << (r - 32)) | (l >>> (64 - r));
      }
      h = th;
      l = tl;
    }
    // chi
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        c[2 * x] = s[2 * (y + x)]!;
        c[2 * x + 1] = s[2 * (y + x) + 1]!;
      }
      for (let x = 0; x < 5; x++) {
        s[2 * (y + x)] ^= ~c[((x + 1) % 5) * 2]! & c[((x + 2) % 5) * 2]!;
        s[2 * (y + x) + 1] ^= ~c[((x + 1) % 5) * 2 + 1]! & c[((x + 2) % 5) * 2 + 1]!;
      }
    }
    // iota
    s[0] ^= ROUND_CONSTANTS[2 * round]!;
    s[1] ^= ROUND_CONSTANTS[2 * round + 1]!;
  }
}

/**
 * The Keccak-256 digest of `data` (32 bytes).
 * @example
 * Buffer.from(keccak256(new TextEncoder().encode(""))).toString("hex") // "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
 */
export function keccak256(data: Uint8Array): Uint8Array {
  const state = new Uint32Array(50);
  const padded = new Uint8Array((Math.floor(data.length / RATE_BYTES) + 1) * RATE_BYTES);
  padded.set(data);
  padded[data.length]! ^= 0x01;
  padded[padded.length - 1]! ^= 0x80;
  for (let offset = 0; offset < padded.length; offset += RATE_BYTES) {
    // Lanes are little-endian 64-bit words: bytes 0-3 are the low half, 4-7 the high half.
    for (let lane = 0; lane < RATE_BYTES / 8; lane++) {
      const at = offset + lane * 8;
      state[2 * lane + 1] ^= padded[at]! | (padded[at + 1]! << 8) | (padded[at + 2]! << 16) | (padded[at + 3]! << 24);
      state[2 * lane] ^= padded[at + 4]! | (padded[at + 5]! << 8) | (padded[at + 6]! << 16) | (padded[at + 7]! << 24);
    }
    keccakF(state);
  }
  const digest = new Uint8Array(32);
  for (let lane = 0; lane < 4; lane++) {
    for (let b = 0; b < 4; b++) {
      digest[lane * 8 + b] = (state[2 * lane + 1]! >>> (8 * b)) & 0xff;
      digest[lane * 8 + 4 + b] = (state[2 * lane]! >>> (8 * b)) & 0xff;
    }
  }
  return digest;
}
