/**
 * Where the anvil binary is (docs/installing.md "Where anvil comes from"). `@foundry-rs/anvil` ships it two ways: a
 * platform package among its optional dependencies (`@foundry-rs/anvil-linux-amd64`, ...), and, when optional
 * dependencies were left out (`npm install --omit=optional`), its postinstall script downloads the same binary into
 * the package itself. chainform looks in that order; `CHAINFORM_ANVIL` names a binary of the user's own and wins over
 * both, because someone who set it meant it. When none is there, one line says what to do instead of a require stack.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The platform packages of `@foundry-rs/anvil`, by `${process.platform}-${process.arch}`. */
const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
};

/** No anvil binary anywhere chainform looks; the message is the one line a user needs. */
export class AnvilNotFoundError extends Error {
  override readonly name = "AnvilNotFoundError";
}

/** Where {@link resolveAnvilPath} looks; every field defaults to this process's. */
export interface AnvilLookup {
  /** The environment (`CHAINFORM_ANVIL`). */
  readonly env?: NodeJS.ProcessEnv;
  /** The directory packages are resolved from, as `require` would from a file in it. */
  readonly from?: string;
  /** `${platform}-${arch}`, e.g. `linux-x64`. */
  readonly platform?: string;
}

/**
 * The path of the anvil binary: `$CHAINFORM_ANVIL` when set, else the platform package's, else the one
 * `@foundry-rs/anvil`'s postinstall downloaded into itself. Throws {@link AnvilNotFoundError} when none exists.
 *
 * @example
 * spawn(resolveAnvilPath(), ["--port", "0"]);
 */
export function resolveAnvilPath(lookup: AnvilLookup = {}): string {
  const env = lookup.env ?? process.env;
  if (env.CHAINFORM_ANVIL) return env.CHAINFORM_ANVIL;
  const platform = lookup.platform ?? `${process.platform}-${process.arch}`;
  const binary = platform.startsWith("win32") ? "anvil.exe" : "anvil";
  const require = createRequire(join(lookup.from ?? __dirname, "resolve-from.js"));
  const packageDir = (name: string): string | undefined => {
    try {
      return dirname(require.resolve(`${name}/package.json`));
    } catch {
      return undefined;
    }
  };
  const platformPackage = PLATFORM_PACKAGES[platform];
  const platformDir = platformPackage === undefined ? undefined : packageDir(platformPackage);
  const ownDir = packageDir("@foundry-rs/anvil");
  const candidates = [platformDir && join(platformDir, "bin", binary), ownDir && join(ownDir, binary)];
  const found = candidates.find((path): path is string => path !== undefined && existsSync(path));
  if (found) return found;
  throw new AnvilNotFoundError(
    `no anvil binary: ${platformPackage ?? `no @foundry-rs/anvil platform package for ${platform}`}` +
      `${platformPackage ? " is not installed" : ""} and @foundry-rs/anvil holds none of its own (its install script did not run). ` +
      "Run `npm install` without --omit=optional, or allow @foundry-rs/anvil's install script " +
      '(package.json "allowScripts": {"@foundry-rs/anvil": true}) and reinstall, ' +
      "or set CHAINFORM_ANVIL to an anvil binary (https://getfoundry.sh)",
  );
}
