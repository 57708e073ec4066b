/** The one mapping from a stored environment to the spec's Environment object. */
import { RPC_NAMES, explorerEnabled, explorerUrl, type Environment, type VnetRpc } from "../../../api";
import type { EnvironmentRecord } from "../../store";

/** Who asks: a caller who may not write (a read-only key) never receives Admin RPC URLs, which grant writes. */
export interface Audience {
  /** true when the caller may change things (not a read-only key). */
  readonly mayWrite: boolean;
}

/**
 * The Environment as the API returns it: the documented fields only (no `network_configs`, `bridge_config` or
 * chain-id overrides, which stay stored). RPC URLs are built on `baseUrl`; the `Admin RPC` entry of each vnet is
 * left out for an audience that may not write.
 */
export function toEnvironment(record: EnvironmentRecord, baseUrl: string, audience: Audience): Environment {
  return {
    id: record.id,
    display_name: record.display_name,
    slug: record.slug,
    created_at: record.created_at,
    networks: record.vnets.map((vnet) => ({
      id: vnet.network_entry_id,
      network_id: vnet.network_id,
      network_name: vnet.network_name,
      block_number: vnet.block_number,
    })),
    active_instance: {
      id: record.instance_id,
      vnets: record.vnets.map((vnet) => ({
        id: vnet.id,
        display_name: vnet.display_name,
        slug: vnet.slug,
        status: vnet.status,
        rpcs: visibleTo(audience, [
          { name: RPC_NAMES.admin, url: `${baseUrl}/rpc/admin/${vnet.admin_secret}` },
          { name: RPC_NAMES.public, url: `${baseUrl}/rpc/public/${vnet.id}` },
          // The same URLs over WebSocket (docs/service.md "RPC URLs"): ws:// or wss:// as the base URL is http or https.
          { name: RPC_NAMES.adminWebsocket, url: `${webSocketUrl(baseUrl)}/rpc/admin/${vnet.admin_secret}` },
          { name: RPC_NAMES.publicWebsocket, url: `${webSocketUrl(baseUrl)}/rpc/public/${vnet.id}` },
        ]),
        fork_config: { network_id: Number(vnet.network_id), block_number: vnet.block_number },
        ...(explorerEnabled(record.network_configs[vnet.position]) && { explorer_url: explorerUrl(baseUrl, vnet.id) }),
      })),
    },
  };
}

/** The Admin entries (HTTP and WebSocket) carry the secret that grants writes. */
const ADMIN_RPC_NAMES: ReadonlySet<string> = new Set([RPC_NAMES.admin, RPC_NAMES.adminWebsocket]);

/** The rpcs entries an audience may see: every entry, or without the Admin ones for a caller who may not write. */
function visibleTo(audience: Audience, rpcs: VnetRpc[]): VnetRpc[] {
  return audience.mayWrite ? rpcs : rpcs.filter((rpc) => !ADMIN_RPC_NAMES.has(rpc.name));
}

/** The WebSocket form of a base URL: `http://` becomes `ws://`, `https://` becomes `wss://`. */
export function webSocketUrl(baseUrl: string): string {
  return baseUrl.replace(/^http/, "ws");
}
