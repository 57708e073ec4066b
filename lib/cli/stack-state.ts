/**
 * The environments a stack's Terraform state holds, read from `terraform show -json`: what `chainform up` prints
 * and checks. Admin RPC URLs are kept for --show-secrets only; nothing here prints them.
 */

/** A funded account a network_config asked for. */
export interface PrefundedAccount {
  readonly address: string;
  /** Wei, as the config gave it (hex or decimal string). */
  readonly balance: string;
}

/** One Virtual Environment of an environment in the state. */
export interface DeployedNetwork {
  /** The stack it belongs to. */
  readonly stack: string;
  /** The environment's slug. */
  readonly environment: string;
  /** The environment's id ("" when the state has none yet). */
  readonly environmentId: string;
  /** Chain id of the forked network, e.g. "1". */
  readonly networkId: string;
  /** Chain id the Virtual Environment answers with. */
  readonly chainId: number;
  readonly publicRpcUrl: string;
  /** A secret. */
  readonly adminRpcUrl: string;
  /** Accounts funded on this network. */
  readonly accounts: readonly PrefundedAccount[];
  /**
   * The block the network was forked at (network_config.block_number, hex or decimal as the state spells it), after
   * which the environment was prepared; null when the state does not say.
   */
  readonly forkBlock: string | null;
}

interface StateModule {
  resources?: { type?: string; values?: Record<string, unknown> }[];
  child_modules?: StateModule[];
}

/**
 * Every Virtual Environment of every `chainform_environment` in a `terraform show -json` document.
 * @example
 * deployedNetworks("pr-42", JSON.parse(showJson)) // [{ environment: "pr-42", networkId: "1", chainId: 73571, ... }]
 */
export function deployedNetworks(stack: string, show: { values?: { root_module?: StateModule } }): DeployedNetwork[] {
  const found: DeployedNetwork[] = [];
  const walk = (module: StateModule | undefined) => {
    for (const resource of module?.resources ?? []) {
      if (resource.type !== "chainform_environment" || !resource.values) continue;
      found.push(...networksOf(stack, resource.values));
    }
    for (const child of module?.child_modules ?? []) walk(child);
  };
  walk(show.values?.root_module);
  return found;
}

function networksOf(stack: string, values: Record<string, unknown>): DeployedNetwork[] {
  const configs =
    (values.network_config as { network_id?: string; block_number?: string | null; account?: PrefundedAccount[] }[] | null) ?? [];
  const vnets = (values.vnets as Record<string, unknown>[] | null) ?? [];
  return vnets.map((vnet) => {
    const networkId = String(vnet.network_id ?? "");
    const config = configs.find((c) => String(c.network_id) === networkId);
    return {
      stack,
      environment: String(values.slug ?? values.display_name ?? values.id ?? ""),
      environmentId: String(values.id ?? ""),
      networkId,
      chainId: Number(vnet.chain_id),
      publicRpcUrl: String(vnet.public_rpc_url ?? ""),
      adminRpcUrl: String(vnet.admin_rpc_url ?? ""),
      accounts: (config?.account ?? []).map((a) => ({ address: String(a.address), balance: String(a.balance) })),
      forkBlock: typeof config?.block_number === "string" && config.block_number !== "" ? config.block_number : null,
    };
  });
}
