/**
 * The hosted service's host names and URL shapes, as its own clients hard-code and parse them (docs/hosted-clients.md):
 * the API host with its `/api` base path, the older forks' `rpc.tenderly.co`, vnet RPC hosts (`virtual.{network}[.{region}].rpc.tenderly.co`) and node
 * gateway hosts (`{network}.gateway.tenderly.co`). One grammar, read by the service's host routing, by the vnet view
 * that hands out hosted-shaped URLs, and by `chainform exec`, which redirects exactly these names.
 */

/** The hosted API's host name. */
export const HOSTED_API_HOST = "api.tenderly.co";

/**
 * The hosted node RPC host of the older forks, where `@tenderly/api-client` still posts its fork verification
 * (`verifyForkContracts`): `https://rpc.tenderly.co/account/{a}/project/{p}/fork/{key}/verify`.
 */
export const HOSTED_LEGACY_RPC_HOST = "rpc.tenderly.co";

/** The hosted API's base path: every hosted client sends `/api/v1/…`, `/api/v2/…` or `/api/public/v1/…`. */
export const HOSTED_BASE_PATH = "/api";

/** The domain every hosted name is under. */
export const HOSTED_DOMAIN = "tenderly.co";

/** What a hosted host name names. */
export type HostedHost =
  /** The API host. */
  | { readonly kind: "api" }
  /** The older forks' node RPC host (only its fork verifier is served). */
  | { readonly kind: "rpc" }
  /** A vnet RPC host: the network's vnet RPC slug (e.g. `mainnet`), and the region label when there is one. */
  | { readonly kind: "vnet"; readonly network: string; readonly region?: string }
  /** A node gateway host: the network's node RPC slug (e.g. `mainnet`, `base-sepolia`). */
  | { readonly kind: "gateway"; readonly network: string };

/** A DNS label as the hosted names use them: lowercase letters, digits and inner dashes. */
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * What a Host header names among the hosted host names, or null for any other host (the local base URL's). The port
 * and a trailing dot are ignored, and case does not matter, as in DNS.
 *
 * @example
 * parseHostedHost("virtual.mainnet.eu.rpc.tenderly.co") // { kind: "vnet", network: "mainnet", region: "eu" }
 * parseHostedHost("base-sepolia.gateway.tenderly.co:443") // { kind: "gateway", network: "base-sepolia" }
 * parseHostedHost("127.0.0.1:8787") // null
 */
export function parseHostedHost(hostHeader: string | undefined): HostedHost | null {
  if (hostHeader === undefined) return null;
  const host = hostHeader
    .trim()
    .toLowerCase()
    .replace(/:\d{1,5}$/, "")
    .replace(/\.$/, "");
  if (host === HOSTED_API_HOST) return { kind: "api" };
  if (host === HOSTED_LEGACY_RPC_HOST) return { kind: "rpc" };
  if (!host.endsWith(`.${HOSTED_DOMAIN}`)) return null;
  const labels = host.slice(0, -HOSTED_DOMAIN.length - 1).split(".");
  if (!labels.every((label) => LABEL.test(label))) return null;
  if (labels.length === 2 && labels[1] === "gateway") return { kind: "gateway", network: labels[0] };
  if (labels[0] !== "virtual" || labels[labels.length - 1] !== "rpc") return null;
  if (labels.length === 3) return { kind: "vnet", network: labels[1] };
  if (labels.length === 4) return { kind: "vnet", network: labels[1], region: labels[2] };
  return null;
}

/** Whether a host name (no port) is one `chainform exec` sends to the local service. */
export function isHostedHostName(host: string): boolean {
  return parseHostedHost(host) !== null;
}

/**
 * A vnet RPC URL in the hosted shape: `https://virtual.{network}.rpc.tenderly.co/{key}` (the key is the Admin RPC's
 * secret or the Public RPC's vnet id).
 *
 * @example
 * hostedVnetRpcUrl("mainnet", "0b2f…") // "https://virtual.mainnet.rpc.tenderly.co/0b2f…"
 */
export function hostedVnetRpcUrl(network: string, key: string, scheme: "https" | "wss" = "https"): string {
  return `${scheme}://virtual.${network}.rpc.${HOSTED_DOMAIN}/${key}`;
}

/**
 * A node gateway URL in the hosted shape: `https://{network}.gateway.tenderly.co/{access key}`.
 *
 * @example
 * hostedGatewayUrl("mainnet", accessKey) // "https://mainnet.gateway.tenderly.co/<access key>"
 */
export function hostedGatewayUrl(network: string, accessKey: string): string {
  return `https://${network}.gateway.${HOSTED_DOMAIN}/${accessKey}`;
}
