/**
 * Step 1 of the RPC pipeline for requests under a hosted host name (docs/hosted-clients.md "Host names"): a request
 * whose Host header is a vnet RPC host (`virtual.{network}[.{region}].rpc.tenderly.co`) or a node gateway host
 * (`{network}.gateway.tenderly.co`) is routed by that host and its path, as the hosted service routes it, into the
 * route the rest of the pipeline already knows: an Admin RPC by its secret, a Public RPC by its vnet id. Anything
 * else (another host, the API's host) is left to `routeRpc` and the API. A path that names nothing under such a host
 * is the RPC URLs' 404, which never quotes the path.
 */
import { HOSTED_DOMAIN, parseHostedHost } from "../../domain/hosted-names";
import { vnetByHostedRpc } from "../hosted-urls";
import type { Store } from "../store";
import type { RpcRoute } from "./route";

/** What the host routing needs from the service. */
export interface HostedHostsContext {
  readonly store: Store;
  /** The vnet id of a network's gateway chain (made on first use), when the hosted API provides gateways. */
  readonly gatewayVnet?: (network: string) => Promise<string | undefined>;
}

const UNKNOWN: RpcRoute = { kind: "unknown" };

/**
 * The RPC route of a request under a hosted host name: a route now, a promise of one (a gateway's chain made on its
 * first call), or null when the host is not a hosted RPC host (the local routing and the API decide).
 *
 * @example
 * routeHostedHost(context, "virtual.mainnet.rpc.tenderly.co", `/${adminSecret}`) // { kind: "rpc", access: "admin", key: adminSecret }
 */
export function routeHostedHost(
  context: HostedHostsContext,
  host: string | undefined,
  target: string,
): RpcRoute | Promise<RpcRoute> | null {
  // The common case (the local base URL) leaves after one substring test.
  if (host === undefined || !host.toLowerCase().includes(HOSTED_DOMAIN)) return null;
  const hosted = parseHostedHost(host);
  if (!hosted || hosted.kind === "api" || hosted.kind === "rpc") return null;
  const segments = pathSegments(target);
  if (hosted.kind === "vnet") {
    // More segments than an RPC URL has (`{key}/verify/etherscan`) are the API's doors.
    if (segments !== null && segments.length !== 1 && segments.length !== 3) return null;
    const found = segments && vnetByHostedRpc(context.store, hosted.network, segments);
    if (!found) return UNKNOWN;
    return { kind: "rpc", access: found.access, key: found.access === "admin" ? found.vnet.admin_secret : found.vnet.id };
  }
  const accessKey = segments?.length === 1 ? segments[0] : undefined;
  if (!accessKey || !context.gatewayVnet || !context.store.accounts.keyOwner(accessKey)) return UNKNOWN;
  return context.gatewayVnet(hosted.network).then(
    (vnetId): RpcRoute => (vnetId ? { kind: "rpc", access: "public", key: vnetId } : UNKNOWN),
    () => UNKNOWN,
  );
}

/** The percent-decoded, non-empty segments of a request target's path; null when one does not decode. */
function pathSegments(target: string): string[] | null {
  const path = target.split(/[?#]/, 1)[0];
  try {
    return path
      .split("/")
      .filter((segment) => segment !== "")
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
}
