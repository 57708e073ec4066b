/**
 * A Virtual Environment's clock, kept by chainform because anvil does not keep it: `--load-state` starts the chain's
 * clock again from the wall clock (its dump has no time offset and no block interval), so a chain reloaded after an
 * idle stop, a restart, an eviction, an import or a clone would mine its next block before its parent, and time moved
 * by `evm_increaseTime` and its kin would be undone (docs/service.md "A reloaded chain's clock").
 *
 * What is kept, per vnet, in `chain_clocks` (./schema.ts): anvil's time offset (its clock minus the wall clock, in
 * seconds, as `evm_increaseTime` answers it), the block interval `anvil_setBlockTimestampInterval` set, and a next
 * block's timestamp set but not mined yet. It is read from the chain after every acknowledged write that can move the
 * clock, in the same database transaction as the write's journal rows (./recovery.ts `commit`), so it is never older
 * than the journal. After each load (and after the journal is applied again), `restore` sets it back before the chain
 * answers anything: the clock is the wall clock plus the offset, never below the head block's timestamp.
 */
import type { SqlDatabase } from "../../sqlite";
import type { ChainNode } from "../node/backend";
import type { JournalCall } from "./journal";
import type { JsonRpcClient } from "../wire/json-rpc";
import { MINING_METHODS, TRANSACTION_METHODS } from "../evm/methods";

/** A chain's clock as chainform keeps it. */
export interface ChainClock {
  /** anvil's clock minus the wall clock, in seconds. */
  readonly offset: number;
  /** Seconds between blocks set by `anvil_setBlockTimestampInterval`, or null when blocks take the clock's time. */
  readonly interval: number | null;
  /** The timestamp set for the next block and not used yet, or null. */
  readonly nextTimestamp: number | null;
}

/** Calls after which the chain's clock is read again (each may move it, or set what the next block takes). */
const MOVES_TIME: ReadonlySet<string> = new Set([
  "evm_increaseTime",
  "evm_setTime",
  "anvil_setTime",
  "evm_setNextBlockTimestamp",
  "anvil_setNextBlockTimestamp",
  "tenderly_setNextBlockTimestamp",
  "anvil_setBlockTimestampInterval",
  "anvil_removeBlockTimestampInterval",
  "anvil_mine",
  "anvil_mine_detailed",
  "hardhat_mine",
  "evm_mine",
  "evm_revert",
  "anvil_reset",
  "anvil_loadState",
  "anvil_rollback",
]);

/** Calls that set the next block's timestamp without mining it. */
const SETS_NEXT_TIMESTAMP: ReadonlySet<string> = new Set(["anvil_setNextBlockTimestamp", "tenderly_setNextBlockTimestamp"]);

/** The clocks of a service's chains: table `chain_clocks`. */
export class ChainClocks {
  private readonly statements;

  constructor(db: SqlDatabase) {
    this.statements = {
      get: db.prepare("SELECT offset_s, interval_s, next_ts FROM chain_clocks WHERE vnet_id = ?"),
      set: db.prepare("INSERT OR REPLACE INTO chain_clocks (vnet_id, offset_s, interval_s, next_ts) VALUES (?, ?, ?, ?)"),
      forget: db.prepare("DELETE FROM chain_clocks WHERE vnet_id = ?"),
    };
  }

  /** The kept clock of a vnet, or undefined when its clock was never moved. */
  get(vnetId: string): ChainClock | undefined {
    const row = this.statements.get.get(vnetId) as { offset_s: number; interval_s: number | null; next_ts: number | null } | undefined;
    return row && { offset: Number(row.offset_s), interval: nullable(row.interval_s), nextTimestamp: nullable(row.next_ts) };
  }

  /** Keeps a vnet's clock (inside the caller's transaction, when there is one). */
  set(vnetId: string, clock: ChainClock): void {
    this.statements.set.run(vnetId, clock.offset, clock.interval, clock.nextTimestamp);
  }

  /** Forgets a deleted vnet's clock. */
  forget(vnetId: string): void {
    this.statements.forget.run(vnetId);
  }

