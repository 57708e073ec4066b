import { Token } from "cdktf";
import { Construct } from "constructs";
import * as dataEnvironment from "./generated/data-chainform-environment";
import * as environment from "./generated/environment";
import { normalizeBalance } from "../domain/amounts";
import type { BridgeConfig } from "./bridge";
import { Contract, type DeployContractProps } from "./contract";
import { EnvironmentBase, type IEnvironment } from "./environment-base";

export { EnvironmentBase, type IEnvironment, type VnetAttributes } from "./environment-base";
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
   * The id of an environment to clone (chainform's local service): this environment's chains start from that one's
   * current state (contracts, storage, balances, records) and then live on their own. The clone takes the source's
   * settings, so `networks` must name the source's networks, in its order. Changing it replaces the environment.
   * @example
   * new Environment(this, "bug", { displayName: "bug 123", cloneFrom: shared.environmentId, networks: [{ networkId: Network.BASE }] });
   * @default - a new environment, not a clone
   */
  readonly cloneFrom?: string;
  /**
   * The provider configuration to use.
   * @default - the stack's default chainform provider
   */
  readonly provider?: ProviderRef;
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
export class Environment extends EnvironmentBase {
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
      cloneFrom: props.cloneFrom,
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

  /** Remembers a network whose attributes are used, checked at synth (networks may still be added until then). */
  protected override reference(networkId: string): void {
    if (!isToken(networkId)) this.referencedNetworks.add(networkId);
  }
}

/** An environment read with the `chainform_environment` data source. */
class ExistingEnvironment extends EnvironmentBase {
  public readonly resource: dataEnvironment.DataChainformEnvironment;

  public constructor(scope: Construct, id: string, config: dataEnvironment.DataChainformEnvironmentConfig) {
    super(scope, id);
    this.resource = new dataEnvironment.DataChainformEnvironment(this, "Resource", config);
  }
}
