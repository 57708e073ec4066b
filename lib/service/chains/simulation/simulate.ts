/**
 * Simulations that keep nothing: the transaction is traced with `debug_traceCall` (callTracer with logs, and
 * prestateTracer in diff mode for state changes) on the chosen block with the block and state overrides applied.
 * No block is mined and no state is written, so the chain head and state are untouched by construction.
 *
 * Semantics (as eth_call): the transaction runs on the state after block `blockNumber` (default: the head) and
 * sees `block.number` = that block unless `blockOverrides.number` says otherwise; the result's `blockNumber` is the
 * number it saw. Gas is not charged (as in eth_call), so balances change only by the value moved; the asset and
 * balance changes (lib/domain/asset-changes.ts) count the fee at the price the call names, as a mined one pays it.
 */
import type { CallArgs, InstanceSimulationResult, StateChange, VnetSimulationRequest, VnetSimulationResult } from "../../../api";
import { tracedAssetChanges } from "../../../domain/token-metadata";
import { decodeLogs } from "../evm/abi";
import { JsonRpcError, type JsonRpcClient } from "../wire/json-rpc";
import { collectLogs, flattenTrace, logsBloom, type CallFrame } from "../evm/trace";
import { ChainRequestError } from "../types";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** A prestateTracer diffMode answer. */
export interface PrestateDiff {
  readonly pre: Record<string, AccountState>;
  readonly post: Record<string, AccountState>;
}
/** The prestateTracer in diff mode: the balances, nonces, code and storage a transaction changed. */
export const PRESTATE_DIFF = { tracer: "prestateTracer", tracerConfig: { diffMode: true } } as const;

/**
 * Whether a mined transaction's diff is its own: such a transaction always moved its sender's nonce, so a diff without
 * that is what a reloaded chain answers for a block it can no longer run again.
 */
export function isOwnDiff(diff: PrestateDiff | null, sender: string): diff is PrestateDiff {
  if (!diff || typeof diff.pre !== "object" || diff.pre === null || typeof diff.post !== "object" || diff.post === null) return false;
  const from = sender.toLowerCase();
  return Object.entries(diff.post).some(([address, state]) => address.toLowerCase() === from && state?.nonce !== undefined);
}

interface AccountState {
  readonly balance?: string;
  readonly nonce?: number;
  readonly code?: string;
  readonly storage?: Record<string, string>;
}

/** An account override of debug_traceCall (geth's format): what the state is before the call runs. */
export interface AccountOverride {
  balance?: string;
  nonce?: string;
  code?: string;
  stateDiff?: Record<string, string>;
}

/** What project-level simulations add to a Virtual Environment simulation. */
export interface SimulationExtras {
  /** EIP-2930 access list sent with the call. */
  readonly accessList?: readonly { address: string; storageKeys: readonly string[] }[];
  /** State to start from (the effects of the block's earlier transactions), under the request's own overrides. */
  readonly priorState?: Readonly<Record<string, AccountOverride>>;
  /** EIP-1559 fee caps (hex), sent when the call has no `gasPrice`. */
  readonly feeCaps?: { readonly maxFeePerGas?: string; readonly maxPriorityFeePerGas?: string };
  /** Given the raw prestateTracer diff of the transaction (a bundle builds the next transaction's state on it). */
  readonly onDiff?: (diff: PrestateDiff) => void;
}

