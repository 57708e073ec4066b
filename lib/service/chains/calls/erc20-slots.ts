/**
 * ERC-20 balances written straight into a token's storage, as the real service's `tenderly_setErc20Balance` and
 * anvil's `anvil_dealERC20` do: find the storage slot that holds a wallet's balance, then set it. anvil 1.7.1's own
 * `anvil_dealERC20` answers "no slot found" for ordinary tokens whose balance mapping is not at slot 0 (measured
 * with contracts/ChainformToken.sol), so the slot is found here: trace `balanceOf(wallet)` for the storage it
 * reads, write a probe value into each slot read, and keep the one that `balanceOf` then returns.
 */
import { JsonRpcError, type JsonRpcClient } from "../wire/json-rpc";
import { keccak256 } from "../evm/viem";

/** JSON-RPC "invalid params": the token is not an ERC-20 token, or an argument is malformed. */
export const INVALID_PARAMS = -32602;

const BALANCE_OF = "0x70a08231";
/** A value no real balance holds, written into candidate slots while probing. */
const PROBE = `0x${"c0ffee".padStart(64, "0")}`;
/** Solidity and Vyper mapping slots tried when the chain cannot trace (a backend without debug_traceCall). */
const FALLBACK_SLOTS = 32;

/** 32-byte hex of a quantity. */
export function word(value: bigint): string {
  return `0x${value.toString(16).padStart(64, "0")}`;
}

/** The `balanceOf(wallet)` of a token; a clear -32602 error when the address is not an ERC-20 token. */
export async function balanceOf(rpc: JsonRpcClient, token: string, wallet: string): Promise<bigint> {
  const code = await rpc.request<string>("eth_getCode", [token, "latest"]);
  if (code === "0x" || code === "") throw notAToken(token, "it has no code (an account, or nothing deployed there yet)");
  let answer: string;
  try {
    answer = await rpc.request<string>("eth_call", [{ to: token, data: balanceOfCall(wallet) }, "latest"]);
  } catch (error) {
    throw notAToken(token, `balanceOf(address) reverted (${(error as Error).message})`);
  }
  if (!/^0x[0-9a-fA-F]{64}$/.test(answer))
    throw notAToken(token, `balanceOf(address) returned ${answer.length > 70 ? `${answer.slice(0, 70)}...` : answer}, not one uint256`);
  return BigInt(answer);
}

/**
 * Sets `wallet`'s balance of `token` to `amount` by writing the balance's storage slot; checks `balanceOf`
 * afterwards and fails when the token computes balances (e.g. a rebasing token) so the write did not take.
 */
export async function setErc20Balance(rpc: JsonRpcClient, token: string, wallet: string, amount: bigint): Promise<void> {
  await balanceOf(rpc, token, wallet);
  const slot = await findBalanceSlot(rpc, token, wallet);
  if (slot === null) {
    throw new JsonRpcError(
      INVALID_PARAMS,
      `cannot set the balance: no storage slot of token ${token} holds the balance of ${wallet} (balanceOf(address) reads none that it returns)`,
    );
  }
  await rpc.request("anvil_setStorageAt", [token, slot, word(amount)]);
  const after = await balanceOf(rpc, token, wallet);
  if (after !== amount) {
    throw new JsonRpcError(
      INVALID_PARAMS,
      `cannot set the balance: token ${token} reports ${after} after writing ${amount} into its balance slot`,
    );
  }
}

/** The storage key of `wallet`'s balance in `token`, or null when none is found. Leaves storage as it was. */
export async function findBalanceSlot(rpc: JsonRpcClient, token: string, wallet: string): Promise<string | null> {
  for (const slot of await candidateSlots(rpc, token, wallet)) {
    const original = await rpc.request<string>("eth_getStorageAt", [token, slot, "latest"]);
    await rpc.request("anvil_setStorageAt", [token, slot, PROBE]);
    let probed: string | null = null;
    try {
      probed = await rpc.request<string>("eth_call", [{ to: token, data: balanceOfCall(wallet) }, "latest"]);
    } catch {
      // this slot broke the token: not the balance
    } finally {
      await rpc.request("anvil_setStorageAt", [token, slot, word(BigInt(original))]);
    }
    if (probed !== null && /^0x[0-9a-fA-F]{64}$/.test(probed) && BigInt(probed) === BigInt(PROBE)) return slot;
  }
  return null;
}

/** The token's storage slots `balanceOf(wallet)` reads, by tracing; computed mapping slots when tracing fails. */
async function candidateSlots(rpc: JsonRpcClient, token: string, wallet: string): Promise<string[]> {
  try {
    const trace = await rpc.request<Record<string, { storage?: Record<string, string> }>>("debug_traceCall", [
      { to: token, data: balanceOfCall(wallet) },
      "latest",
      { tracer: "prestateTracer" },
    ]);
    const entry = Object.entries(trace).find(([address]) => address.toLowerCase() === token.toLowerCase())?.[1];
    const slots = Object.keys(entry?.storage ?? {});
    if (slots.length > 0) return slots;
  } catch {
    // no tracer: fall back to the usual layouts
  }
  const key = wallet.toLowerCase().replace(/^0x/, "").padStart(64, "0");
  const slots: string[] = [];
  for (let i = 0; i < FALLBACK_SLOTS; i += 1) {
    const index = i.toString(16).padStart(64, "0");
    slots.push(keccak256(`0x${key}${index}`), keccak256(`0x${index}${key}`));
  }
  return slots;
}

function balanceOfCall(wallet: string): string {
  return `${BALANCE_OF}${wallet.toLowerCase().replace(/^0x/, "").padStart(64, "0")}`;
}

function notAToken(token: string, why: string): JsonRpcError {
  return new JsonRpcError(INVALID_PARAMS, `${token} is not an ERC-20 token: ${why}`);
}
