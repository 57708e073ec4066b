/**
 * Project-level simulation (`POST .../simulate`) on a network replica: a transaction run at a block, optionally at a
 * transaction index inside it, answered in the documented `{ simulation, transaction, contracts }` shape; and bundles of
 * transactions run in order on one state (the hosted clients' simulations).
 */
import type { AccessList, ProjectSimulationRequest, VnetSimulationResult } from "../../../api";
import type { ChainNode } from "../node/backend";
import { JsonRpcError, type JsonRpcClient } from "../wire/json-rpc";
import { applyDiff, PRESTATE_DIFF, simulate, simulateBundle, type AccountOverride, type PrestateDiff } from "./simulate";
import { nestTrace } from "../evm/trace";
import { ChainRequestError, type NetworkBundle, type NetworkSimulation } from "../types";

/** Runs a project-level simulation on a replica of `networkId`; `from` is already defaulted and lower-case. */
export async function simulateOnReplica(
  node: ChainNode,
  networkId: string,
  from: string,
  request: ProjectSimulationRequest,
): Promise<NetworkSimulation> {
  const requested = request.block_number === null || request.block_number === undefined ? undefined : BigInt(request.block_number);
  const block = await blockToRun(node, requested);
  const index = request.transaction_index ?? null;
  // At a transaction index, the transaction runs inside `block`: on its parent's state plus its earlier transactions.
  const priorState = index === null ? undefined : await stateBeforeIndex(node, block, index);
  const base = index !== null && block > 0n ? block - 1n : block;
  const number = request.block_header?.number ? BigInt(request.block_header.number) : (requested ?? block);
  const accessList = request.access_list?.map((entry) => ({ address: entry.address.toLowerCase(), storageKeys: entry.storage_keys ?? [] }));
  const callArgs = {
    from,
    ...(request.to ? { to: request.to } : {}),
    ...(request.gas !== undefined ? { gas: hex(BigInt(request.gas)) } : {}),
    ...(request.gas_price !== undefined ? { gasPrice: hex(BigInt(request.gas_price)) } : {}),
    ...(request.value !== undefined ? { value: hex(BigInt(request.value)) } : {}),
    data: request.input ?? "0x",
  };
  const result = await simulate(
    node.rpc,
    {
      callArgs,
      blockNumber: hex(base),
      blockOverrides: { number: hex(number), ...(request.block_header?.timestamp ? { timestamp: request.block_header.timestamp } : {}) },
    },
    false,
    { accessList, priorState },
  );
  const generated = request.generate_access_list
    ? await generatedAccessList(node.rpc, { ...callArgs, ...(accessList ? { accessList } : {}) }, hex(base))
    : undefined;
  const simulation = {
    network_id: networkId,
    block_number: Number(BigInt(result.blockNumber)),
    from,
    to: request.to ? request.to.toLowerCase() : null,
    input: request.input ?? "0x",
    value: hex(BigInt(request.value ?? 0)),
    gas: request.gas ?? Number(BigInt(result.trace[0]?.gas ?? "0x0")),
    gas_used: Number(BigInt(result.gasUsed)),
    status: result.status,
    logs: result.logs,
    trace: result.trace,
  };
  const contracts = [
    ...new Set(
      result.trace
        .filter((entry) => entry.input.length > 2 && entry.to !== "" && !entry.type.startsWith("CREATE"))
        .map((entry) => entry.to),
    ),
  ];
  return {
    simulation,
    transaction: {
      network_id: networkId,
      block_number: simulation.block_number,
      transaction_index: index ?? 0,
      from,
      to: simulation.to,
      input: simulation.input,
      value: simulation.value,
      gas: simulation.gas,
      gas_used: simulation.gas_used,
      status: simulation.status,
      access_list: request.access_list ?? [],
      transaction_info: {
        call_trace: nestTrace(result.trace),
        logs: result.logs,
        asset_changes: result.assetChanges ?? [],
        balance_changes: result.balanceChanges ?? [],
      },
    },
    contracts: contracts.map((address) => ({ address, network_id: networkId })),
    ...(generated ? { generatedAccessList: generated } : {}),
  };
}

/**
 * Runs a bundle (`simulateBundle`) on a replica of a network, on the state after `requested` (default: the head), as a
 * project-level simulation without a transaction index runs.
 */
export async function simulateBundleOnReplica(node: ChainNode, bundle: NetworkBundle): Promise<VnetSimulationResult[]> {
  const block = await blockToRun(node, bundle.blockNumber);
  return simulateBundle(node.rpc, bundle.calls, { blockNumber: hex(block), number: hex(bundle.blockNumber ?? block) }, bundle.overrides);
}

/** The block whose state a simulation runs on: the one requested, or the head (also for a block beyond it). */
async function blockToRun(node: ChainNode, requested: bigint | undefined): Promise<bigint> {
  const head = BigInt(await node.rpc.request<string>("eth_blockNumber"));
  // A replica without history (offline) runs a later block number on its head state.
  return requested !== undefined && requested <= head ? requested : head;
}

/** The effects of the first `index` transactions of `block`, as state overrides on its parent's state. */
async function stateBeforeIndex(node: ChainNode, block: bigint, index: number): Promise<Record<string, AccountOverride>> {
  const found = await node.rpc.request<{ transactions: string[] } | null>("eth_getBlockByNumber", [hex(block), false]);
  const hashes = found?.transactions ?? [];
  if (index > hashes.length) {
    throw new ChainRequestError(
      400,
      `transaction_index ${index} is beyond block ${block}, which has ${hashes.length} transaction(s)`,
      "/transaction_index",
    );
  }
  const state: Record<string, AccountOverride> = {};
  for (const hash of hashes.slice(0, index)) {
    applyDiff(state, await node.rpc.request<PrestateDiff>("debug_traceTransaction", [hash, PRESTATE_DIFF]));
  }
  return state;
}

/** The access list `eth_createAccessList` generates for a call, in the API's spelling (`storage_keys`). */
async function generatedAccessList(rpc: JsonRpcClient, call: Record<string, unknown>, block: string): Promise<AccessList> {
  const answer = await rpc
    .request<{ accessList: { address: string; storageKeys: string[] }[] }>("eth_createAccessList", [call, block])
    .catch((error: unknown) => {
      throw error instanceof JsonRpcError ? new ChainRequestError(402, `no access list could be generated: ${error.message}`) : error;
    });
  return answer.accessList.map((entry) => ({ address: entry.address.toLowerCase(), storage_keys: entry.storageKeys }));
}

function hex(n: bigint): string {
  return `0x${n.toString(16)}`;
}
