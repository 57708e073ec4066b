import { FOR_EXPRESSION_VALUE, Fn, Token, forExpression, propertyAccess, type IResolvable } from "cdktf";
import { Construct } from "constructs";
import * as dataEnvironment from "./generated/data-chainform-environment";
import * as environment from "./generated/environment";
import { normalizeBalance } from "../domain/amounts";
import type { BridgeConfig } from "./bridge";
import { Contract, type DeployContractProps } from "./contract";
import type { Abi } from "viem" with { "resolution-mode": "import" };
import type { NetworkConfig, PrefundedAccount } from "./network";
import { terraformProvider, type ProviderRef } from "./provider";
import { ACCOUNT_RULES, BRIDGE_RULES, ENVIRONMENT_RULES, NETWORK_LIST_RULES, NETWORK_RULES } from "./rules";
import { checkRules, isToken, throwIfProblems } from "./validation";

/** Properties of an {@link Environment}. */
export interface EnvironmentProps {
  /** Display name, e.g. `PR 42`. */
  readonly displayName: string;
  /**
   * Slug, unique in the project, e.g. `pr-42`.
   * @default - derived from `displayName` by the service
   */
  readonly slug?: string;
  /**
   * Prefix of a generated unique slug (the prefix, a dash, 8 hex digits), instead of `slug`: use it when the
   * environment is replaced with `lifecycle: { createBeforeDestroy: true }`, so that the replacement never
   * collides with the environment it replaces.
   * @default - no prefix: `slug`, or the slug derived from `displayName`
   */
  readonly slugPrefix?: string;
  /**
   * The networks to fork. More can be added with {@link Environment.addNetwork}; by synth there must be one.
   * @default []
   */
  readonly networks?: readonly NetworkConfig[];
  /**
   * The bridge between the Virtual Environments, e.g. {@link Bridge.delayedRelay}.
   * @default - no bridge block: the service's default bridge
   */
  readonly bridge?: BridgeConfig;
  /**
   * The provider configuration to use.
   * @default - the stack's default chainform provider
   */
  readonly provider?: ProviderRef;
}

/** The Virtual Environment of one network of an environment, as tokens resolved by Terraform. */
export interface VnetAttributes {
  /** Identifier of the Virtual Environment. */
  readonly id: string;
  /** Slug of the Virtual Environment. */
  readonly slug: string;
  /** Status, e.g. `running`. */
  readonly status: string;
  /** The chain id it answers with, as a decimal string (exact at any size; the provider's `vnets[*].chain_id`). */
  readonly chainId: string;
  /** Public RPC URL. */
  readonly publicRpcUrl: string;
  /** Admin RPC URL: a secret, so outputs of it need `sensitive: true`. */
  readonly adminRpcUrl: string;
}

/** What an environment, created here or looked up, gives the rest of a stack. */
export interface IEnvironment {
  /** The environment's id (a token). */
  readonly environmentId: string;
  /** The environment's slug (a token). */
  readonly environmentSlug: string;
  /** The id of its active instance (a token). */
  readonly instanceId: string;
  /** The Public RPC URL of the Virtual Environment forking `networkId`. */
  publicRpcUrl(networkId: string): string;
  /** The Admin RPC URL of the Virtual Environment forking `networkId`: a secret. */
  adminRpcUrl(networkId: string): string;
  /** Every attribute of the Virtual Environment forking `networkId`. */
  vnet(networkId: string): VnetAttributes;
}

/** What an environment resource and the environment data source share: `vnets` and the RPC URL maps. */
interface EnvironmentState extends Construct {
  interpolationForAttribute(attribute: string): IResolvable;
}

/** `vnets` keyed by network id: `{ for key, val in <vnets> : val.network_id => val }`. */
function vnetsByNetwork(state: EnvironmentState): IResolvable {
  return forExpression(
    state.interpolationForAttribute("vnets"),
    FOR_EXPRESSION_VALUE,
    propertyAccess(FOR_EXPRESSION_VALUE, ["network_id"]),
  );
}

/**
 * Only the Admin RPC URL of a Virtual Environment is a secret. The provider may mark all of `vnets` sensitive (a
 * list-of-objects attribute can only be sensitive as a whole), so the other attributes are declared non-sensitive
 * here: outputs of them then need no `sensitive: true`.
 */
function vnetOf(state: EnvironmentState, networkId: string): VnetAttributes {
  const attribute = (name: string) => Fn.nonsensitive(propertyAccess(vnetsByNetwork(state), [networkId, name]));
  return {
    id: Token.asString(attribute("id")),
    slug: Token.asString(attribute("slug")),
    status: Token.asString(attribute("status")),
    chainId: Token.asString(attribute("chain_id")),
    publicRpcUrl: rpcUrl(state, "public_rpc_urls", networkId),
    adminRpcUrl: rpcUrl(state, "admin_rpc_urls", networkId),
  };
}

