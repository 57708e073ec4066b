/**
 * `chainform_snapshot`: an `evm_snapshot` of one Virtual Environment, taken once its dependencies (contracts,
 * balances) are in place. Test suites revert to it with `evm_revert` through the Admin RPC; the resource outputs the
 * id and the request to send. `triggers` re-take it. A snapshot cannot be deleted: destroy forgets it.
 */
import { at, attr, cty, defineResource, defineSchema, requiresReplace, useStateForUnknown, type Model } from "../../framework";
import { reportChainError, vnetRpc } from "../chain-rpc";
import type { ChainformProviderData } from "../provider-data";

/** The resource schema. */
export const snapshotSchema = defineSchema({
  description:
    "A snapshot (evm_snapshot) of one Virtual Environment's chain, taken after the resources it depends on. Revert to it with evm_revert through the Admin RPC (see revert_request). Changing triggers takes a new one.",
  attributes: {
    // Required
    environment_id: attr.string({
      description: "Identifier of the environment (chainform_environment.<name>.id).",
      required: true,
      planModifiers: [requiresReplace()],
    }),
    vnet_id: attr.string({
      description: "Identifier of the Virtual Environment (chainform_environment.<name>.vnets[<index>].id).",
      required: true,
      planModifiers: [requiresReplace()],
    }),
    // Optional
    triggers: attr.map(cty.string, {
      description: "Arbitrary values; changing any of them takes a new snapshot (e.g. { contract = chainform_contract.token.id }).",
      optional: true,
      planModifiers: [requiresReplace()],
    }),
    // Computed
    id: attr.string({
      description: "The snapshot id evm_snapshot returned, e.g. 0x1; give it to evm_revert.",
      computed: true,
      planModifiers: [useStateForUnknown()],
    }),
    block_number: attr.number({
      description: "The chain's latest block number when the snapshot was taken.",
      computed: true,
      planModifiers: [useStateForUnknown()],
    }),
    revert_request: attr.string({
      description:
        "The JSON-RPC request that reverts to the snapshot; POST it to the Virtual Environment's Admin RPC URL (it holds no secret).",
      computed: true,
      planModifiers: [useStateForUnknown()],
    }),
    revert_command: attr.string({
      description: "The same revert as a Foundry cast command, reading the Admin RPC URL from $ADMIN_RPC_URL.",
      computed: true,
      planModifiers: [useStateForUnknown()],
    }),
  },
});

/** The state of a `chainform_snapshot`. */
export type SnapshotState = Model<typeof snapshotSchema>;

const paths = { environmentId: at("environment_id"), vnetId: at("vnet_id") };

/** The one mapping from a snapshot id to state. */
export function toState(
  inputs: Pick<SnapshotState, "environment_id" | "vnet_id" | "triggers">,
  id: string,
  blockNumber: number,
): SnapshotState {
  return {
    ...inputs,
    id,
    block_number: blockNumber,
    revert_request: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_revert", params: [id] }),
    revert_command: `cast rpc evm_revert ${id} --rpc-url "$ADMIN_RPC_URL"`,
  };
}

/** The resource. */
export const snapshot = defineResource<typeof snapshotSchema, ChainformProviderData>({
  typeName: "chainform_snapshot",
  schema: snapshotSchema,

  async create({ plan, providerData: data, diagnostics }) {
    const chain = await vnetRpc(data, diagnostics, plan, paths, { gone: "error", needAdmin: true, action: "take the snapshot" });
    if (!chain) return;
    try {
      const id = await chain.admin<string>("evm_snapshot", []);
      const blockNumber = Number(BigInt(await chain.read<string>("eth_blockNumber", [])));
      return toState(plan, id, blockNumber);
    } catch (error) {
      reportChainError(diagnostics, "take the snapshot", error);
      return;
    }
  },

  // The chain cannot list its snapshots; one whose environment or Virtual Environment is gone is gone too.
  async read({ state, providerData: data, diagnostics }) {
    const chain = await vnetRpc(data, diagnostics, state, paths, { gone: "null", needAdmin: false, action: "read the snapshot" });
    if (chain === null) return null;
    return chain ? state : undefined;
  },

  async delete() {
    // A snapshot cannot be deleted; it goes with its chain.
  },
});
