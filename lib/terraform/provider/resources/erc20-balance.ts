/**
 * `chainform_erc20_balance`: the token balance of one address on one Virtual Environment, set through the Admin
 * RPC's `tenderly_setErc20Balance` (the service finds the token's balance slot). Read compares `balanceOf`, so a
 * balance changed out of band plans an in-place update that sets it again; destroy sets it to 0.
 */
import { parseTokenAmount } from "../../../domain/amounts";
import { at, attr, defineResource, defineSchema, requiresReplace, useStateForUnknown, validator, type Model } from "../../framework";
import { addressValidator } from "../address";
import { ChainRpcError, reportChainError, vnetRpc } from "../chain-rpc";
import type { ChainformProviderData } from "../provider-data";

const address = addressValidator;
const amountValidator = validator("a whole number of the token's smallest unit, decimal or 0x hex, below 2^256", (text: string) =>
  parseTokenAmount(text) === null ? `${JSON.stringify(text)} is not a whole number from 0 to 2^256 - 1 (decimal, or 0x hex)` : undefined,
);

/** The resource schema. */
export const erc20BalanceSchema = defineSchema({
  description:
    "The ERC-20 token balance of an address on one Virtual Environment, set through the Admin RPC. A balance changed out of band is set again on the next apply (an in-place update); destroying the resource sets it to 0.",
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
    token: attr.string({
      description: "Address of the ERC-20 token contract.",
      required: true,
      validators: [address],
      planModifiers: [requiresReplace()],
    }),
    holder: attr.string({
      description: "Address whose balance is set.",
      required: true,
      validators: [address],
      planModifiers: [requiresReplace()],
    }),
    amount: attr.string({
      description:
        'Balance in the token\'s smallest unit (1 token of 18 decimals is "1000000000000000000"), decimal or 0x hex. State keeps it as written.',
      required: true,
      validators: [amountValidator],
    }),
    // Computed
    id: attr.string({ description: "<vnet_id>/<token>/<holder>.", computed: true, planModifiers: [useStateForUnknown()] }),
  },
});

/** The state of a `chainform_erc20_balance`. */
export type Erc20BalanceState = Model<typeof erc20BalanceSchema>;

const paths = { environmentId: at("environment_id"), vnetId: at("vnet_id") };

/** The resource. */
export const erc20Balance = defineResource<typeof erc20BalanceSchema, ChainformProviderData>({
  typeName: "chainform_erc20_balance",
  schema: erc20BalanceSchema,

  async create({ plan, providerData: data, diagnostics }) {
    const state = { ...plan, id: `${plan.vnet_id}/${plan.token.toLowerCase()}/${plan.holder.toLowerCase()}` };
    return (await setBalance(data, state, diagnostics)) ? state : undefined;
  },

  async read({ state, providerData: data, diagnostics }) {
    const chain = await vnetRpc(data, diagnostics, state, paths, { gone: "null", needAdmin: false, action: "read the token balance" });
    if (chain === null) return null;
    if (!chain) return;
    try {
      const code = await chain.read<string>("eth_getCode", [state.token, "latest"]);
      if (code === "0x" || code === "") return null; // the token is gone (e.g. its contract was replaced)
      const answer = await chain.read<string>("eth_call", [{ to: state.token, data: balanceOfCall(state.holder) }, "latest"]);
      const actual = BigInt(answer);
      return actual === parseTokenAmount(state.amount) ? state : { ...state, amount: actual.toString() };
    } catch (error) {
      reportChainError(diagnostics, `read balanceOf(${state.holder}) of ${state.token}`, error, at("token"));
      return;
    }
  },

  async update({ plan, state, providerData: data, diagnostics }) {
    const next = { ...state, amount: plan.amount };
    return (await setBalance(data, next, diagnostics)) ? next : undefined;
  },

  async delete({ state, providerData: data, diagnostics }) {
    const chain = await vnetRpc(data, diagnostics, state, paths, { gone: "null", needAdmin: true, action: "reset the token balance" });
    if (!chain) return;
    try {
      const code = await chain.read<string>("eth_getCode", [state.token, "latest"]);
      if (code !== "0x" && code !== "") await chain.admin("tenderly_setErc20Balance", [state.token, state.holder, "0x0"]);
    } catch (error) {
      reportChainError(diagnostics, `reset the balance of ${state.holder}`, error, at("token"));
    }
  },
});

async function setBalance(
  data: ChainformProviderData,
  state: Erc20BalanceState,
  diagnostics: import("../../framework").Diagnostics,
): Promise<boolean> {
  const chain = await vnetRpc(data, diagnostics, state, paths, { gone: "error", needAdmin: true, action: "set the token balance" });
  if (!chain) return false;
  try {
    await chain.admin("tenderly_setErc20Balance", [state.token, state.holder, `0x${parseTokenAmount(state.amount)!.toString(16)}`]);
    return true;
  } catch (error) {
    if (error instanceof ChainRpcError && error.code === -32602) {
      diagnostics.error(
        "Cannot set the token balance",
        `${error.message}. token must be the address of an ERC-20 contract on this Virtual Environment.`,
        at("token"),
      );
      return false;
    }
    reportChainError(diagnostics, "set the token balance", error, at("token"));
    return false;
  }
}

function balanceOfCall(holder: string): string {
  return `0x70a08231${holder.toLowerCase().replace(/^0x/, "").padStart(64, "0")}`;
}
