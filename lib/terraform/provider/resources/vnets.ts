/**
 * The computed RPC endpoints of an environment, shared by the `chainform_environment` resource and data source:
 * one mapping from the service's Environment to `vnets`, `public_rpc_urls` and `admin_rpc_urls`.
 */
import type { Environment } from "../../../client";
import { attr, cty, useStateForUnknown } from "../../framework";

/** The `vnets` attribute: one object per Virtual Environment; only `admin_rpc_url` is sensitive. */
export const vnetsAttribute = (planModifiers: boolean) =>
  attr.nestedList(
    {
      id: attr.string({ description: "Identifier of the Virtual Environment.", computed: true }),
      network_id: attr.string({ description: "Chain ID of the forked network.", computed: true }),
      chain_id: attr.number({ description: "Chain ID this Virtual Environment answers with.", computed: true }),
      slug: attr.string({ description: "Slug of the Virtual Environment.", computed: true }),
      status: attr.string({ description: "Status of the Virtual Environment, e.g. running.", computed: true }),
      public_rpc_url: attr.string({
        description: "Public RPC URL of this Virtual Environment (standard eth_, net_ and web3_ methods only).",
        computed: true,
      }),
      admin_rpc_url: attr.string({
        description: "Admin RPC URL of this Virtual Environment. A secret: anyone holding it can change the chain's state.",
        computed: true,
        sensitive: true,
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
    description: "Admin RPC URL of each Virtual Environment, keyed by network_id. Secrets: full cheatcode access.",
    computed: true,
    sensitive: true,
    ...(planModifiers ? { planModifiers: [useStateForUnknown()] } : {}),
  });

/** One Virtual Environment as state holds it. */
export interface VnetState {
  id: string;
  network_id: string;
  chain_id: number;
  slug: string;
  status: string;
  public_rpc_url: string | null;
  admin_rpc_url: string | null;
}

/** The RPC endpoints of an environment, as the three computed attributes. */
export function endpointsOf(environment: Environment): {
  vnets: VnetState[];
  public_rpc_urls: Record<string, string>;
  admin_rpc_urls: Record<string, string>;
} {
  const vnets = environment.active_instance.vnets.map((vnet) => ({
    id: vnet.id,
    network_id: String(vnet.fork_config.network_id),
    chain_id: vnet.chain_config.chain_id,
    slug: vnet.slug,
    status: vnet.status,
    public_rpc_url: vnet.rpcs.find((rpc) => rpc.name === "Public RPC")?.url ?? null,
    admin_rpc_url: vnet.rpcs.find((rpc) => rpc.name === "Admin RPC")?.url ?? null,
  }));
  const byNetwork = (key: "public_rpc_url" | "admin_rpc_url") =>
    Object.fromEntries(vnets.filter((v) => v[key] !== null).map((v) => [v.network_id, v[key]!]));
  return { vnets, public_rpc_urls: byNetwork("public_rpc_url"), admin_rpc_urls: byNetwork("admin_rpc_url") };
}
