/**
 * Pinning the fork point at creation: a network with an upstream forks the given block once the upstream shows it
 * exists, else the upstream's head as of now, and that block is what the environment stores and returns
 * (`networks[].block_number`, `fork_config.block_number`), so a re-create or a replay is the same chain. Networks
 * without an upstream keep the plan's block (a fresh chain).
 */
import type { CreateEnvironmentRequest } from "../../api";
import { ChainRequestError, type ChainEngine } from "../chains";
import { badRequest } from "../errors";
import type { NewEnvironment } from "../store";

/**
 * The pinned fork point of each network of a validated plan (hex), or null for a network without an upstream.
 * Throws the 400 naming `network_configs[i].block_number` for a block beyond the upstream's head, and the engine's
 * 502/504 (naming the network) when an upstream fails; nothing is written before.
 */
export async function pinForkPoints(
  engine: ChainEngine,
  request: CreateEnvironmentRequest,
  plan: NewEnvironment,
): Promise<(string | null)[]> {
  if (!engine.forkPoint) return plan.vnets.map(() => null);
  return Promise.all(
    plan.vnets.map(async (vnet, index) => {
      const requested = request.network_configs[index]?.block_number === undefined ? undefined : BigInt(vnet.blockNumber);
      try {
        const block = await engine.forkPoint!(vnet.networkId, requested, plan.slug);
        return block === null ? null : `0x${block.toString(16)}`;
      } catch (error) {
        if (error instanceof ChainRequestError && error.status === 400 && error.field === "/block_number") {
          throw badRequest(`network_configs[${index}].block_number: ${error.message}`, `/network_configs/${index}/block_number`);
        }
        throw error;
      }
    }),
  );
}

/** The plan with its vnets forking the pinned blocks. */
export function withForkPoints(plan: NewEnvironment, pins: readonly (string | null)[]): NewEnvironment {
  return { ...plan, vnets: plan.vnets.map((vnet, index) => (pins[index] ? { ...vnet, blockNumber: pins[index]! } : vnet)) };
}
