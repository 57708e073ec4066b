/**
 * Step 1 of the RPC pipeline for requests under a hosted host name (docs/hosted-clients.md "Host names"): a request
 * whose Host header is a vnet RPC host (`virtual.{network}[.{region}].rpc.tenderly.co`) or a node gateway host
 * (`{network}.gateway.tenderly.co`) is routed by that host and its path, as the hosted service routes it, into the
 * route the rest of the pipeline already knows: an Admin RPC by its secret, a Public RPC by its vnet id. Anything
 * else (another host, the API's host) is left to `routeRpc` and the API. A path that names nothing under such a host
 * is the RPC URLs' 404, which never quotes the path. A gateway's chain is shared by every caller: it answers reads
 * only (`readOnlyCalls`).
 */
import { HOSTED_DOMAIN, parseHostedHost } from "../../domain/hosted-names";
import { vnetByHostedRpc } from "../hosted-urls";
import type { Store } from "../store";
import { isReadOnlyMethod, type JsonRpcRequest, type JsonRpcResponse } from "../chains";
import { refusedInPlace, rpcError, type RpcBody } from "./body";
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
    (vnetId): RpcRoute => (vnetId ? { kind: "rpc", access: "public", key: vnetId, readOnly: true } : UNKNOWN),
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

/** Calls a node gateway answers beside the read-only methods: filters and subscriptions keep nothing on the chain. */
const GATEWAY_READS: ReadonlySet<string> = new Set([
  "eth_newFilter",
  "eth_newBlockFilter",
  "eth_newPendingTransactionFilter",
  "eth_uninstallFilter",
  "eth_subscribe",
  "eth_unsubscribe",
]);

/** Whether a node gateway refuses a method: anything that is not a read (sends, signing, anvil_, evm_, tenderly_ writes). */
export function gatewayRefuses(method: string): boolean {
  return !isReadOnlyMethod(method) && !GATEWAY_READS.has(method);
}

/** A gateway's refusal, worded as a node words a method it does not serve (-32601), with why. */
function gatewayRefusal(request: JsonRpcRequest): JsonRpcResponse {
  return rpcError(
    request.id ?? null,
    -32601,
    `the method ${request.method} does not exist/is not available: a node gateway here is read-only (send transactions and state changes to a Virtual TestNet)`,
  );
}

/**
 * A body on a read-only route: each call a gateway refuses is answered with its refusal where it stands (a refused
 * notification in a batch gets none), the others go on to the chain as they came.
 *
 * @example
 * readOnlyCalls(readRpcBody('{"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransaction","params":["0x02"]}'))
 * // { response: { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "the method eth_sendRawTransaction does not exist/…" } } }
 */
export function readOnlyCalls(body: RpcBody): RpcBody {
  if ("response" in body || !body.requests.some((request) => gatewayRefuses(request.method))) return body;
  if (!body.batch) return { response: gatewayRefusal(body.requests[0]) };
  return refusedInPlace(body, (request) => (gatewayRefuses(request.method) ? gatewayRefusal(request) : undefined));
}
