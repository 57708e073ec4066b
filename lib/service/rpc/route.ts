/**
 * Step 1 of the RPC pipeline (./pipeline.ts): what a request's path names. The path is read as Node hands it over
 * (percent-encoded, any case, any slashes, a query): it is decoded and split before anything decides whether it is
 * an RPC URL, so that every spelling of an RPC URL is read the same here and in the log (log.ts `redactUrl`).
 */
import type { RpcAccess } from "../chains";

/** What a path names for the RPC URLs. */
export type RpcRoute =
  /**
   * An RPC URL: `/rpc/{access}/{key}` once percent-decoded, the key one segment. `readOnly`: only reads are answered
   * (a node gateway's shared chain, ./hosted-hosts.ts `readOnlyCalls`).
   */
  | { readonly kind: "rpc"; readonly access: RpcAccess; readonly key: string; readonly readOnly?: true }
  /** A path under `/rpc/` (any case, any slashes) that is no RPC URL: the spec's 404, never the API's. */
  | { readonly kind: "unknown" };

/**
 * The route of a request target (`/rpc/admin/abc?x=1`), or null when it is not under `/rpc/` (the API's or the
 * web UI's). Each segment is percent-decoded on its own (an encoded `/` stays inside its segment), so
 * `/rpc/%61dmin/KEY` is the Admin RPC URL of KEY. `/RPC/admin/KEY`, `/rpc/ADMIN/KEY` and `/rpc/admin//KEY` are
 * under `/rpc/` but name nothing: the RPC URLs are written one way, as the service lists them.
 *
 * @example
 * routeRpc("/rpc/public/0b2f?x=1") // { kind: "rpc", access: "public", key: "0b2f" }
 * routeRpc("/v1/supported-networks") // null
 */
export function routeRpc(target: string): RpcRoute | null {
  const end = pathEnd(target);
  // The common case first: a plain path with no encoding, no doubled slash.
  const segments = target.slice(0, end).split("/");
  if (segments[0] !== "" || segments.length < 2) return null;
  const decoded = segments.map(decodeSegment);
  const first = decoded.findIndex((segment, index) => index > 0 && segment !== "");
  if (first < 0 || decoded[first]?.toLowerCase() !== "rpc") return null;
  if (decoded.includes(null)) return UNKNOWN;
  if (decoded.length !== 4 || first !== 1 || decoded[1] !== "rpc") return UNKNOWN;
  const access = decoded[2];
  const key = decoded[3]!;
  if ((access !== "admin" && access !== "public") || key === "") return UNKNOWN;
  return { kind: "rpc", access, key };
}

const UNKNOWN: RpcRoute = { kind: "unknown" };

/** Where the path of a request target ends: at its query or fragment. */
function pathEnd(target: string): number {
  const query = target.indexOf("?");
  const fragment = target.indexOf("#");
  if (query < 0) return fragment < 0 ? target.length : fragment;
  return fragment < 0 ? query : Math.min(query, fragment);
}

/** A path segment percent-decoded as UTF-8; null when a `%` starts no escape or the escapes are not UTF-8. */
function decodeSegment(segment: string): string | null {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
