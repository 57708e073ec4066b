/**
 * Calls as a person reads them, for the errors of calls a fork cannot answer: `eth_getStorageAt of account 0x… slot
 * 0x… at block 123 of network 1`. What a test reads that nobody recorded is then plain from the error alone.
 */

/** Where each read method takes its block (the index of its block parameter). */
const BLOCK_PARAM: Readonly<Record<string, number>> = {
  eth_getBalance: 1,
  eth_getTransactionCount: 1,
  eth_getCode: 1,
  eth_getAccountInfo: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  debug_traceCall: 1,
};

/** The block a call asks (its block parameter, when it is a number), else the fork point. */
export function askedBlock(method: string, params: unknown, forkBlock: bigint): bigint {
  const index = BLOCK_PARAM[method];
  const value = index === undefined || !Array.isArray(params) ? undefined : params[index];
  if (typeof value === "string" && /^0x[0-9a-f]{1,16}$/i.test(value)) return BigInt(value);
  const number = (value as { blockNumber?: unknown } | undefined)?.blockNumber;
  if (typeof number === "string" && /^0x[0-9a-f]{1,16}$/i.test(number)) return BigInt(number);
  return forkBlock;
}

/**
 * A call as a person reads it, naming the block it asked (`cast call --block 5` on a fork at block 9 names block 5).
 *
 * @example
 * describeCall("eth_getCode", ["0xaa", "0x2"], "1", 9n) // "eth_getCode of account 0xaa at block 2 of network 1"
 */
export function describeCall(method: string, params: unknown, networkId: string, block: bigint): string {
  const p = Array.isArray(params) ? params : [];
  const at = `at block ${askedBlock(method, params, block)} of network ${networkId}`;
  switch (method) {
    case "eth_getBalance":
    case "eth_getTransactionCount":
    case "eth_getCode":
    case "eth_getAccountInfo":
      return `${method} of account ${String(p[0])} ${at}`;
    case "eth_getStorageAt":
      return `${method} of account ${String(p[0])} slot ${String(p[1])} ${at}`;
    case "eth_getBlockByNumber":
    case "eth_getBlockByHash":
      return `${method} of block ${String(p[0])} (network ${networkId}, forked at block ${block})`;
    case "eth_getTransactionByHash":
    case "eth_getTransactionReceipt":
      return `${method} of transaction ${String(p[0])} ${at}`;
    default: {
      const shown = JSON.stringify(p);
      return `${method} ${shown.length > 200 ? `${shown.slice(0, 200)}...` : shown} ${at}`;
    }
  }
}
