/**
 * Upstream URLs as users give them: `--fork NETWORK_ID=URL` (repeatable) and `CHAINFORM_FORK_URLS`
 * (`1=https://...,8453=https://...`). Errors quote the network id and never the URL (it carries an API key).
 */
import { isChainId } from "../../../api";

/**
 * Parses `NETWORK_ID=URL` entries into a map; later entries win. Throws an Error naming the entry's position and
 * network (never its URL) when one is malformed.
 *
 * @example
 * parseForkUrls(["1=https://eth.example/KEY"]) // { "1": "https://eth.example/KEY" }
 */
export function parseForkUrls(entries: readonly string[], source = "--fork"): Record<string, string> {
  const urls: Record<string, string> = {};
  entries.forEach((entry, index) => {
    const trimmed = entry.trim();
    if (trimmed === "") return;
    const at = trimmed.indexOf("=");
    const networkId = at < 0 ? "" : trimmed.slice(0, at).trim();
    const url = at < 0 ? "" : trimmed.slice(at + 1).trim();
    const where = `${source} entry ${index + 1}`;
    if (!isChainId(networkId)) throw new Error(`${where} must be NETWORK_ID=URL with a decimal chain id such as 1=https://...`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`${where} (network ${networkId}) has no valid URL after "="`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new Error(`${where} (network ${networkId}) must be an http:// or https:// URL`);
    }
    urls[networkId] = url;
  });
  return urls;
}

/** Splits `CHAINFORM_FORK_URLS` (comma-separated `NETWORK_ID=URL`). */
export function forkUrlsFromEnv(value: string | undefined): Record<string, string> {
  return value ? parseForkUrls(value.split(","), "CHAINFORM_FORK_URLS") : {};
}

/** Query values shorter than this are flags (`?json=1`), not keys. */
const MIN_QUERY_SECRET = 6;

/**
 * Whether a URL part looks like an API key: 16 characters or more, or 8 or more mixing letters and digits. Words such
 * as `v2`, `mainnet` or `eth-mainnet` do not; `4d1f9c2e7b…`, `sk-upstream-4d1f9c2e7b` and Infura's 32 hex digits do.
 */
function keyLike(part: string): boolean {
  if (part.length >= 16) return true;
  return part.length >= 8 && /[0-9]/.test(part) && /[a-z]/i.test(part);
}

/**
 * The parts of an upstream URL that may be its API key, longest first: the user name and password, key-like path
 * segments and host labels, and every query value of some length. Each is scrubbed from every text that leaves the
 * service or reaches a recording, whether or not the upstream echoed the whole URL.
 *
 * @example
 * secretPartsOf("https://eth.example/v2/sk-4d1f9c2e7b?apikey=abc123") // ["sk-4d1f9c2e7b", "abc123"]
 */
export function secretPartsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const parts = [
    parsed.username,
    parsed.password,
    ...parsed.hostname.split(".").filter(keyLike),
    ...parsed.pathname.split("/").map(decode).filter(keyLike),
    ...[...parsed.searchParams.values()].filter((value) => value.length >= MIN_QUERY_SECRET),
  ].filter((part) => part.length > 0);
  return [...new Set(parts)].sort((a, b) => b.length - a.length);
}

/**
 * A function that takes an upstream URL and its key-like parts out of a text (case-insensitively: an upstream may
 * echo a key in another case), for errors and recordings.
 */
export function upstreamScrubber(url: string, networkId: string): (text: string) => string {
  const secrets = [url, ...secretPartsOf(url)];
  const pattern = new RegExp(secrets.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "gi");
  return (text) => text.replace(pattern, (match) => (match === url ? `[upstream of network ${networkId}]` : "[redacted]"));
}
