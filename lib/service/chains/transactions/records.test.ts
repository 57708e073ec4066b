/** The transaction record builders: the documented fields from a receipt and the transaction's details. */
import { encodeFunctionData, parseAbi, type Hex } from "../evm/viem";
import { Value } from "@sinclair/typebox/value";
import { Transaction } from "../../../api";
import "../../validation"; // registers the formats the schema check needs
import { cheatcodeTransaction, minedTransaction } from "./records";
import type { VnetChainSpec } from "../types";

const spec: VnetChainSpec = {
  vnetId: "00000000-0000-4000-8000-000000000001",
  environmentId: "00000000-0000-4000-8000-000000000002",
  instanceId: "00000000-0000-4000-8000-000000000003",
  networkId: "1",
  chainId: 1n,
  forkBlockNumber: "0x0",
  accounts: [],
  bridge: null,
  peers: [],
};
const FROM = `0x${"aa".repeat(20)}`;
const TOKEN = `0x${"bb".repeat(20)}`;
const HASH = `0x${"cd".repeat(32)}`;

test("a mined ERC-20 transfer: write/blockchain, its function name, fees and block fields, valid against the schema", () => {
  const input = encodeFunctionData({
    abi: parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]),
    functionName: "transfer",
    args: [FROM as Hex, 5n],
  });
  const record = minedTransaction(
    spec,
    {
      transactionHash: HASH.toUpperCase().replace("0X", "0x"),
      blockNumber: "0x10",
      from: FROM,
      to: TOKEN,
      gasUsed: "0x5208",
      status: "0x0",
      contractAddress: null,
      logs: [],
    },
    {
      value: "0x0",
      input,
      nonce: "0x3",
      gas: "0x7530",
      maxFeePerGas: "0x2",
      maxPriorityFeePerGas: "0x1",
      type: "0x2",
      blockHash: `0x${"ef".repeat(32)}`,
      transactionIndex: "0x0",
    },
    "rpc",
    "eth_sendRawTransaction",
  );
  expect(record).toMatchObject({
    tx_hash: HASH,
    category: "write",
    kind: "blockchain",
    origin: "rpc",
    rpc_method: "eth_sendRawTransaction",
    status: "failed",
    reverted: true,
    error_reason: "execution reverted",
    function_name: "transfer",
    nonce: "0x3",
    gas: "0x7530",
    gas_price: null,
    max_fee_per_gas: "0x2",
    block_number: "0x10",
    tx_index: "0x0",
  });
  expect(Value.Check(Transaction, record)).toBe(true);
});

test("a cheatcode: write/cheatcode, the method as rpc_method, a synthetic unique tx_hash, valid against the schema", () => {
  const a = cheatcodeTransaction(spec, "tenderly_setBalance", [[FROM], "0x1"], "0x5");
  const b = cheatcodeTransaction(spec, "tenderly_setBalance", [[FROM], "0x1"], "0x5");
  expect(a).toMatchObject({
    kind: "cheatcode",
    category: "write",
    rpc_method: "tenderly_setBalance",
    to: FROM,
    status: "success",
    block_hash: null,
  });
  expect(a.tx_hash).not.toBe(b.tx_hash);
  expect(Value.Check(Transaction, a)).toBe(true);
});
