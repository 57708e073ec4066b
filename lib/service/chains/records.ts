/**
 * Builds the service's transaction records (decisions.md) from what a chain answered.
 */
import { randomBytes } from "node:crypto";
import { keccak256, stringToHex, type Hex } from "./viem";
import type { Transaction, TransactionCategory } from "../../spec";
import { decodeLogs } from "./abi";
import type { VnetChainSpec } from "./types";

/** The fields of eth_getTransactionReceipt the records use. */
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

/** The fields of eth_getTransactionByHash the records use. */
export interface TransactionDetails {
  readonly value: string;
  readonly input: string;
}

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
/** The spec's HexData limit. */
const MAX_INPUT_LENGTH = 262_146;

/** The record of a mined transaction. */
export function minedTransaction(
  spec: VnetChainSpec,
  receipt: Receipt,
  details: TransactionDetails,
  category: TransactionCategory,
): Transaction {
  return {
    hash: receipt.transactionHash.toLowerCase(),
    vnet_id: spec.vnetId,
    network_id: spec.networkId,
    block_number: receipt.blockNumber,
    from: receipt.from.toLowerCase(),
    to: receipt.to ? receipt.to.toLowerCase() : null,
    value: details.value,
    input: details.input.length <= MAX_INPUT_LENGTH ? details.input : "0x",
    gas_used: receipt.gasUsed,
    status: receipt.status === "0x1" ? "success" : "failed",
    category,
    kind: receipt.to ? "call" : "create",
    contract_address: receipt.contractAddress ? receipt.contractAddress.toLowerCase() : null,
    logs: decodeLogs(receipt.logs),
    created_at: new Date().toISOString(),
  };
}

/**
 * The record of a state-changing cheatcode. It mined nothing, so its hash is synthetic (random, unique); `from` is
 * the zero address, `to` the account it changed (its first address parameter) and `input` the JSON-RPC call
 * itself, UTF-8 hex-encoded (`{"method":...,"params":[...]}`; params dropped when too long).
 */
export function cheatcodeTransaction(spec: VnetChainSpec, method: string, params: unknown, blockNumber: string): Transaction {
  let input: Hex = stringToHex(JSON.stringify({ method, params }));
  if (input.length > MAX_INPUT_LENGTH) input = stringToHex(JSON.stringify({ method }));
  const target = firstAddress(params);
  return {
    hash: keccak256(`0x${randomBytes(32).toString("hex")}`),
    vnet_id: spec.vnetId,
    network_id: spec.networkId,
    block_number: blockNumber,
    from: ZERO_ADDRESS,
    to: target,
    value: "0x0",
    input,
    gas_used: "0x0",
    status: "success",
    category: "cheatcode",
    kind: "call",
    contract_address: null,
    logs: [],
    created_at: new Date().toISOString(),
  };
}

function firstAddress(params: unknown): string | null {
  const first = Array.isArray(params) ? (Array.isArray(params[0]) ? params[0][0] : params[0]) : undefined;
  return typeof first === "string" && /^0x[0-9a-fA-F]{40}$/.test(first) ? first.toLowerCase() : null;
}