/** Simulates on a chain; with `stateChanges`, also reports what the transaction would write. */
export async function simulate(
  rpc: JsonRpcClient,
  request: VnetSimulationRequest,
  withStateChanges: true,
  extras?: SimulationExtras,
): Promise<InstanceSimulationResult>;
export async function simulate(
  rpc: JsonRpcClient,
  request: VnetSimulationRequest,
  withStateChanges: false,
  extras?: SimulationExtras,
): Promise<VnetSimulationResult>;
export async function simulate(
  rpc: JsonRpcClient,
  request: VnetSimulationRequest,
  withStateChanges: boolean,
  extras: SimulationExtras = {},
): Promise<VnetSimulationResult | InstanceSimulationResult> {
  const args = request.callArgs ?? {};
  const baseBlock = request.blockNumber ?? (await rpc.request<string>("eth_blockNumber"));
  const blockNumber = request.blockOverrides?.number ?? baseBlock;
  const time = request.blockOverrides?.timestamp ?? request.blockOverrides?.time;
  const stateOverrides: Record<string, AccountOverride> = structuredClone({ ...extras.priorState });
  for (const [address, override] of Object.entries(request.stateOverrides ?? {})) {
    if (override.balance !== undefined) (stateOverrides[address.toLowerCase()] ??= {}).balance = override.balance;
  }
  const overrides = { blockOverrides: { number: blockNumber, ...(time ? { time } : {}) }, stateOverrides };
  const call = {
    from: args.from ?? ZERO_ADDRESS,
    ...(args.to ? { to: args.to } : {}),
    ...(args.gas ? { gas: args.gas } : {}),
    ...(args.gasPrice ? { gasPrice: args.gasPrice } : {}),
    ...(args.value ? { value: args.value } : {}),
    data: args.data ?? "0x",
    ...(extras.accessList ? { accessList: extras.accessList } : {}),
    ...(args.gasPrice ? {} : feeCapsOf(extras.feeCaps)),
  };
  const trace = (tracer: object) =>
    rpc.request("debug_traceCall", [call, baseBlock, { ...tracer, ...overrides }]).catch((error: unknown) => {
      throw simulationError(error, request.blockNumber !== undefined);
    });
  const [frame, diff] = await Promise.all([
    trace({ tracer: "callTracer", tracerConfig: { withLog: true } }) as Promise<CallFrame>,
    withStateChanges || extras.onDiff ? (trace(PRESTATE_DIFF) as Promise<PrestateDiff>) : null,
  ]);
  if (diff) extras.onDiff?.(diff);
  const logs = collectLogs(frame);
  // The sender pays for gas at the price the call names (none named, none paid: as eth_call).
  const fee = BigInt(frame.gasUsed ?? "0x0") * BigInt(args.gasPrice ?? "0x0");
  const changes = await tracedAssetChanges(
    // On the state the call ran on: a bundle's earlier transactions may have made the token.
    (to, data, tag) =>
      rpc.request<string>("eth_call", [{ to, data }, tag, ...(Object.keys(stateOverrides).length > 0 ? [stateOverrides] : [])]),
    frame,
    call.from,
    fee,
    baseBlock,
  );
  const result: VnetSimulationResult = {
    blockNumber: normalizeQuantity(blockNumber),
    cumulativeGasUsed: frame.gasUsed ?? "0x0",
    gasUsed: frame.gasUsed ?? "0x0",
    logs: decodeLogs(logs),
    logsBloom: logsBloom(logs),
    status: !frame.error,
    trace: flattenTrace(frame),
    type: args.gasPrice ? "0x0" : "0x2",
    assetChanges: changes.asset_changes,
    balanceChanges: changes.balance_changes,
  };
  return diff && withStateChanges ? { ...result, stateChanges: stateChanges(diff) } : result;
}

/** One transaction of a bundle: its call arguments and what a simulation adds to them. */
export interface BundleCall {
  readonly callArgs: CallArgs;
  readonly accessList?: SimulationExtras["accessList"];
  readonly feeCaps?: SimulationExtras["feeCaps"];
}

/**
 * Simulates transactions in order on one state, keeping nothing: each starts from `overrides` plus the effects (the
 * prestateTracer diffs) of the ones before it, all on block `blockNumber` seen as `number`. Stops after the first
 * transaction that fails, as the hosted service's bundles do: the answer ends with that one.
 */
