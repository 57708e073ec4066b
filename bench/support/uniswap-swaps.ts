/**
 * The write-heavy shape of `npm run bench -- rpc` (issue 52): Uniswap V2 deployed from its npm artifacts
 * (@uniswap/v2-core's factory and test ERC20, @uniswap/v2-periphery's WETH9 and router), liquidity added, then
 * `SWAPS` swaps with viem, each signed locally and sent with `eth_sendRawTransaction`, then its receipt asked for
 * until it comes: a dapp's test suite that writes. Directions alternate (ETH for tokens, tokens for ETH).
 */
import { readFileSync } from "node:fs";
import { createPublicClient, encodeDeployData, encodeFunctionData, http, privateKeyToAccount, type Hex } from "../../test/helpers/viem";

/** Swaps per run. */
export const SWAPS = 100;

interface Artifact {
  readonly abi: readonly Record<string, unknown>[];
  readonly bytecode: string;
}
const artifact = (path: string) => JSON.parse(readFileSync(require.resolve(path), "utf8")) as Artifact;
const FACTORY = artifact("@uniswap/v2-core/build/UniswapV2Factory.json");
const TOKEN = artifact("@uniswap/v2-core/build/ERC20.json");
const WETH9 = artifact("@uniswap/v2-periphery/build/WETH9.json");
const ROUTER = artifact("@uniswap/v2-periphery/build/UniswapV2Router02.json");
const MAX = 2n ** 256n - 1n;
const DEADLINE = 2n ** 40n;
/** Gas of a swap, and of a deployment or the first liquidity (which creates the pair). */
const GAS = 400_000n;
const SET_UP_GAS = 6_000_000n;

type Client = ReturnType<typeof createPublicClient>;

/** The deployed contracts, and the sender. */
export interface Uniswap {
  readonly router: Hex;
  readonly weth: Hex;
  readonly token: Hex;
}

/** A signer that keeps its own nonce, as a suite's wallet does between its sends. */
class Signer {
  private readonly account;
  private nonce = 0;
  private maxFeePerGas = 0n;
  constructor(
    key: Hex,
    private readonly chainId: number,
  ) {
    this.account = privateKeyToAccount(key);
  }

  get address(): Hex {
    return this.account.address;
  }

  /** Reads the nonce and fee once, before a run. */
  async prepare(client: Client): Promise<void> {
    this.nonce = await client.getTransactionCount({ address: this.account.address, blockTag: "pending" });
    const block = await client.getBlock({ blockTag: "latest" });
    this.maxFeePerGas = (block.baseFeePerGas ?? 1_000_000_000n) * 4n + 1_000_000_000n;
  }

  /** Signs and sends one transaction, then asks for its receipt until it comes; throws when it reverted. */
  async send(client: Client, to: Hex | null, data: Hex, value = 0n, gas = GAS): Promise<{ contractAddress?: Hex | null }> {
    const serializedTransaction = await this.account.signTransaction({
      chainId: this.chainId,
      type: "eip1559",
      nonce: this.nonce,
      gas,
      maxFeePerGas: this.maxFeePerGas,
      maxPriorityFeePerGas: 1_000_000_000n,
      ...(to !== null && { to }),
      data,
      value,
    });
    this.nonce += 1;
    const hash = await client.sendRawTransaction({ serializedTransaction });
    const deadline = performance.now() + 10_000;
    for (;;) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
      if (receipt) {
        if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
        return receipt;
      }
      if (performance.now() > deadline) throw new Error(`no receipt for ${hash} in 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}

/** Calldata of a function of an artifact's ABI (the artifacts' ABIs are JSON, so viem cannot type them). */
const calldata = (what: Artifact, functionName: string, args: unknown[]): Hex =>
  encodeFunctionData({ abi: what.abi, functionName, args } as unknown as Parameters<typeof encodeFunctionData>[0]);

const clientOf = (url: string) => createPublicClient({ transport: http(url, { retryCount: 0 }) });

/** Deploys Uniswap V2 and a token through `url`, signed by `key`, and adds liquidity (100 ETH's worth of the funded 100: 10). */
export async function deployUniswap(url: string, key: Hex): Promise<Uniswap> {
  const client = clientOf(url);
  const signer = new Signer(key, await client.getChainId());
  await signer.prepare(client);
  const deploy = async (what: Artifact, args: unknown[] = []) => {
    const data = encodeDeployData({ abi: what.abi, bytecode: `0x${what.bytecode}`, args } as unknown as Parameters<
      typeof encodeDeployData
    >[0]);
    return (await signer.send(client, null, data, 0n, SET_UP_GAS)).contractAddress!;
  };
  const weth = await deploy(WETH9);
  const factory = await deploy(FACTORY, [signer.address]);
  const router = await deploy(ROUTER, [factory, weth]);
  const token = await deploy(TOKEN, [10n ** 27n]);
  await signer.send(client, token, calldata(TOKEN, "approve", [router, MAX]));
  const liquidity = calldata(ROUTER, "addLiquidityETH", [token, 10n ** 24n, 0n, 0n, signer.address, DEADLINE]);
  await signer.send(client, router, liquidity, 10n ** 19n, SET_UP_GAS); // creates the pair
  return { router, weth, token };
}

/** `count` swaps through `url`, one after another, each sent raw and its receipt waited for: the time (ms). */
export async function swaps(url: string, key: Hex, at: Uniswap, count = SWAPS): Promise<number> {
  const client = clientOf(url);
  const signer = new Signer(key, await client.getChainId());
  await signer.prepare(client);
  const ethForTokens = calldata(ROUTER, "swapExactETHForTokens", [1n, [at.weth, at.token], signer.address, DEADLINE]);
  const tokensForEth = calldata(ROUTER, "swapExactTokensForETH", [10n ** 18n, 1n, [at.token, at.weth], signer.address, DEADLINE]);
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    if (i % 2 === 0) await signer.send(client, at.router, ethForTokens, 10n ** 15n);
    else await signer.send(client, at.router, tokensForEth);
  }
  return performance.now() - started;
}
