/**
 * viem's functions (./viem.ts), loaded on first use. The provider's build makes `./viem` a bundle of its own
 * (`lazyImports` in scripts/build/70-provider.mjs), so that the processes of a plan without contracts, nearly all
 * of them, never read, compile or run viem, abitype and @noble/hashes (46 KB of the 220 KB the provider loads).
 * @example
 * const hash = viem().keccak256(bytecode);
 */
export function viem(): typeof import("./viem") {
  return require("./viem") as typeof import("./viem");
}