/**
 * `<state>.<map>["<networkId>"]`. Not `StringMap.lookup`: that quotes a token key as text (`["var.x"]`), where
 * `propertyAccess` writes the reference (`[var.x]`).
 */
function rpcUrl(state: EnvironmentState, map: "public_rpc_urls" | "admin_rpc_urls", networkId: string): string {
  return Token.asString(propertyAccess(state.interpolationForAttribute(map), [networkId]));
}

/**
 * Terraform JSON cannot take a block list from an expression; that needs a `dynamic` block, which the generated
 * binding offers through `TerraformIterator`.
 */
const WHOLE_LIST_TOKEN = (what: string) =>
  `${what} is a token: write the list in the app (its values may be tokens), or iterate a variable with TerraformIterator on bindings.environment.Environment`;

/** The L1 `network_config` block of a validated network configuration. */
function toNetworkBlock(network: NetworkConfig): environment.EnvironmentNetworkConfig {
  const { blockNumber } = network;
  return {
    networkId: network.networkId,
    chainId:
      network.chainId === undefined
        ? undefined
        : typeof network.chainId === "string"
          ? network.chainId
          : isToken(network.chainId)
            ? Token.asString(network.chainId)
            : String(network.chainId),
    // The provider takes decimal and hex alike: a number stays decimal, as people write blocks.
    blockNumber: typeof blockNumber !== "number" ? blockNumber : isToken(blockNumber) ? Token.asString(blockNumber) : String(blockNumber),
    account: network.accounts?.map(toAccountBlock),
    explorer: network.explorer,
  };
}

function toAccountBlock(account: PrefundedAccount): environment.EnvironmentNetworkConfigAccount {
  // Balances are normalized to hex wei here so that the plan shows what the provider stores.
  return { address: account.address, balance: isToken(account.balance) ? account.balance : normalizeBalance(account.balance) };
}

/**
 * A chainform environment: each network forked as a Virtual Environment, optionally bridged, with pre-funded
 * accounts. Every change replaces it (the service has no update).
 * @example
 * const env = new Environment(this, "pr", {
 *   displayName: "PR 42",
 *   networks: [{ networkId: Network.MAINNET, chainId: 73571, accounts: [{ address, balance: ether(100) }] }],
 *   bridge: Bridge.delayedRelay(30),
 * });
 * env.addNetwork({ networkId: Network.BASE });
 * new TerraformOutput(this, "rpc", { value: env.publicRpcUrl(Network.MAINNET) });
 */
export class Environment extends Construct implements IEnvironment {
  /**
   * An existing environment of the project, by id (read with the `chainform_environment` data source).
   * @example
   * const shared = Environment.fromEnvironmentId(this, "shared", "3f6c...");
   */
  public static fromEnvironmentId(scope: Construct, id: string, environmentId: string, provider?: ProviderRef): IEnvironment {
    return new ExistingEnvironment(scope, id, { id: environmentId, provider: terraformProvider(provider) });
  }

  /**
   * An existing environment of the project, by slug.
   * @example
   * const staging = Environment.fromEnvironmentSlug(this, "staging", "staging");
   */
  public static fromEnvironmentSlug(scope: Construct, id: string, slug: string, provider?: ProviderRef): IEnvironment {
    return new ExistingEnvironment(scope, id, { slug, provider: terraformProvider(provider) });
  }

  /** The generated `chainform_environment` binding. */
  public readonly resource: environment.Environment;
  private readonly networks: NetworkConfig[] = [];
  private readonly referencedNetworks = new Set<string>();

  public constructor(scope: Construct, id: string, props: EnvironmentProps) {
    super(scope, id);
    const networks = props.networks ?? [];
    throwIfProblems(this, [
      ...(isToken(props.networks) ? [WHOLE_LIST_TOKEN("networks")] : []),
      ...checkRules(ENVIRONMENT_RULES, props),
      ...(props.slug !== undefined && props.slugPrefix !== undefined
        ? ["give slug or slugPrefix, not both: slugPrefix generates the slug"]
        : []),
      ...(props.bridge ? checkRules(BRIDGE_RULES, props.bridge) : []),
      ...networks.flatMap((n, i) => Environment.networkProblems(n, `networks[${i}]`)),
      ...checkRules(NETWORK_LIST_RULES, networks),
    ]);
    this.networks.push(...networks);
    this.resource = new environment.Environment(this, "Resource", {
      displayName: props.displayName,
      slug: props.slug,
      slugPrefix: props.slugPrefix,
      bridge: props.bridge,
      networkConfig: this.networks.map(toNetworkBlock),
      provider: terraformProvider(props.provider),
    });
    this.node.addValidation({
      validate: () => {
        if (this.networks.length === 0) {
          return ["the environment has no networks: give `networks` or call addNetwork({ networkId: Network.MAINNET })"];
        }
        const configured = new Set(this.networks.map((n) => n.networkId));
        return [...this.referencedNetworks]
          .filter((n) => !configured.has(n))
          .map((n) => `an RPC URL of network ${JSON.stringify(n)} is used, but the environment does not fork it: add it with addNetwork`);
      },
    });
  }

