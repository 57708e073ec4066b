/**
 * The real service's Admin RPC methods (docs/admin-rpc.md lists them with their parameter shapes and sources), on
 * an anvil chain. anvil answers some under their own names (`tenderly_setBalance` with one address, `evm_snapshot`,
 * `evm_revert`, `eth_sendTransaction` from any address with `--auto-impersonate`); the others are translated here
 * into anvil's cheatcodes, with the real service's parameters and results.
 */
import { MAX_UINT256 } from "../../../domain/amounts";
import { JsonRpcError, type JsonRpcClient } from "../wire/json-rpc";
import { INVALID_PARAMS, balanceOf, setErc20Balance } from "./erc20-slots";

/** Runs one Admin RPC method on a chain and returns its result; throws `JsonRpcError` for the caller's answer. */
export type AdminMethod = (rpc: JsonRpcClient, params: readonly unknown[]) => Promise<unknown>;

/** Most blocks one `evm_increaseBlocks` mines (anvil mines them one by one). */
const MAX_BLOCKS = 100_000n;

/** The Admin RPC methods chainform implements itself, by name. */
export const ADMIN_METHODS: Readonly<Record<string, AdminMethod>> = {
  tenderly_setBalance: (rpc, params) => eachAddress(rpc, "anvil_setBalance", params),
  tenderly_addBalance: (rpc, params) => eachAddress(rpc, "anvil_addBalance", params),

  async tenderly_setErc20Balance(rpc, params) {
    const [token, wallets, amount] = expect(params, 3, "[token, wallet or [wallets], amount]");
    for (const wallet of addresses(wallets, 1)) await setErc20Balance(rpc, address(token, 0), wallet, quantity(amount, 2, MAX_UINT256));
    return null;
  },
  async tenderly_addErc20Balance(rpc, params) {
    const [token, wallets, amount] = expect(params, 3, "[token, wallet or [wallets], amount]");
    const tokenAddress = address(token, 0);
    const added = quantity(amount, 2, MAX_UINT256);
    for (const wallet of addresses(wallets, 1)) {
      const total = (await balanceOf(rpc, tokenAddress, wallet)) + added;
      if (total > MAX_UINT256) throw invalid(`the balance of ${wallet} would exceed 2^256 - 1`);
      await setErc20Balance(rpc, tokenAddress, wallet, total);
    }
    return null;
  },
  async tenderly_setMaxErc20Balance(rpc, params) {
    const [token, wallet] = expect(params, 2, "[token, wallet]");
    await setErc20Balance(rpc, address(token, 0), address(wallet, 1), MAX_UINT256);
    return null;
  },

  async tenderly_setStorageAt(rpc, params) {
    const [account, slot, value] = expect(params, 3, "[address, slot, value]");
    await rpc.request("anvil_setStorageAt", [address(account, 0), word(slot, 1), word(value, 2)]);
    return null;
  },
  async tenderly_setCode(rpc, params) {
    const [account, code] = expect(params, 2, "[address, code]");
    if (typeof code !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(code))
      throw invalid("params[1] must be the code as 0x-prefixed hex bytes");
    await rpc.request("anvil_setCode", [address(account, 0), code]);
    return null;
  },
  async tenderly_setNonce(rpc, params) {
    const [account, nonce] = expect(params, 2, "[address, nonce]");
    await rpc.request("anvil_setNonce", [address(account, 0), hex(quantity(nonce, 1, (1n << 64n) - 1n))]);
    return null;
  },

  // Time and blocks: the real service mines a block for evm_increaseTime and evm_setNextBlockTimestamp and answers
  // its hash (or the timestamp); tenderly_setNextBlockTimestamp only sets the next block's time.
  async evm_increaseTime(rpc, params) {
    const [seconds] = expect(params, 1, "[seconds]");
    await rpc.request("evm_increaseTime", [Number(quantity(seconds, 0, BigInt(Number.MAX_SAFE_INTEGER)))]);
    await rpc.request("evm_mine", []);
    return latestBlockHash(rpc);
  },
  async evm_increaseBlocks(rpc, params) {
    const [blocks] = expect(params, 1, "[number of blocks]");
    const count = quantity(blocks, 0, MAX_BLOCKS);
    if (count === 0n) throw invalid("params[0] must be at least 1 block");
    await rpc.request("anvil_mine", [hex(count)]);
    return latestBlockHash(rpc);
  },
  async evm_setNextBlockTimestamp(rpc, params) {
    const timestamp = await setNextTimestamp(rpc, params);
    await rpc.request("evm_mine", []);
    return timestamp;
  },
  tenderly_setNextBlockTimestamp: (rpc, params) => setNextTimestamp(rpc, params),
  // anvil forgets a snapshot once reverted to; the real service's test-suite pattern (snapshot once, revert before
  // each test) needs it again, so a revert re-takes it and the caller's id keeps pointing at the same state.
  async evm_snapshot(rpc) {
    return rpc.request<string>("evm_snapshot", []);
  },
  async evm_revert(rpc, params) {
    const [id] = expect(params, 1, "[snapshot id]");
    if (typeof id !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(id))
      throw invalid(`params[0] must be a snapshot id such as "0x1", got ${JSON.stringify(id)}`);
    const aliases = snapshotAliases(rpc);
    const reverted = await rpc.request<boolean>("evm_revert", [aliases.get(id) ?? id]);
    if (reverted) aliases.set(id, await rpc.request<string>("evm_snapshot", []));
    else aliases.delete(id);
    return reverted;
  },
  async evm_mine(rpc, params) {
    // `[]`, `[timestamp]`, or hardhat's `[{ timestamp?, blocks? }]`; anvil wants both keys present in the object.
    if (params.length === 0) return rpc.request("evm_mine", []);
    const [options] = params;
    if (options !== null && typeof options === "object" && !Array.isArray(options)) {
      const { timestamp, blocks } = options as { timestamp?: unknown; blocks?: unknown };
      return rpc.request("evm_mine", [
        {
          timestamp: timestamp === undefined || timestamp === null ? null : Number(quantity(timestamp, 0, BigInt(Number.MAX_SAFE_INTEGER))),
          blocks: blocks === undefined || blocks === null ? null : Number(quantity(blocks, 0, MAX_BLOCKS)),
        },
      ]);
    }
    return rpc.request("evm_mine", [Number(quantity(options, 0, BigInt(Number.MAX_SAFE_INTEGER)))]);
  },
};

