import type { VerificationVisibility } from "../domain/environment-rules";

/**
 * Ids of well-known supported networks: the forked network's chain id as a decimal string, as the service's
 * supported-network list and `network_config.network_id` use it. A plain string works wherever these do.
 * @example
 * env.addNetwork({ networkId: Network.BASE });
 */
export class Network {
  /** Ethereum mainnet. */
  public static readonly MAINNET = "1";
  /** Optimism. */
  public static readonly OPTIMISM = "10";
  /** BNB Smart Chain. */
  public static readonly BNB = "56";
  /** Gnosis. */
  public static readonly GNOSIS = "100";
  /** Polygon PoS. */
  public static readonly POLYGON = "137";
  /** zkSync Era. */
  public static readonly ZKSYNC = "324";
  /** Base. */
  public static readonly BASE = "8453";
  /** Arbitrum One. */
  public static readonly ARBITRUM = "42161";
  /** Avalanche C-Chain. */
  public static readonly AVALANCHE = "43114";
  /** Base Sepolia testnet. */
  public static readonly BASE_SEPOLIA = "84532";
  /** Sepolia testnet. */
  public static readonly SEPOLIA = "11155111";

  /** Every well-known network, by name. */
  public static all(): Readonly<Record<string, string>> {
    const { MAINNET, OPTIMISM, BNB, GNOSIS, POLYGON, ZKSYNC, BASE, ARBITRUM, AVALANCHE, BASE_SEPOLIA, SEPOLIA } = Network;
    return { MAINNET, OPTIMISM, BNB, GNOSIS, POLYGON, ZKSYNC, BASE, ARBITRUM, AVALANCHE, BASE_SEPOLIA, SEPOLIA };
  }

  /**
   * The well-known name of a network id, for messages.
   * @returns e.g. `"BASE"`, or `undefined` for an id that is not among the well-known ones
   */
  public static nameOf(networkId: string): string | undefined {
    return Object.entries(Network.all()).find(([, id]) => id === networkId)?.[0];
  }

  private constructor() {}
}

/**
 * An account funded when the environment is created. Write the balance with {@link ether}, {@link gwei} or
 * {@link wei}, or as the provider accepts it: hex wei, decimal wei or `"100ether"`.
 * @example
 * const deployer: PrefundedAccount = { address: "0x1111111111111111111111111111111111111111", balance: ether(100) };
 */
export interface PrefundedAccount {
  /** The account's address: `0x` and 40 hex digits. */
  readonly address: string;
  /** The balance in wei: hex (`0x...`), decimal, or an ether amount such as `"100ether"`. */
  readonly balance: string;
}

/** Explorer settings of one network. */
export interface ExplorerConfig {
  /**
   * Whether the explorer is enabled.
   * @default - the service's default
   */
  readonly enabled?: boolean;
  /**
   * What the explorer shows of verified contracts.
   * @default - the service's default
   */
  readonly verificationVisibility?: VerificationVisibility;
}

/**
 * One network of an environment: a fork of `networkId` served as a Virtual Environment.
 * @example
 * { networkId: Network.MAINNET, chainId: 73571, accounts: [{ address, balance: ether(100) }] }
 */
export interface NetworkConfig {
  /** The network to fork: its chain id as a decimal string, e.g. {@link Network.MAINNET}. */
  readonly networkId: string;
  /**
   * The chain id the Virtual Environment answers with. A distinct one keeps wallets from confusing the fork with
   * the real network. A decimal string (e.g. `"73571"`) is exact at any size; a number only up to 2^53.
   * @default - the forked network's chain id
   */
  readonly chainId?: number | string;
  /**
   * The block to fork at: a non-negative integer, or a string in decimal (`"19500000"`) or hex (`"0x12a05f2"`).
   * @default - the network's latest block
   */
  readonly blockNumber?: string | number;
  /**
   * Accounts funded at creation.
   * @default - none
   */
  readonly accounts?: readonly PrefundedAccount[];
  /**
   * Explorer settings.
   * @default - the service's defaults
   */
  readonly explorer?: ExplorerConfig;
}
