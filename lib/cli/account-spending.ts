/**
 * What accounts paid in their own transactions since a block, read from a chain's standard JSON-RPC (blocks with
 * their transactions, then the receipts of the accounts' transactions): the fee of each (gas, blob gas, an OP-stack
 * chain's L1 fee) plus the value it moved when it succeeded. `chainform deploy` and `up` add it back to a
 * prefunded account's balance (lib/cli/verify-rpc.ts explains why).
 */

/** The fields of a transaction (`eth_getBlockByNumber` with full transactions) this module reads. */
export interface ChainTransaction {
  readonly hash: string;
  readonly from: string;
  readonly value?: string | null;
  readonly gasPrice?: string | null;
}

/** The fields of a receipt this module reads; the optional ones exist on some chains and transaction types only. */
export interface ChainReceipt {
  readonly status?: string | null;
  readonly gasUsed: string;
  readonly effectiveGasPrice?: string | null;
  readonly blobGasUsed?: string | null;
  readonly blobGasPrice?: string | null;
  /** OP-stack chains (Base, Optimism): the L1 data fee, paid by the sender besides gas. */
  readonly l1Fee?: string | null;
}

/** A batch of JSON-RPC calls to one chain: the results in the order of `calls`. */
export type RpcBatch = (calls: readonly { method: string; params: unknown[] }[]) => Promise<unknown[]>;

/** Blocks asked for in one batch. */
const BLOCKS_PER_BATCH = 50;

const quantity = (value: string | null | undefined): bigint => (typeof value === "string" && value !== "" ? BigInt(value) : 0n);

/**
 * What one transaction cost its sender: gas used at the effective gas price (the legacy gas price where a receipt
 * has none), blob gas, an L1 fee, plus its value when it succeeded (a reverted transaction moves no value).
 * @example
 * paidBy({ hash: "0x1", from: "0xaa", value: "0x0", gasPrice: "0x1" }, { status: "0x1", gasUsed: "0x5208", effectiveGasPrice: "0x3b9aca00" }) // 21000n * 10n ** 9n
 */
export function paidBy(transaction: ChainTransaction, receipt: ChainReceipt): bigint {
  const gasPrice = quantity(receipt.effectiveGasPrice ?? transaction.gasPrice);
  const fee =
    quantity(receipt.gasUsed) * gasPrice + quantity(receipt.blobGasUsed) * quantity(receipt.blobGasPrice) + quantity(receipt.l1Fee);
  const succeeded = receipt.status === undefined || receipt.status === null || quantity(receipt.status) === 1n;
  return fee + (succeeded ? quantity(transaction.value) : 0n);
}

/**
 * What each of `accounts` paid in the transactions it sent in blocks after `afterBlock`, up to the latest. Reads
 * blocks in batches and stops early once it has found as many transactions of each account as its nonce says it
 * sent (a nonce also counts what a forked network's account sent before the fork, so then it reads to the latest).
 * @returns paid wei and the number of transactions, by lower-cased address
 * @example
 * await spentSince(batch, ["0x90f7..."], 21_500_000n) // Map { "0x90f7..." => { wei: 1769784000000000n, transactions: 1 } }
 */
export async function spentSince(
  rpc: RpcBatch,
  accounts: readonly string[],
  afterBlock: bigint,
): Promise<Map<string, { wei: bigint; transactions: number }>> {
  const wanted = [...new Set(accounts.map((a) => a.toLowerCase()))];
  const [latestHex, ...nonces] = (await rpc([
    { method: "eth_blockNumber", params: [] },
    ...wanted.map((address) => ({ method: "eth_getTransactionCount", params: [address, "latest"] })),
  ])) as string[];
  const left = new Map(wanted.map((address, i) => [address, Number(BigInt(nonces[i]))]));
  const sent: ChainTransaction[] = [];
  const latest = BigInt(latestHex);
  for (let first = afterBlock + 1n; first <= latest && [...left.values()].some((n) => n > 0); first += BigInt(BLOCKS_PER_BATCH)) {
    const numbers: bigint[] = [];
    for (let n = first; n <= latest && n < first + BigInt(BLOCKS_PER_BATCH); n++) numbers.push(n);
    const blocks = (await rpc(numbers.map((n) => ({ method: "eth_getBlockByNumber", params: [`0x${n.toString(16)}`, true] })))) as ({
      transactions?: (ChainTransaction | string)[];
    } | null)[];
    for (const block of blocks) {
      for (const transaction of block?.transactions ?? []) {
        if (typeof transaction === "string") continue;
        const from = transaction.from.toLowerCase();
        if (!left.has(from)) continue;
        sent.push(transaction);
        left.set(from, (left.get(from) ?? 0) - 1);
      }
    }
  }
  const receipts =
    sent.length === 0
      ? []
      : ((await rpc(sent.map((t) => ({ method: "eth_getTransactionReceipt", params: [t.hash] })))) as (ChainReceipt | null)[]);
  const spent = new Map(wanted.map((address) => [address, { wei: 0n, transactions: 0 }]));
  sent.forEach((transaction, i) => {
    const receipt = receipts[i];
    if (!receipt) return; // not mined: it has cost nothing yet
    const entry = spent.get(transaction.from.toLowerCase())!;
    entry.wei += paidBy(transaction, receipt);
    entry.transactions++;
  });
  return spent;
}
