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
