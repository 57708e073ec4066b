/** The one mapping from a stored environment to the spec's Environment object. */
import type { Environment } from "../../../spec";
import type { EnvironmentRecord } from "../../store";

/** The Environment as the API returns it; RPC URLs are built on `baseUrl`. */
export function toEnvironment(record: EnvironmentRecord, baseUrl: string): Environment {
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
        rpcs: [
          { name: "Admin RPC", url: `${baseUrl}/rpc/admin/${vnet.admin_secret}` },
          { name: "Public RPC", url: `${baseUrl}/rpc/public/${vnet.id}` },
          // The same URLs over WebSocket (docs/service.md "RPC URLs"): ws:// or wss:// as the base URL is http or https.
          { name: "Admin websocket RPC", url: `${webSocketUrl(baseUrl)}/rpc/admin/${vnet.admin_secret}` },
          { name: "Public websocket RPC", url: `${webSocketUrl(baseUrl)}/rpc/public/${vnet.id}` },
        ],
        fork_config: { network_id: Number(vnet.network_id), block_number: vnet.block_number },
        chain_config: { chain_id: Number(vnet.chain_id) },
      })),
    },
    network_configs: record.network_configs,
    bridge_config: record.bridge_config,
  };
}

/** The WebSocket form of a base URL: `http://` becomes `ws://`, `https://` becomes `wss://`. */
export function webSocketUrl(baseUrl: string): string {
  return baseUrl.replace(/^http/, "ws");
}
