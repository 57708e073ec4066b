/**
 * The computed RPC endpoints of an environment, shared by the `chainform_environment` resource and data source:
 * one mapping from the service's Environment to `vnets`, `public_rpc_urls` and `admin_rpc_urls`. It reads only
 * documented fields (`id`, `slug`, `status`, `rpcs`, `fork_config`); what the service does not return (the chain id
 * a vnet answers with when it was overridden, whether the bridge is on) comes from the caller: the resource knows
 * it from its state, a data source does not.
 */
import { RPC_NAMES, type Environment } from "../../../client";
import { BRIDGE_ADDRESS } from "../../../domain/bridge-contract";
import { attr, cty, useStateForUnknown } from "../../framework";
import { post } from "../http-post";

/** How long a refresh waits for one vnet's `eth_chainId`. */
const CHAIN_ID_TIMEOUT_MS = 15_000;

/** The `vnets` attribute: one object per Virtual Environment; only `admin_rpc_url` is sensitive. */
export const vnetsAttribute = (planModifiers: boolean) =>
  attr.nestedList(
    {
      id: attr.string({ description: "Identifier of the Virtual Environment.", computed: true }),
      network_id: attr.string({ description: "Chain ID of the forked network.", computed: true }),
      chain_id: attr.string({
        description:
          "Chain ID this Virtual Environment answers with, as a decimal string (exact for ids above 2^53, and the same type as chain_id in chainform_supported_networks). On the resource: network_config.chain_id, else network_id. The service's answer does not include an override, so a data source reports the forked network's id.",
        computed: true,
      }),
      slug: attr.string({ description: "Slug of the Virtual Environment.", computed: true }),
      status: attr.string({ description: "Status of the Virtual Environment, e.g. running.", computed: true }),
      public_rpc_url: attr.string({
        description: "Public RPC URL of this Virtual Environment (standard eth_, net_ and web3_ methods only).",
        computed: true,
      }),
      admin_rpc_url: attr.string({
        description:
          "Admin RPC URL of this Virtual Environment. A secret: anyone holding it can change the chain's state. Null when the credential may not write (a read-only key never receives it).",
        computed: true,
        sensitive: true,
      }),
      bridge_address: attr.string({
        description: `Address of the bridge contract on this Virtual Environment when the environment's bridge is enabled (${BRIDGE_ADDRESS} on the local service, the same on every chain); null otherwise, and always null on the data sources, which cannot tell whether the bridge is on.`,
        computed: true,
      }),
    },
    {
      description: "The Virtual Environments of the active instance, one per network_config.",
      computed: true,
      ...(planModifiers ? { planModifiers: [useStateForUnknown()] } : {}),
    },
  );

/** The `public_rpc_urls` attribute. */
export const publicRpcUrlsAttribute = (planModifiers: boolean) =>
  attr.map(cty.string, {
    description: "Public RPC URL of each Virtual Environment, keyed by network_id.",
    computed: true,
    ...(planModifiers ? { planModifiers: [useStateForUnknown()] } : {}),
  });

/** The `admin_rpc_urls` attribute (sensitive). */
export const adminRpcUrlsAttribute = (planModifiers: boolean) =>
  attr.map(cty.string, {
    description:
      "Admin RPC URL of each Virtual Environment, keyed by network_id. Secrets: full cheatcode access. Empty when the credential may not write.",
    computed: true,
    sensitive: true,
    ...(planModifiers ? { planModifiers: [useStateForUnknown()] } : {}),
  });

/** One Virtual Environment as state holds it. */
export interface VnetState {
  id: string;
  network_id: string;
  chain_id: string;
  slug: string;
  status: string;
  public_rpc_url: string | null;
  admin_rpc_url: string | null;
  bridge_address: string | null;
}

/** What the caller knows beyond the service's answer (the resource, from its state). */
export interface KnownSettings {
  /** The chain id a network's vnet answers with, when overridden at creation. */
  chainIdOf?(networkId: string): string | null;
  /** Whether the environment's bridge is enabled. */
  readonly bridgeEnabled?: boolean;
}

/** The RPC endpoints of an environment, as the three computed attributes; a missing Admin RPC entry gives nulls. */
export function endpointsOf(
  environment: Environment,
  known: KnownSettings = {},
): {
  vnets: VnetState[];
  public_rpc_urls: Record<string, string>;
  admin_rpc_urls: Record<string, string>;
} {
  const vnets = (environment.active_instance?.vnets ?? []).map((vnet): VnetState => {
    const networkId = String(vnet.fork_config?.network_id ?? "");
    const rpcs = Array.isArray(vnet.rpcs) ? vnet.rpcs : [];
    return {
      id: vnet.id,
      network_id: networkId,
      chain_id: known.chainIdOf?.(networkId) ?? networkId,
      slug: vnet.slug,
      status: vnet.status,
      public_rpc_url: rpcs.find((rpc) => rpc.name === RPC_NAMES.public)?.url ?? null,
      admin_rpc_url: rpcs.find((rpc) => rpc.name === RPC_NAMES.admin)?.url ?? null,
      bridge_address: known.bridgeEnabled ? BRIDGE_ADDRESS : null,
    };
  });
  const byNetwork = (key: "public_rpc_url" | "admin_rpc_url") =>
    Object.fromEntries(vnets.filter((v) => v[key] !== null).map((v) => [v.network_id, v[key]!]));
  return { vnets, public_rpc_urls: byNetwork("public_rpc_url"), admin_rpc_urls: byNetwork("admin_rpc_url") };
}

/** Whether some vnet came without its Admin RPC entry (the credential may not write). */
export function lacksAdminRpc(environment: Environment): boolean {
  return (environment.active_instance?.vnets ?? []).some((vnet) => !(vnet.rpcs ?? []).some((rpc) => rpc.name === RPC_NAMES.admin));
}

/**
 * The chain id each Virtual Environment answers with (`eth_chainId` on its Public RPC, else its Admin RPC), keyed
 * by network id, as a decimal string. The service's answer does not include a chain-id override; the chain itself
 * is the truth, on the local service as on the hosted one. A vnet that does not answer is left out (the caller
 * keeps what it knew). The URLs are never quoted.
 */
export async function answeredChainIds(environment: Environment, caFile?: string): Promise<Map<string, string>> {
  const answers = await Promise.all(
    (environment.active_instance?.vnets ?? []).map(async (vnet): Promise<[string, string] | undefined> => {
      const rpcs = Array.isArray(vnet.rpcs) ? vnet.rpcs : [];
      const url = rpcs.find((rpc) => rpc.name === RPC_NAMES.public)?.url ?? rpcs.find((rpc) => rpc.name === RPC_NAMES.admin)?.url;
      if (!url || vnet.fork_config?.network_id === undefined) return undefined;
      try {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
        const answer = await post(url, { "content-type": "application/json" }, body, { timeoutMs: CHAIN_ID_TIMEOUT_MS, caFile });
        const result = (JSON.parse(answer.text) as { result?: unknown }).result;
        if (answer.statusCode !== 200 || typeof result !== "string" || !/^0x[0-9a-fA-F]{1,16}$/.test(result)) return undefined;
        return [String(vnet.fork_config.network_id), BigInt(result).toString()];
      } catch {
        return undefined;
      }
    }),
  );
  return new Map(answers.filter((a): a is [string, string] => a !== undefined));
}