  /**
   * The clock to keep after acknowledged `calls` (the chain held alone), or undefined when they cannot have moved it:
   * the offset read from the chain, the interval and the pending timestamp worked out from the calls in order.
   */
  async afterCalls(node: ChainNode, vnetId: string, calls: readonly JournalCall[]): Promise<ChainClock | undefined> {
    const kept = this.get(vnetId);
    const mines = (method: string) => MINING_METHODS.has(method) || TRANSACTION_METHODS.has(method);
    if (!calls.some((call) => MOVES_TIME.has(call.method) || (kept?.nextTimestamp != null && mines(call.method)))) return undefined;
    let interval = kept?.interval ?? null;
    let nextTimestamp = kept?.nextTimestamp ?? null;
    for (const { method, params } of calls) {
      if (method === "anvil_setBlockTimestampInterval") interval = seconds(params[0]) ?? interval;
      else if (method === "anvil_removeBlockTimestampInterval") interval = null;
      else if (SETS_NEXT_TIMESTAMP.has(method)) nextTimestamp = seconds(params[0]) ?? nextTimestamp;
      else if (mines(method) || method === "anvil_reset" || method === "evm_revert") nextTimestamp = null;
    }
    return { offset: await readOffset(node.rpc), interval, nextTimestamp };
  }

  /**
   * Sets a freshly loaded chain's clock back (before it answers any caller): the wall clock plus the kept offset, but
   * never below the head block's timestamp, so that the next block is at least its parent's (plus the interval, when
   * one is set); then the interval and the pending next timestamp. A chain whose clock was never moved gets the same
   * floor, since anvil's load starts its clock from the wall clock whatever the head's time.
   */
  async restore(node: ChainNode, vnetId: string): Promise<void> {
    const clock = this.get(vnetId);
    const head = await node.rpc.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
    const headTime = Number(BigInt(head.timestamp));
    const now = Math.floor(Date.now() / 1000);
    const time = Math.max(now + (clock?.offset ?? 0), headTime);
    // Always: anvil's load does not start from the wall clock either when the chain was started with a genesis time.
    await node.rpc.request("anvil_setTime", [time]);
    if (clock?.interval != null) await node.rpc.request("anvil_setBlockTimestampInterval", [clock.interval]);
    if (clock?.nextTimestamp != null && clock.nextTimestamp > headTime)
      await node.rpc.request("evm_setNextBlockTimestamp", [clock.nextTimestamp]);
  }
}

/** anvil's time offset: `evm_increaseTime` by 0 answers it and moves nothing. */
async function readOffset(rpc: JsonRpcClient): Promise<number> {
  return Number(await rpc.request<number | string>("evm_increaseTime", [0]));
}

/** Whole seconds from a call's param (a number, decimal or hex text), or undefined when it is none of those. */
function seconds(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^(0x[0-9a-fA-F]{1,13}|[0-9]{1,15})$/.test(value)) return Number(BigInt(value));
  return undefined;
}

function nullable(value: number | null): number | null {
  return value === null ? null : Number(value);
}

/** The member a fixture's chain state carries its clock in (anvil ignores members it does not know). */
const CLOCK_MEMBER = "chainform_clock";
const CLOCK_AT_END = new RegExp(`"${CLOCK_MEMBER}"\\s*:\\s*(\\{[^{}]*\\})`);
/** How much of a state's end is searched for the clock member. */
const CLOCK_END_BYTES = 512;

/**
 * A chain state (anvil's JSON object) with its clock added as a member near its end, so that the clock travels with
 * the state in a fixture file and a clone.
 */
export function stateWithClock(state: Buffer, clock: ChainClock | undefined): Buffer {
  if (!clock) return state;
  const text = state.subarray(Math.max(0, state.length - CLOCK_END_BYTES)).toString("latin1");
  const close = text.lastIndexOf("}");
  if (close < 0) return state;
  const at = state.length - text.length + close;
  const empty = /\{\s*$/.test(text.slice(0, close));
  const member = `${empty ? "" : ","}"${CLOCK_MEMBER}":${JSON.stringify(clock)}}`;
  return Buffer.concat([state.subarray(0, at), Buffer.from(member), state.subarray(at + 1)]);
}

/** The clock a chain state carries (`stateWithClock`), or undefined when it carries none or a malformed one. */
export function clockOfState(state: Buffer): ChainClock | undefined {
  const text = state.subarray(Math.max(0, state.length - CLOCK_END_BYTES)).toString("latin1");
  const match = CLOCK_AT_END.exec(text);
  if (!match) return undefined;
  try {
    const clock = JSON.parse(match[1]) as Record<string, unknown>;
    const offset = clock.offset;
    if (typeof offset !== "number" || !Number.isSafeInteger(offset)) return undefined;
    const interval = clock.interval === null ? null : seconds(clock.interval);
    const nextTimestamp = clock.nextTimestamp === null ? null : seconds(clock.nextTimestamp);
    if (interval === undefined || nextTimestamp === undefined) return undefined;
    return { offset, interval, nextTimestamp };
  } catch {
    return undefined;
  }
}
