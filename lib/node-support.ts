/**
 * The Node.js versions chainform supports, and the one line an unsupported one gets at start (bin/chainform and
 * the provider check it before loading anything else). package.json `engines` holds the same range, and a test
 * keeps them equal. The floor of each line is what the service's storage needs (lib/service/sqlite/index.ts):
 * 20.18.1 runs better-sqlite3 12, 22.13 is the first 22 with `node:sqlite` unflagged, 24 and 26 have it too.
 * CI runs everything on 20, 22, 24 and 26 (20 is past its end of life, and still the Node.js of the machines
 * chainform is built on); the odd and later majors have `node:sqlite` and are accepted, untested.
 */

/** The supported range, in `engines` syntax. */
export const SUPPORTED_NODE_RANGE = "^20.18.1 || ^22.13.0 || >=24.0.0";

/** The range in words, for messages and docs. */
export const SUPPORTED_NODE_WORDS = "Node.js 20 (20.18.1 or later), 22 (22.13 or later) or 24 and later";

/**
 * The one-line complaint about a Node.js version, or undefined when it is supported.
 *
 * @example
 * unsupportedNodeMessage("23.11.0"); // "chainform does not run on Node.js 23.11.0: use ..."
 */
export function unsupportedNodeMessage(version: string = process.versions.node): string | undefined {
  const [major, minor, patch] = version.split(".").map((part) => Number.parseInt(part, 10));
  const supported = (major === 20 && (minor > 18 || (minor === 18 && patch >= 1))) || (major === 22 && minor >= 13) || major >= 24;
  return supported ? undefined : `chainform does not run on Node.js ${version}: use ${SUPPORTED_NODE_WORDS}.`;
}

/** Prints the complaint and exits 1 when this Node.js (or `version`) is not supported. */
export function exitIfUnsupportedNode(version: string = process.versions.node): void {
  const message = unsupportedNodeMessage(version);
  if (message === undefined) return;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
