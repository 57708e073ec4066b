/**
 * The environment bridge: `ChainformBridge` (contracts/ChainformBridge.sol) sits at `BRIDGE_ADDRESS` on every
 * Virtual Environment of a bridge-enabled environment. Deposits seen in mined receipts become rows of
 * `chain_bridge_relays` (../durability/relays.ts); a row is relayed to the destination vnet when due (at once for
 * `autoRelay`, after `delaySeconds` for `delayedRelay`, ./relayer.ts). Rows survive a restart: the engine
 * reschedules pending ones at start.
 */
import { decodeEventLog, encodeFunctionData, toEventSelector, type Abi, type AbiEvent, type Hex } from "../evm/viem";
import { loadArtifact } from "../evm/artifacts";
import type { BridgeRelay } from "../durability/relays";
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