const aliasesByChain = new WeakMap<JsonRpcClient, Map<string, string>>();

/** A chain's snapshot ids as callers know them, mapped to anvil's current id for the same state. */
function snapshotAliases(rpc: JsonRpcClient): Map<string, string> {
  let aliases = aliasesByChain.get(rpc);
  if (!aliases) aliasesByChain.set(rpc, (aliases = new Map()));
  return aliases;
}

/** Whether chainform answers this method itself rather than passing it to the chain. */
export function isAdminMethod(method: string): boolean {
  return Object.hasOwn(ADMIN_METHODS, method);
}

async function setNextTimestamp(rpc: JsonRpcClient, params: readonly unknown[]): Promise<number> {
  const [timestamp] = expect(params, 1, "[timestamp]");
  const seconds = Number(quantity(timestamp, 0, BigInt(Number.MAX_SAFE_INTEGER)));
  await rpc.request("evm_setNextBlockTimestamp", [seconds]);
  return seconds;
}

async function eachAddress(rpc: JsonRpcClient, method: string, params: readonly unknown[]): Promise<null> {
  const [targets, amount] = expect(params, 2, "[address or [addresses], amount]");
  const wei = hex(quantity(amount, 1, MAX_UINT256));
  for (const target of addresses(targets, 0)) await rpc.request(method, [target, wei]);
  return null;
}

async function latestBlockHash(rpc: JsonRpcClient): Promise<string> {
  const block = await rpc.request<{ hash: string }>("eth_getBlockByNumber", ["latest", false]);
  return block.hash;
}

function expect(params: readonly unknown[], count: number, shape: string): unknown[] {
  if (params.length !== count) throw invalid(`expected ${count} params ${shape}, got ${params.length}`);
  return [...params];
}

function address(value: unknown, index: number): string {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw invalid(`params[${index}] must be an address (0x followed by 40 hex digits), got ${JSON.stringify(value)}`);
  }
  return value.toLowerCase();
}

function addresses(value: unknown, index: number): string[] {
  if (!Array.isArray(value)) return [address(value, index)];
  if (value.length === 0) throw invalid(`params[${index}] must hold at least one address`);
  return value.map((v) => address(v, index));
}

/** A quantity as the real service takes it: hex ("0x15180"), decimal text ("1750074671") or a JSON number. */
function quantity(value: unknown, index: number, max: bigint): bigint {
  let n: bigint | null = null;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) n = BigInt(value);
  else if (typeof value === "string" && /^0x[0-9a-fA-F]{1,64}$/.test(value)) n = BigInt(value);
  else if (typeof value === "string" && /^[0-9]{1,78}$/.test(value)) n = BigInt(value);
  if (n === null)
    throw invalid(`params[${index}] must be a quantity: hex such as "0x15180" or a whole number, got ${JSON.stringify(value)}`);
  if (n > max) throw invalid(`params[${index}] is too large: at most ${max}`);
  return n;
}

/** A 32-byte storage word from any hex up to 32 bytes (the real service pads slots and values). */
function word(value: unknown, index: number): string {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(value))
    throw invalid(`params[${index}] must be hex of at most 32 bytes, got ${JSON.stringify(value)}`);
  return `0x${value.slice(2).toLowerCase().padStart(64, "0")}`;
}

function hex(n: bigint): string {
  return `0x${n.toString(16)}`;
}

function invalid(message: string): JsonRpcError {
  return new JsonRpcError(INVALID_PARAMS, message);
}
