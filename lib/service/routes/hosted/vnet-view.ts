/**
 * The vnet view (docs/hosted-clients.md "Virtual TestNets"), written once: a vnet of the hosted `/vnets` API is an
 * environment of one network, and every environment's vnets are listed there too. The hosted shape is made from the
 * spec's Environment (routes/environments/render.ts `toEnvironment`), so RPC URLs, status and fork point are the
 * spec's; this door converts only what the hosted clients read differently: numbers for network and chain ids, the
 * vnet bare with `rpcs[]` at the top, `src` for `source`, and RPC URLs in the hosted shape when the request came under
 * a hosted host name. The verification doors look a vnet up by a hosted RPC URL's key with `vnetByHostedRpc`
 * (lib/service/hosted-urls.ts, shared with the RPC URLs' host routing).
 */
import type { FastifyRequest } from "fastify";
import { RPC_NAMES, type VnetRpc } from "../../../api";
import { explorerEnabled, verificationVisibility } from "../../../domain/explorer";
import { hostedVnetRpcUrl, parseHostedHost } from "../../../domain/hosted-names";
import { vnetRpcSlugOf } from "../../hosted-urls";
import { isUuid } from "../../../domain/uuid";
import type { EnvironmentRecord, Store, VnetRecord } from "../../store";
import { baseUrlOf } from "../common";
import { toEnvironment, type Audience } from "../environments/render";

/** The hosted clients' name of the explorer's `source` visibility (the vnet GitHub Action validates it). */
export const HOSTED_SOURCE_VISIBILITY = "src";

/** A vnet as the hosted `/vnets` API answers it (the vnet GitHub Action reads `id` and `rpcs`). */
export interface HostedVnet {
  readonly id: string;
  readonly slug: string;
  readonly display_name: string;
  /** The environment this vnet belongs to (a chainform extra: the same chain under the Environments API). */
  readonly environment_id: string;
  readonly created_at: string;
  readonly fork_config: { readonly network_id: number; readonly block_number: string };
  readonly virtual_network_config: { readonly chain_config: { readonly chain_id: number } };
  readonly sync_state_config: { readonly enabled: false; readonly commitment_level: "latest" };
  readonly explorer_page_config: { readonly enabled: boolean; readonly verification_visibility: string };
  readonly status: "running" | "stopped";
  readonly rpcs: VnetRpc[];
  /** Present when the explorer is enabled: its page (a chainform extra, as on the spec's vnets). */
  readonly explorer_url?: string;
}

/** Where the RPC URLs of an answer point: the local base URL, or the hosted host names (`chainform exec`). */
export type RpcStyle = { readonly kind: "local"; readonly baseUrl: string } | { readonly kind: "hosted" };

/**
 * The RPC style for a request: hosted-shaped URLs when it came under the hosted API's host name (a hosted client
 * through `chainform exec` or a hosts-file redirect, which reaches the hosted vnet RPC hosts the same way), the
 * service's own URLs otherwise.
 */
export function rpcStyleOf(request: FastifyRequest): RpcStyle {
  return parseHostedHost(request.headers.host)?.kind === "api" ? { kind: "hosted" } : { kind: "local", baseUrl: baseUrlOf(request) };
}

/** The vnet `vnetId` of `record` in the hosted shape. */
export function toHostedVnet(store: Store, record: EnvironmentRecord, vnet: VnetRecord, style: RpcStyle, audience: Audience): HostedVnet {
  const local = style.kind === "local" ? style.baseUrl : "";
  const spec = toEnvironment(record, local, audience).active_instance.vnets[vnet.position];
  const config = record.network_configs[vnet.position];
  const visibility = verificationVisibility(config);
  return {
    id: vnet.id,
    slug: vnet.slug,
    display_name: vnet.display_name,
    environment_id: record.id,
    created_at: record.created_at,
    fork_config: { network_id: Number(vnet.network_id), block_number: vnet.block_number },
    virtual_network_config: { chain_config: { chain_id: Number(vnet.chain_id) } },
    sync_state_config: { enabled: false, commitment_level: "latest" },
    explorer_page_config: {
      enabled: explorerEnabled(config),
      verification_visibility: visibility === "source" ? HOSTED_SOURCE_VISIBILITY : visibility,
    },
    status: vnet.status === "stopped" ? "stopped" : "running",
    rpcs: style.kind === "local" ? spec.rpcs : hostedRpcs(store, vnet, spec.rpcs),
    ...(style.kind === "local" && spec.explorer_url !== undefined && { explorer_url: spec.explorer_url }),
  };
}

/** The spec's rpcs entries (the audience already applied) with hosted-shaped URLs in place of the local ones. */
function hostedRpcs(store: Store, vnet: VnetRecord, rpcs: readonly VnetRpc[]): VnetRpc[] {
  const network = vnetRpcSlugOf(store, vnet);
  const urls: Record<string, string> = {
    [RPC_NAMES.admin]: hostedVnetRpcUrl(network, vnet.admin_secret),
    [RPC_NAMES.public]: hostedVnetRpcUrl(network, vnet.id),
    [RPC_NAMES.adminWebsocket]: hostedVnetRpcUrl(network, vnet.admin_secret, "wss"),
    [RPC_NAMES.publicWebsocket]: hostedVnetRpcUrl(network, vnet.id, "wss"),
  };
  return rpcs.map((rpc) => ({ name: rpc.name, url: urls[rpc.name] ?? rpc.url }));
}

/** A vnet of a project with its environment, or undefined (another project's vnet is as absent as none). */
export function projectVnet(store: Store, projectId: string, vnetId: string): { record: EnvironmentRecord; vnet: VnetRecord } | undefined {
  if (!isUuid(vnetId)) return undefined;
  const vnet = store.environments.vnet(vnetId.toLowerCase());
  if (!vnet || vnet.project_id !== projectId) return undefined;
  const record = store.environments.get(projectId, vnet.environment_id);
  return record && { record, vnet: record.vnets[vnet.position] };
}

export { environmentsOf, vnetByHostedRpc, vnetRpcSlugOf, type HostedRpcTarget } from "../../hosted-urls";