  private static networkProblems(network: NetworkConfig, where: string): string[] {
    if (isToken(network.accounts)) return [`${where}: ${WHOLE_LIST_TOKEN("accounts")}`];
    return [
      ...checkRules(NETWORK_RULES, network, where),
      ...(network.accounts ?? []).flatMap((a, j) => checkRules(ACCOUNT_RULES, a, `${where}.accounts[${j}]`)),
    ];
  }

  /**
   * Deploys a contract into the Virtual Environment of `props.networkId` (`chainform_contract`).
   * @example
   * const token = env.deployContract("token", { networkId: Network.MAINNET, artifactPath: "out/Token.sol/Token.json", constructorArgs: ["T", "T", 18, 0n] });
   */
  public deployContract<const TAbi extends Abi | readonly unknown[] = Abi>(id: string, props: DeployContractProps<TAbi>): Contract<TAbi> {
    return new Contract<TAbi>(this, id, { ...props, environment: this });
  }

  /** The environment's id (a token). */
  public get environmentId(): string {
    return this.resource.id;
  }

  /** The environment's slug (a token: the given slug, or the one the service derived). */
  public get environmentSlug(): string {
    return this.resource.slug;
  }

  /** The id of the environment's active instance (a token). */
  public get instanceId(): string {
    return this.resource.instanceId;
  }

  /** The ids of the configured networks, in order (unresolved ones included as tokens). */
  public get networkIds(): string[] {
    return this.networks.map((n) => n.networkId);
  }

  /**
   * Adds a network, validated like those given at construction (duplicates included).
   * @returns this environment, to chain calls
   */
  public addNetwork(network: NetworkConfig): this {
    throwIfProblems(this, [
      ...Environment.networkProblems(network, `addNetwork(${JSON.stringify(network.networkId)})`),
      ...checkRules(NETWORK_LIST_RULES, [...this.networks, network]),
    ]);
    this.networks.push(network);
    this.resource.putNetworkConfig(this.networks.map(toNetworkBlock));
    return this;
  }

  /**
   * The Public RPC URL of the Virtual Environment forking `networkId` (a token).
   * @example
   * new TerraformOutput(this, "mainnet_rpc", { value: env.publicRpcUrl(Network.MAINNET) });
   */
  public publicRpcUrl(networkId: string): string {
    this.reference(networkId);
    return rpcUrl(this.resource, "public_rpc_urls", networkId);
  }

  /**
   * The Admin RPC URL of the Virtual Environment forking `networkId` (a token). It is a secret: Terraform requires
   * outputs of it to be `sensitive: true`.
   */
  public adminRpcUrl(networkId: string): string {
    this.reference(networkId);
    return rpcUrl(this.resource, "admin_rpc_urls", networkId);
  }

  /** Every attribute of the Virtual Environment forking `networkId`, as tokens. */
  public vnet(networkId: string): VnetAttributes {
    this.reference(networkId);
    return vnetOf(this.resource, networkId);
  }

  /** Remembers a network whose attributes are used, checked at synth (networks may still be added until then). */
  private reference(networkId: string): void {
    if (!isToken(networkId)) this.referencedNetworks.add(networkId);
  }
}

/** An environment read with the `chainform_environment` data source. */
class ExistingEnvironment extends Construct implements IEnvironment {
  public readonly resource: dataEnvironment.DataChainformEnvironment;

  public constructor(scope: Construct, id: string, config: dataEnvironment.DataChainformEnvironmentConfig) {
    super(scope, id);
    this.resource = new dataEnvironment.DataChainformEnvironment(this, "Resource", config);
  }

  public get environmentId(): string {
    return this.resource.id;
  }

  public get environmentSlug(): string {
    return this.resource.slug;
  }

  public get instanceId(): string {
    return this.resource.instanceId;
  }

  public publicRpcUrl(networkId: string): string {
    return rpcUrl(this.resource, "public_rpc_urls", networkId);
  }

  public adminRpcUrl(networkId: string): string {
    return rpcUrl(this.resource, "admin_rpc_urls", networkId);
  }

  public vnet(networkId: string): VnetAttributes {
    return vnetOf(this.resource, networkId);
  }
}
