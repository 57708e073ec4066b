/**
 * Builds the service's transaction records (docs/service.md "Transaction record") from what a chain answered.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { keccak256, stringToHex, type Hex } from "../evm/viem";
import type { Transaction, TransactionOrigin } from "../../../api";
import { decodeCall, decodeLogs } from "../evm/abi";
import type { Receipt, TransactionDetails } from "../evm/rpc-answers";
import type { VnetChainSpec } from "../types";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
/** The spec's HexData limit. */
const MAX_INPUT_LENGTH = 262_146;

/**
 * The record of a mined transaction (docs/service.md "Transaction record"): category `write`, kind `blockchain`.
 * `dashboard_url` is filled in by the route that answers (it knows the base URL).
 */
export function minedTransaction(
  spec: VnetChainSpec,
  receipt: Receipt,
  details: TransactionDetails,
  origin: TransactionOrigin,
  rpcMethod: string,
): Transaction {
  const failed = receipt.status !== "0x1";
  const input = details.input.length <= MAX_INPUT_LENGTH ? details.input : "0x";
  const name = details.input.length >= 10 ? decodeCall(details.input, undefined, false, receipt.to ?? undefined).method : "";
  return {
    id: randomUUID(),
    vnet_id: spec.vnetId,
    origin,
    category: "write",
    kind: "blockchain",
    status: failed ? "failed" : "success",
    error_reason: failed ? "execution reverted" : null,
    reverted: failed,
    rpc_method: rpcMethod,
    created_at: new Date().toISOString(),
    dashboard_url: "",
    block_number: receipt.blockNumber,
    block_hash: details.blockHash ?? null,
    tx_hash: receipt.transactionHash.toLowerCase(),
    tx_index: details.transactionIndex ?? null,
    from: receipt.from.toLowerCase(),
    to: receipt.to ? receipt.to.toLowerCase() : null,
    input,
    nonce: details.nonce ?? null,
    value: details.value,
    gas: details.gas ?? null,
    gas_price: details.gasPrice ?? null,
    max_priority_fee_per_gas: details.maxPriorityFeePerGas ?? null,
    max_fee_per_gas: details.maxFeePerGas ?? null,
    type: details.type ?? null,
    function_name: name !== "" && !name.startsWith("0x") ? name : null,
    network_id: spec.networkId,
    gas_used: receipt.gasUsed,
    contract_address: receipt.contractAddress ? receipt.contractAddress.toLowerCase() : null,
    logs: decodeLogs(receipt.logs),
  };
}

/**
 * The record of a state-changing cheatcode: category `write`, kind `cheatcode`, origin `rpc`. It mined nothing, so
 * its `tx_hash` is synthetic (random, unique) and its block fields are null but `block_number` (the head it
 * changed); `from` is the zero address, `to` the account it changed (its first address parameter) and `input` the
 * JSON-RPC call itself, UTF-8 hex-encoded (`{"method":...,"params":[...]}`; params dropped when too long).
 */
export function cheatcodeTransaction(spec: VnetChainSpec, method: string, params: unknown, blockNumber: string): Transaction {
  let input: Hex = stringToHex(JSON.stringify({ method, params }));
  if (input.length > MAX_INPUT_LENGTH) input = stringToHex(JSON.stringify({ method }));
  return {
    id: randomUUID(),
    vnet_id: spec.vnetId,
    origin: "rpc",
    category: "write",
    kind: "cheatcode",
    status: "success",
    error_reason: null,
    reverted: false,
    rpc_method: method,
    created_at: new Date().toISOString(),
    dashboard_url: "",
    block_number: blockNumber,
    block_hash: null,
    tx_hash: keccak256(`0x${randomBytes(32).toString("hex")}`),
    tx_index: null,
    from: ZERO_ADDRESS,
    to: firstAddress(params),
    input,
    nonce: null,
    value: "0x0",
    gas: null,
    gas_price: null,
    max_priority_fee_per_gas: null,
    max_fee_per_gas: null,
    type: null,
    function_name: null,
    network_id: spec.networkId,
    gas_used: "0x0",
    contract_address: null,
    logs: [],
  };
}

function firstAddress(params: unknown): string | null {
  const first = Array.isArray(params) ? (Array.isArray(params[0]) ? params[0][0] : params[0]) : undefined;
  return typeof first === "string" && /^0x[0-9a-fA-F]{40}$/.test(first) ? first.toLowerCase() : null;
}
