import { paidBy, spentSince, type ChainReceipt, type ChainTransaction, type RpcBatch } from "./account-spending";

const A = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const B = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";

describe("paidBy", () => {
  it("is gas at the effective price plus the value of a successful transaction", () => {
    const transaction = { hash: "0x1", from: A, value: "0x64", gasPrice: "0x9" };
    expect(paidBy(transaction, { status: "0x1", gasUsed: "0x5208", effectiveGasPrice: "0x2" })).toBe(21_000n * 2n + 100n);
  });

  it("is the fee alone when the transaction reverted, and counts blob gas and an OP-stack L1 fee", () => {
    const transaction = { hash: "0x1", from: A, value: "0x64" };
    const receipt: ChainReceipt = {
      status: "0x0",
      gasUsed: "0x10",
      effectiveGasPrice: "0x3",
      blobGasUsed: "0x2",
      blobGasPrice: "0x5",
      l1Fee: "0x7",
    };
    expect(paidBy(transaction, receipt)).toBe(16n * 3n + 2n * 5n + 7n);
  });

  it("falls back to the transaction's gas price when a receipt has no effective one", () => {
    expect(paidBy({ hash: "0x1", from: A, value: "0x0", gasPrice: "0x4" }, { status: "0x1", gasUsed: "0xa" })).toBe(40n);
  });
});

describe("spentSince", () => {
  /** A chain of blocks 100..105 answering a batch the way a node does; counts the blocks asked for. */
  function chain(blocks: Record<number, ChainTransaction[]>, receipts: Record<string, ChainReceipt>) {
    const asked: number[] = [];
    const nonces = new Map<string, number>();
    for (const transactions of Object.values(blocks))
      for (const t of transactions) nonces.set(t.from.toLowerCase(), (nonces.get(t.from.toLowerCase()) ?? 0) + 1);
    const rpc: RpcBatch = async (calls) =>
      calls.map(({ method, params }) => {
        if (method === "eth_blockNumber") return "0x69";
        if (method === "eth_getTransactionCount") return `0x${(nonces.get(String(params[0]).toLowerCase()) ?? 0).toString(16)}`;
        if (method === "eth_getBlockByNumber") {
          const n = Number(BigInt(params[0] as string));
          asked.push(n);
          return n >= 100 && n <= 105 ? { number: params[0], transactions: blocks[n] ?? [] } : null;
        }
        if (method === "eth_getTransactionReceipt") return receipts[params[0] as string] ?? null;
        throw new Error(`unexpected ${method}`);
      });
    return { rpc, asked };
  }

  it("sums each account's own transactions after the block, and nobody else's", async () => {
    // GIVEN A deployed a contract (block 101) and sent a transfer that reverted (block 103); B sent one (block 102)
    const { rpc } = chain(
      {
        101: [{ hash: "0xa1", from: A, value: "0x0" }],
        102: [{ hash: "0xb1", from: B, value: "0x5" }],
        103: [{ hash: "0xa2", from: A.toLowerCase(), value: "0x3e8" }],
      },
      {
        "0xa1": { status: "0x1", gasUsed: "0x100", effectiveGasPrice: "0x2" },
        "0xb1": { status: "0x1", gasUsed: "0x5208", effectiveGasPrice: "0x2" },
        "0xa2": { status: "0x0", gasUsed: "0x5208", effectiveGasPrice: "0x2" },
      },
    );
    // WHEN A's spending since the fork block 100 is read
    const spent = await spentSince(rpc, [A], 100n);
    // THEN it is the gas of both, without the reverted value, and B's transaction is not counted
    expect(spent.get(A.toLowerCase())).toEqual({ wei: 0x100n * 2n + 21_000n * 2n, transactions: 2 });
    expect(spent.has(B.toLowerCase())).toBe(false);
  });

  it("reads no block when the account has sent nothing, and stops once it found every transaction the nonce counts", async () => {
    const { rpc, asked } = chain(
      { 101: [{ hash: "0xa1", from: A, value: "0x0" }] },
      { "0xa1": { status: "0x1", gasUsed: "0x1", effectiveGasPrice: "0x1" } },
    );
    expect(await spentSince(rpc, [B], 100n)).toEqual(new Map([[B.toLowerCase(), { wei: 0n, transactions: 0 }]]));
    expect(asked).toEqual([]);
    expect((await spentSince(rpc, [A], 100n)).get(A.toLowerCase())).toEqual({ wei: 1n, transactions: 1 });
    expect(Math.min(...asked)).toBe(101);
  });
});
