/**
 * What the pages read from a Virtual Environment's chain, through the chain engine's reads that
 * lib/service/web-interface.ts offers (never through the service's HTTP API). Reads only: the Admin access is needed for `debug_traceTransaction`, nothing here changes state.
 */
import type { CallFrame, ChainReads } from "../service/web-interface";
import type { AssetMetadata } from "../domain/asset-changes";
import { readTokenMetadata } from "../domain/token-metadata";

/** A block as `eth_getBlockByNumber(.., true)` answers it (the fields the pages show). */
export interface ChainBlock {
  readonly number: string;
  readonly hash: string;
  readonly timestamp: string;
  readonly gasUsed: string;
  readonly gasLimit: string;
  readonly miner: string;
  readonly transactions: readonly ChainTransaction[];
}

/** A transaction as `eth_getTransactionByHash` answers it. */
export interface ChainTransaction {
  readonly hash: string;
  readonly blockNumber: string | null;
  readonly from: string;
  readonly to: string | null;
  readonly value: string;
  readonly gas: string;
  readonly gasPrice?: string;
  readonly input: string;
  readonly nonce: string;
}

/** A receipt as `eth_getTransactionReceipt` answers it. */
export interface ChainReceipt {
  readonly status: string;
  readonly gasUsed: string;
  /** What each unit of gas cost (EIP-1559 receipts; a legacy transaction's is its gas price). */
  readonly effectiveGasPrice?: string;
  readonly contractAddress: string | null;
  readonly logs: readonly { address: string; topics: readonly string[]; data: string }[];
}

/** An error of a read the page should show as a message (the chain answered with an error). */
export class ChainReadError extends Error {}

/** Reads one Virtual Environment's chain. */
export class ChainReader {
  constructor(
    private readonly chains: ChainReads,
    private readonly vnetId: string,
  ) {}

  /** One JSON-RPC call; a JSON-RPC error becomes a `ChainReadError`. */
  async call<T>(method: string, params: unknown[]): Promise<T> {
    const answer = await this.chains.call(this.vnetId, method, params);
    if ("error" in answer) throw new ChainReadError(`${method}: ${answer.error.message}`);
    return answer.result as T;
  }

  /** The head block number. */
  async head(): Promise<bigint> {
    return BigInt(await this.call<string>("eth_blockNumber", []));
  }

  /** A block with its transactions, or null. */
  block(number: bigint): Promise<ChainBlock | null> {
    return this.call<ChainBlock | null>("eth_getBlockByNumber", [`0x${number.toString(16)}`, true]);
  }

  /** A block's time (seconds since 1970), or null when the chain has no such block. */
  async blockTime(number: string): Promise<bigint | null> {
    const block = await this.call<{ timestamp: string } | null>("eth_getBlockByNumber", [number, false]);
    return block ? BigInt(block.timestamp) : null;
  }

  /** The newest blocks, down to (not below) `lowest`. */
  async latestBlocks(count: number, lowest: bigint): Promise<ChainBlock[]> {
    const head = await this.head();
    const numbers: bigint[] = [];
    for (let n = head; n >= lowest && numbers.length < count; n--) numbers.push(n);
    const blocks = await Promise.all(numbers.map((n) => this.block(n)));
    return blocks.filter((b): b is ChainBlock => b !== null);
  }

  /** A transaction, its receipt and its call tree; null when the chain does not know the hash. */
  async transaction(hash: string): Promise<{ tx: ChainTransaction; receipt: ChainReceipt | null; trace: CallFrame | null } | null> {
    const tx = await this.call<ChainTransaction | null>("eth_getTransactionByHash", [hash]);
    if (!tx) return null;
    const receipt = await this.call<ChainReceipt | null>("eth_getTransactionReceipt", [hash]);
    // The trace kept when it was mined first: a chain reloaded since (idle stop, restart, import) cannot trace it.
    const trace = receipt
      ? (this.chains.storedTrace(this.vnetId, hash) ??
        (await this.call<CallFrame>("debug_traceTransaction", [hash, { tracer: "callTracer", tracerConfig: { withLog: true } }]).catch(
          () => null,
        )))
      : null;
    return { tx, receipt, trace };
  }

  /** Balance (wei), nonce and code of an address at the head. */
  async account(address: string): Promise<{ balance: bigint; nonce: bigint; code: string }> {
    const [balance, nonce, code] = await Promise.all([
      this.call<string>("eth_getBalance", [address, "latest"]),
      this.call<string>("eth_getTransactionCount", [address, "latest"]),
      this.call<string>("eth_getCode", [address, "latest"]),
    ]);
    return { balance: BigInt(balance), nonce: BigInt(nonce), code };
  }

  /**
   * The token's name, symbol and decimals when the contract answers all three (an ERC-20), else undefined; at a block
   * (a hex number) or the head.
   */
  async tokenMetadata(address: string, blockTag = "latest"): Promise<TokenMetadata | undefined> {
    return readTokenMetadata((data) => this.call<string>("eth_call", [{ to: address, data }, blockTag]));
  }

  /** One storage slot of an address at the head (32 bytes, hex). */
  storageAt(address: string, slot: string): Promise<string> {
    return this.call<string>("eth_getStorageAt", [address, slot, "latest"]);
  }

  /** The runtime code at an address ("0x" when none). */
  code(address: string): Promise<string> {
    return this.call<string>("eth_getCode", [address, "latest"]);
  }
}

/** What an ERC-20 contract says of itself. */
export type TokenMetadata = AssetMetadata;

/** Wei as ether, exact (no rounding), e.g. `1.5 ETH`. */
export function formatEther(wei: bigint | string): string {
  const value = typeof wei === "string" ? BigInt(wei) : wei;
  const sign = value < 0n ? "-" : "";
  const abs = value < 0n ? -value : value;
  const whole = abs / 10n ** 18n;
  const fraction = (abs % 10n ** 18n).toString().padStart(18, "0").replace(/0+$/, "");
  return `${sign}${whole}${fraction ? `.${fraction}` : ""} ETH`;
}

/** A hex quantity as a decimal string. */
export function decimal(quantity: string | number | bigint): string {
  return BigInt(quantity).toString();
}
