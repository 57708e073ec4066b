/**
 * What each JSON-RPC method is, for the RPC proxy: allowed on the Public RPC, safe to run beside other reads,
 * sending a transaction, or a state-changing cheatcode to record.
 */

/** The Public RPC answers only standard namespaces (docs/service.md). */
export function isPublicMethod(method: string): boolean {
  return /^(eth|net|web3)_/.test(method);
}

/**
 * Standard-named methods that need an unlocked account. The chain impersonates any sender for the Admin RPC; the
 * Public RPC has no accounts, like a public node, so these answer "unknown account" there.
 */
export const SIGNER_METHODS: ReadonlySet<string> = new Set([
  "eth_sendTransaction",
  "eth_sendTransactionSync",
  "eth_sendUnsignedTransaction",
  "eth_sign",
  "eth_signTransaction",
  "eth_signTypedData",
  "eth_signTypedData_v3",
  "eth_signTypedData_v4",
]);

/** Methods that send a transaction; their result is its hash (or, for the `Sync` ones, its receipt). */
export const TRANSACTION_METHODS: ReadonlySet<string> = new Set([
  "eth_sendTransaction",
  "eth_sendRawTransaction",
  "eth_sendUnsignedTransaction",
  "eth_sendTransactionSync",
  "eth_sendRawTransactionSync",
]);

/** Admin methods that change chain state; recorded as `cheatcode` transactions. */
export const STATE_CHEATCODES: ReadonlySet<string> = new Set([
  "tenderly_setBalance",
  "tenderly_addBalance",
  "tenderly_setErc20Balance",
  "tenderly_addErc20Balance",
  "tenderly_setMaxErc20Balance",
  "tenderly_setStorageAt",
  "tenderly_setCode",
  "tenderly_setNonce",
  "anvil_setBalance",
  "anvil_addBalance",
  "anvil_dealERC20",
  "anvil_setERC20Allowance",
  "anvil_setCode",
  "anvil_setNonce",
  "anvil_setStorageAt",
  "anvil_mine",
  "anvil_mine_detailed",
  "anvil_reset",
  "anvil_loadState",
  "anvil_rollback",
  "anvil_setChainId",
  "anvil_setCoinbase",
  "anvil_setNextBlockBaseFeePerGas",
  "anvil_setMinGasPrice",
  "anvil_setBlockTimestampInterval",
  "anvil_dropTransaction",
  "anvil_dropAllTransactions",
  "anvil_removePoolTransactions",
  "hardhat_setBalance",
  "hardhat_setCode",
  "hardhat_setNonce",
  "hardhat_setStorageAt",
  "hardhat_mine",
  "hardhat_reset",
  "hardhat_setCoinbase",
  "hardhat_setNextBlockBaseFeePerGas",
  "hardhat_setMinGasPrice",
  "evm_mine",
  "evm_revert",
  "evm_setNextBlockTimestamp",
  "evm_increaseTime",
  "evm_setBlockGasLimit",
  "evm_setTime",
  "evm_increaseBlocks",
  "tenderly_setNextBlockTimestamp",
]);

/** Methods that mine blocks: pending transactions may have been included. */
export const MINING_METHODS: ReadonlySet<string> = new Set([
  "evm_mine",
  "anvil_mine",
  "anvil_mine_detailed",
  "hardhat_mine",
  "evm_increaseBlocks",
  "evm_increaseTime",
  "evm_setNextBlockTimestamp",
]);

/**
 * Methods that only read, so they may run beside other reads and simulations. `eth_fillTransaction` (which viem calls
 * before every send, to fill the nonce, gas and fees) only reads and signs nothing.
 */
export function isReadOnlyMethod(method: string): boolean {
  if (TRANSACTION_METHODS.has(method) || SIGNER_METHODS.has(method)) return false;
  return /^(eth_(get|call|estimateGas|fillTransaction|chainId|blockNumber|gasPrice|maxPriorityFeePerGas|feeHistory|blobBaseFee|syncing|protocolVersion|accounts|createAccessList|simulateV1|coinbase|mining|hashrate)|net_|web3_|debug_trace|trace_|ots_)/.test(
    method,
  );
}
