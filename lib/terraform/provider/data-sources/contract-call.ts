/**
 * `chainform_contract_call` (data source): an `eth_call` of a view function on one Virtual Environment, with the
 * result decoded, for `check` blocks and postconditions ("the token's owner is X", "the pool holds 1000 USDC").
 */
import { at, attr, cty, defineDataSource, defineSchema, type Model } from "../../framework";
import { AbiValueError, fromAbiValue, toAbiValues, toJson } from "../abi-values";
import { addressValidator } from "../address";
import { parseAbi } from "../artifact";
import { ChainRpcError, reportChainError, vnetRpc } from "../chain-rpc";
import type { ChainformProviderData } from "../provider-data";
import { revertReason } from "../resources/contract";
import { viem } from "../lazy-viem";
import type { Abi, AbiFunction, Hex } from "../viem";

/** The data source schema. */
export const contractCallSchema = defineSchema({
  description: "Calls a view function of a contract on one Virtual Environment (eth_call) and decodes its result.",
  attributes: {
    // Required
    environment_id: attr.string({ description: "Identifier of the environment (chainform_environment.<name>.id).", required: true }),
    vnet_id: attr.string({
      description: "Identifier of the Virtual Environment (chainform_environment.<name>.vnets[<index>].id).",
      required: true,
    }),
    address: attr.string({ description: "Address of the contract.", required: true, validators: [addressValidator] }),
    function: attr.string({
      description:
        'The function: its name when abi is given (e.g. "balanceOf"), else its signature with outputs (e.g. "balanceOf(address) view returns (uint256)").',
      required: true,
    }),
    // Optional
    abi: attr.string({ description: "ABI as JSON text (e.g. chainform_contract.<name>.abi).", optional: true }),
    args: attr.list(cty.string, {
      description: "Arguments, as strings (see chainform_contract's constructor_args for the formats).",
      optional: true,
    }),
    from: attr.string({
      description: "Caller (msg.sender) of the call. Default the zero address.",
      optional: true,
      validators: [addressValidator],
    }),
    // Computed
    result: attr.list(cty.string, {
      description:
        "The decoded outputs, one string each: decimal integers, true/false, addresses and bytes as hex, JSON for arrays and tuples.",
      computed: true,
    }),
    result_json: attr.string({ description: "The decoded outputs as a JSON array (integers as decimal strings).", computed: true }),
  },
});

/** What the data source reads. */
export type ContractCallModel = Model<typeof contractCallSchema>;

/** The function called: by name from the ABI, or parsed from a signature; an error message when neither works. */
export function resolveFunction(
  fn: string,
  abiText: string | null,
  argCount: number,
): AbiFunction | { error: string; path: "abi" | "function" } {
  if (abiText !== null) {
    const abi = parseAbi(abiText);
    if ("error" in abi) return { error: abi.error, path: "abi" };
    const name = fn.replace(/\(.*$/, "");
    const candidates = (abi as Abi).filter((item): item is AbiFunction => item.type === "function" && item.name === name);
    const match = candidates.find((f) => f.inputs.length === argCount) ?? candidates[0];
    if (!match) {
      const names = (abi as Abi).filter((i): i is AbiFunction => i.type === "function").map((f) => f.name);
      return { error: `The ABI has no function ${name}; it has ${names.join(", ") || "none"}.`, path: "function" };
    }
    return match;
  }
  try {
    const item = viem().parseAbiItem(`function ${fn.replace(/^function\s+/, "")}`) as AbiFunction;
    if (item.outputs.length === 0)
      return { error: `${fn} declares no outputs: write them, e.g. "owner() view returns (address)", or give abi.`, path: "function" };
    return item;
  } catch {
    return {
      error: `${JSON.stringify(fn)} is not a function signature such as "balanceOf(address) view returns (uint256)"; or give abi and the function's name.`,
      path: "function",
    };
  }
}

/** The data source. */
export const contractCallDataSource = defineDataSource<typeof contractCallSchema, ChainformProviderData>({
  typeName: "chainform_contract_call",
  schema: contractCallSchema,
  async read({ config, providerData: data, diagnostics }) {
    const args = config.args ?? [];
    const fn = resolveFunction(config.function, config.abi, args.length);
    if ("error" in fn) return void diagnostics.error("Cannot call the function", fn.error, at(fn.path));
    let callData: Hex;
    try {
      callData = viem().encodeFunctionData({ abi: [fn], functionName: fn.name, args: toAbiValues(fn.inputs, args, fn.name) } as never);
    } catch (error) {
      if (!(error instanceof AbiValueError)) throw error;
      return void diagnostics.error(
        "Arguments do not match the function",
        error.message,
        error.index >= 0 ? at("args", error.index) : at("args"),
      );
    }
    const chain = await vnetRpc(
      data,
      diagnostics,
      config,
      { environmentId: at("environment_id"), vnetId: at("vnet_id") },
      { gone: "error", needAdmin: false, action: "call the contract" },
    );
    if (!chain) return;
    let answer: Hex;
    try {
      answer = await chain.read<Hex>("eth_call", [
        { to: config.address, data: callData, ...(config.from ? { from: config.from } : {}) },
        "latest",
      ]);
    } catch (error) {
      if (error instanceof ChainRpcError && /revert/i.test(error.message)) {
        return void diagnostics.error(
          "The call reverted",
          `${fn.name} on ${config.address} reverted: ${revertReason([fn], error)}.`,
          at("function"),
        );
      }
      return void reportChainError(diagnostics, `call ${fn.name} on ${config.address}`, error, at("address"));
    }
    if (answer === "0x") {
      return void diagnostics.error(
        "The call returned nothing",
        `${config.address} has no code, or no function ${fn.name}: eth_call returned no data.`,
        at("address"),
      );
    }
    let decoded: unknown;
    try {
      decoded = viem().decodeFunctionResult({ abi: [fn], functionName: fn.name, data: answer } as never);
    } catch (error) {
      return void diagnostics.error(
        "Cannot decode the result",
        `${fn.name} returned ${answer.slice(0, 66)}..., which does not decode as its outputs: ${(error as Error).message.split("\n")[0]}`,
        at("function"),
      );
    }
    const outputs = fn.outputs.length === 1 ? [decoded] : (decoded as unknown[]);
    return { ...config, result: outputs.map((value, i) => fromAbiValue(fn.outputs[i]!, value)), result_json: toJson(outputs) };
  },
});
