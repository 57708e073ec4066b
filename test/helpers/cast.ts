/**
 * Foundry's `cast`, run as a user would against a service's RPC URLs. The binary of the platform package is run
 * directly: the `@foundry-rs/cast` wrapper script exits 0 whatever cast returns, so a failure would pass unseen.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

/** The cast executable of this platform's `@foundry-rs/cast-<platform>-<arch>` package. */
export const CAST = join(
  require.resolve(`@foundry-rs/cast-${process.platform}-${process.arch === "x64" ? "amd64" : process.arch}/package.json`),
  "..",
  "bin",
  "cast",
);

/**
 * Runs cast with `args`, killed after `timeoutMs`; resolves to its trimmed stdout, rejects when it exits non-zero.
 *
 * @example
 * await runCast(["chain-id", "--rpc-url", url], 60_000) // "1"
 */
export async function runCast(args: readonly string[], timeoutMs: number): Promise<string> {
  return (await promisify(execFile)(CAST, args, { timeout: timeoutMs })).stdout.trim();
}
