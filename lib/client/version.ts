import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The package version, read once from package.json (two levels up both from `lib/client` and from
 * `dist/client`), so the user agent and error messages always name the version that is installed.
 */
export const version: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { version?: string };
    return pkg.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
})();

/** The default `User-Agent` header: `chainform/<version>`. */
export const defaultUserAgent = `chainform/${version}`;
