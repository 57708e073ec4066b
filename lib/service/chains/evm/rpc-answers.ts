/**
 * What a chain answers, typed with the members the engine reads: a transaction's receipt and details, and a block
 * header. Plain JSON-RPC shapes, shared by the transaction records, the journal and the bridge.
 */

/** The fields of eth_getTransactionReceipt the engine reads. */
export interface Receipt {
  readonly transactionHash: string;
  readonly blockNumber: string;
  readonly from: string;
  readonly to: string | null;
  readonly gasUsed: string;
  readonly status: string;
  readonly contractAddress: string | null;
  readonly logs: readonly { address: string; topics: readonly string[]; data: string }[];
}

/** The fields of eth_getTransactionByHash the engine reads. */
export interface TransactionDetails {
  readonly from?: string;
  readonly value: string;
  readonly input: string;
  readonly nonce?: string;
  readonly gas?: string;
  readonly gasPrice?: string;
  readonly maxFeePerGas?: string;
  readonly maxPriorityFeePerGas?: string;
  readonly type?: string;
  readonly blockHash?: string | null;
  readonly transactionIndex?: string | null;
}

/** A block as `eth_getBlockByNumber` answers it (the members the journal and the records read). */
export interface RpcBlock {
  readonly number: string;
  readonly timestamp: string;
  readonly hash: string;
  readonly baseFeePerGas?: string;
}
