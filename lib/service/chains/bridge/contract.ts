/**
 * The environment bridge: `ChainformBridge` (contracts/ChainformBridge.sol) sits at `BRIDGE_ADDRESS` on every
 * Virtual Environment of a bridge-enabled environment. Deposits seen in mined receipts become rows of
 * `chain_bridge_relays`; a row is relayed to the destination vnet when due (at once for `autoRelay`, after
 * `delaySeconds` for `delayedRelay`). Rows survive a restart: the engine reschedules pending ones at start.
 */
import type { SqlDatabase } from "../../sqlite";
import { decodeEventLog, encodeFunctionData, toEventSelector, type Abi, type AbiEvent, type Hex } from "../evm/viem";
import { loadArtifact } from "../evm/artifacts";
import type { Receipt } from "../evm/rpc-answers";
import type { VnetChainSpec } from "../types";

import { BRIDGE_ADDRESS } from "../../../domain/bridge-contract";

/** The relayer the bridge trusts (a constant of the contract); the engine sends relays from it, impersonated. */
export const RELAYER_ADDRESS = "0x00000000000000000000000000000000c4a1e1a7";
/** Liquidity the bridge starts with on each vnet, to pay relays out: 1,000,000 ether. */
export const BRIDGE_LIQUIDITY = `0x${(10n ** 24n).toString(16)}`;
/** Gas money of the relayer: 1,000 ether. */
export const RELAYER_FUNDS = `0x${(10n ** 21n).toString(16)}`;
/** Gas of a relay transaction (a relay costs about 60k). */
const RELAY_GAS = "0x30d40";

/** The bridge's ABI, from its build artifact. */
export function bridgeAbi(): Abi {
  return loadArtifact("ChainformBridge").abi;
}

/** The runtime code placed at `BRIDGE_ADDRESS`. */
export function bridgeCode(): Hex {
  return loadArtifact("ChainformBridge").deployedBytecode;
}

/** A deposit waiting for, or done with, its relay. */
export interface BridgeRelay {
  readonly sourceVnetId: string;
  readonly depositId: Hex;
  /** Exact: chain ids may exceed 2^53. */
  readonly sourceChainId: bigint;
  readonly depositTxHash: string;
  readonly destinationVnetId: string;
  readonly recipient: string;
  readonly amount: string;
  readonly dueAt: number;
}

/** Deposits in a mined receipt whose destination is a peer of the source vnet. */
export function depositsIn(spec: VnetChainSpec, receipt: Receipt, now: number): BridgeRelay[] {
  if (!spec.bridge || receipt.status !== "0x1") return [];
  const deposited = bridgeAbi().find((item): item is AbiEvent => item.type === "event" && item.name === "Deposited")!;
  const topic = toEventSelector(deposited);
  const relays: BridgeRelay[] = [];
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== BRIDGE_ADDRESS || log.topics[0]?.toLowerCase() !== topic) continue;
    const { args } = decodeEventLog({ abi: [deposited], data: log.data as Hex, topics: log.topics as [Hex, ...Hex[]] });
    const event = args as unknown as { depositId: Hex; destinationChainId: bigint; recipient: string; amount: bigint };
    const peer = spec.peers.find((p) => p.chainId === event.destinationChainId);
    if (!peer) continue; // no such chain in this environment: the deposit stays locked, as on a real bridge
    const delay = spec.bridge.relayMode === "delayedRelay" ? spec.bridge.delaySeconds * 1000 : 0;
    relays.push({
      sourceVnetId: spec.vnetId,
      depositId: event.depositId,
      sourceChainId: spec.chainId,
      depositTxHash: receipt.transactionHash.toLowerCase(),
      destinationVnetId: peer.vnetId,
      recipient: event.recipient.toLowerCase(),
      amount: `0x${event.amount.toString(16)}`,
      dueAt: now + delay,
    });
  }
  return relays;
}

