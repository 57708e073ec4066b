/**
 * Deploying and calling contracts through an Admin RPC URL (unlocked senders), and a small ERC-20 of ours ("Test
 * Token", TT, 18 decimals) compiled with the solc chainform ships, for the readable-transaction tests.
 */
import { rpc } from "./http";
import type { Hex } from "./viem";

/** An npm artifact of Uniswap's (bytecode without 0x). */
export interface Artifact {
  readonly abi: readonly Record<string, unknown>[];
  readonly bytecode: string;
}

/** A mined transaction's receipt, the fields the tests read. */
export interface Receipt {
  readonly hash: string;
  readonly status: string;
  readonly contractAddress: string | null;
}

/** Sends a transaction from an unlocked address and waits for its receipt; throws when it reverted. */
export async function send(adminRpc: string, from: string, to: string | null, data: string, value = 0n): Promise<Receipt> {
  const hash = await rpc<string>(adminRpc, "eth_sendTransaction", [
    { from, ...(to ? { to } : {}), data, value: `0x${value.toString(16)}`, gas: "0x7a1200" },
  ]);
  let receipt: { status: string; contractAddress: string | null } | null = null;
  while (!(receipt = await rpc(adminRpc, "eth_getTransactionReceipt", [hash]))) await new Promise((r) => setTimeout(r, 50));
  if (receipt.status !== "0x1") throw new Error(`transaction ${hash} reverted`);
  return { hash, status: receipt.status, contractAddress: receipt.contractAddress };
}

/** Deploys creation code; answers the new contract's address (lowercase). */
export async function deploy(adminRpc: string, from: string, creationCode: string): Promise<string> {
  const receipt = await send(adminRpc, from, null, creationCode);
  return receipt.contractAddress!.toLowerCase();
}

const TOKEN_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract TestToken {
    string public name = "Test Token";
    string public symbol = "TT";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    constructor(uint256 supply) { totalSupply = supply; balanceOf[msg.sender] = supply; emit Transfer(address(0), msg.sender, supply); }
    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value; emit Approval(msg.sender, spender, value); return true;
    }
    function transfer(address to, uint256 value) external returns (bool) { _move(msg.sender, to, value); return true; }
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value; _move(from, to, value); return true;
    }
    function _move(address from, address to, uint256 value) private {
        balanceOf[from] -= value; balanceOf[to] += value; emit Transfer(from, to, value);
    }
}
`;

/** The test token's ABI and creation code. */
export function compileToken(): { abi: readonly Record<string, unknown>[]; bytecode: Hex } {
  const solc = require("solc") as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "TestToken.sol": { content: TOKEN_SOURCE } },
        settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
      }),
    ),
  ) as { contracts: Record<string, Record<string, { abi: Record<string, unknown>[]; evm: { bytecode: { object: string } } }>> };
  const contract = output.contracts["TestToken.sol"]!.TestToken!;
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}