export async function simulateBundle(
  rpc: JsonRpcClient,
  calls: readonly BundleCall[],
  block: { readonly blockNumber: string; readonly number: string },
  overrides: Readonly<Record<string, AccountOverride>> = {},
): Promise<InstanceSimulationResult[]> {
  const state: Record<string, AccountOverride> = structuredClone({ ...overrides });
  const results: InstanceSimulationResult[] = [];
  for (const call of calls) {
    let written: StateChange[] = [];
    const result = await simulate(
      rpc,
      { callArgs: call.callArgs, blockNumber: block.blockNumber, blockOverrides: { number: block.number } },
      false,
      {
        accessList: call.accessList,
        feeCaps: call.feeCaps,
        priorState: state,
        onDiff: (diff) => {
          written = stateChanges(diff);
          applyDiff(state, diff);
        },
      },
    );
    results.push({ ...result, stateChanges: written });
    if (!result.status) break;
  }
  return results;
}

function feeCapsOf(caps: SimulationExtras["feeCaps"]): Record<string, string> {
  return {
    ...(caps?.maxFeePerGas ? { maxFeePerGas: caps.maxFeePerGas } : {}),
    ...(caps?.maxPriorityFeePerGas ? { maxPriorityFeePerGas: caps.maxPriorityFeePerGas } : {}),
  };
}

/** Adds a transaction's effects (a prestateTracer diff) to the state overrides a later simulation starts from. */
export function applyDiff(state: Record<string, AccountOverride>, diff: PrestateDiff): void {
  for (const [address, post] of Object.entries(diff.post)) {
    const entry = (state[address.toLowerCase()] ??= {});
    if (post.balance !== undefined) entry.balance = post.balance;
    if (post.nonce !== undefined) entry.nonce = hex(post.nonce);
    if (post.code !== undefined) entry.code = post.code;
    const cleared = Object.keys(diff.pre[address]?.storage ?? {}).filter((slot) => post.storage?.[slot] === undefined);
    if (post.storage || cleared.length > 0) {
      entry.stateDiff = { ...entry.stateDiff, ...Object.fromEntries(cleared.map((slot) => [slot, ZERO_WORD])), ...post.storage };
    }
  }
}

/** The balance, nonce and storage writes of a prestateTracer diff, address by address. */
export function stateChanges(diff: PrestateDiff): StateChange[] {
  const changes: StateChange[] = [];
  const addresses = [...new Set([...Object.keys(diff.pre), ...Object.keys(diff.post)])].sort();
  for (const address of addresses) {
    const pre = diff.pre[address] ?? {};
    const post = diff.post[address];
    if (!post) continue; // untouched in diff mode (or self-destructed: code is not a reported field)
    const at = address.toLowerCase();
    if (post.balance !== undefined && post.balance !== pre.balance) {
      changes.push({ address: at, field: "balance", previous: pre.balance ?? "0x0", next: post.balance });
    }
    if (post.nonce !== undefined && post.nonce !== pre.nonce) {
      changes.push({ address: at, field: "nonce", previous: hex(pre.nonce ?? 0), next: hex(post.nonce) });
    }
    const slots = new Set([...Object.keys(pre.storage ?? {}), ...Object.keys(post.storage ?? {})]);
    for (const slot of [...slots].sort()) {
      const previous = pre.storage?.[slot] ?? ZERO_WORD;
      const next = post.storage?.[slot] ?? ZERO_WORD;
      if (previous !== next) changes.push({ address: at, field: "storage", slot, previous, next });
    }
  }
  return changes;
}

const ZERO_WORD = `0x${"0".repeat(64)}`;

function hex(n: number): string {
  return `0x${n.toString(16)}`;
}

function normalizeQuantity(quantity: string): string {
  return `0x${BigInt(quantity).toString(16)}`;
}

function simulationError(error: unknown, blockNumberGiven: boolean): Error {
  if (!(error instanceof JsonRpcError)) return error as Error;
  if (/BlockOutOfRange|block not found|unknown block/i.test(error.message)) {
    return new ChainRequestError(
      400,
      `blockNumber is not available on this chain: ${error.message}`,
      blockNumberGiven ? "/blockNumber" : undefined,
    );
  }
  // The request was valid; the transaction cannot run (insufficient funds, a bad nonce, ...): spec 402.
  return new ChainRequestError(402, `the transaction cannot be simulated: ${error.message}`);
}