/** The calldata of `relay(depositId, sourceChainId, recipient, amount)`. */
export function relayCall(relay: BridgeRelay): { from: string; to: string; gas: string; data: Hex } {
  const data = encodeFunctionData({
    abi: bridgeAbi(),
    functionName: "relay",
    args: [relay.depositId, relay.sourceChainId, relay.recipient as Hex, BigInt(relay.amount)],
  });
  return { from: RELAYER_ADDRESS, to: BRIDGE_ADDRESS, gas: RELAY_GAS, data };
}

/** The calldata of `relayed(depositId)`. */
export function relayedCall(relay: BridgeRelay): { to: string; data: Hex } {
  return { to: BRIDGE_ADDRESS, data: encodeFunctionData({ abi: bridgeAbi(), functionName: "relayed", args: [relay.depositId] }) };
}

/** `chain_bridge_relays` (a migration of lib/service/store/database.ts): every deposit seen, with its relay's outcome. */
export class RelayStore {
  constructor(private readonly db: SqlDatabase) {}

  /** Adds deposits (a deposit already known is left alone). */
  add(relays: readonly BridgeRelay[]): void {
    const insert = this.db.prepare(`INSERT OR IGNORE INTO chain_bridge_relays
      (source_vnet_id, deposit_id, source_chain_id, deposit_tx_hash, destination_vnet_id, recipient, amount, due_at, status, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`);
    const now = new Date().toISOString();
    this.db.transaction(() => {
      for (const r of relays) {
        insert.run(r.sourceVnetId, r.depositId, r.sourceChainId, r.depositTxHash, r.destinationVnetId, r.recipient, r.amount, r.dueAt, now);
      }
    })();
  }

  /** Pending relays, earliest first. */
  pending(): BridgeRelay[] {
    const rows = this.db
      .prepare(
        `SELECT *, CAST(source_chain_id AS TEXT) AS source_chain_text FROM chain_bridge_relays WHERE status = 'pending' ORDER BY due_at, created_at`,
      )
      .all() as Record<string, string | number>[];
    return rows.map((row) => ({
      sourceVnetId: String(row.source_vnet_id),
      depositId: String(row.deposit_id) as Hex,
      sourceChainId: BigInt(row.source_chain_text),
      depositTxHash: String(row.deposit_tx_hash),
      destinationVnetId: String(row.destination_vnet_id),
      recipient: String(row.recipient),
      amount: String(row.amount),
      dueAt: Number(row.due_at),
    }));
  }

  /** Marks a relay done or failed. */
  settle(relay: BridgeRelay, outcome: { status: "relayed" | "failed"; txHash?: string; error?: string }): void {
    this.db
      .prepare(`UPDATE chain_bridge_relays SET status = ?, relay_tx_hash = ?, error = ? WHERE source_vnet_id = ? AND deposit_id = ?`)
      .run(outcome.status, outcome.txHash ?? null, outcome.error ?? null, relay.sourceVnetId, relay.depositId);
  }

  /** The deposit a relay transaction paid out; undefined when the hash is no relay. */
  depositOf(relayTxHash: string): { sourceVnetId: string; depositTxHash: string } | undefined {
    const row = this.db
      .prepare("SELECT source_vnet_id, deposit_tx_hash FROM chain_bridge_relays WHERE relay_tx_hash = ?")
      .get(relayTxHash.toLowerCase()) as { source_vnet_id: string; deposit_tx_hash: string } | undefined;
    return row && { sourceVnetId: row.source_vnet_id, depositTxHash: row.deposit_tx_hash };
  }

  /** Fails the pending relays from or to deleted vnets. */
  dropVnets(vnetIds: readonly string[]): void {
    const update = this.db.prepare(`UPDATE chain_bridge_relays SET status = 'failed', error = 'Virtual Environment deleted'
      WHERE status = 'pending' AND (source_vnet_id = ? OR destination_vnet_id = ?)`);
    this.db.transaction(() => vnetIds.forEach((id) => update.run(id, id)))();
  }
}
