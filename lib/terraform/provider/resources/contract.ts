/**
 * `chainform_contract`: a contract deployed into one Virtual Environment of an environment, from a Foundry or
 * Hardhat artifact file or from bytecode and ABI, with constructor arguments ABI-encoded by the provider. Every
 * change replaces it, including a change of the artifact's bytecode (its hash is planned). Read notices a contract
 * that is gone (no code at its address, e.g. the environment was re-created) and plans it again.
 */
import {
  at,
  attr,
  cty,
  defineResource,
  defineSchema,
  isUnknown,
  Unknown,
  requiresReplace,
  useStateForUnknown,
  type Diagnostics,
  type Model,
  isKnown,
} from "../../framework";
import { AbiValueError, toAbiValues } from "../abi-values";
import { addressValidator } from "../address";
import { fromParts, loadArtifact, parseAbi, type Artifact } from "../artifact";
import { ChainRpcError, reportChainError, vnetRpc, type VnetRpc } from "../chain-rpc";
import type { ChainformProviderData } from "../provider-data";
import { viem } from "../lazy-viem";
import type { Abi, AbiParameter, Hex } from "../viem";
import { verifyContract } from "./contract-verify";

/** The sender of deployments that name none; the provider funds it through the Admin RPC when it runs low. */
export const DEFAULT_DEPLOYER = "0x0000000000000000000000000000000000c4a1f0";
const DEPLOYER_MINIMUM = 10n ** 18n;
const DEPLOYER_FUNDS = "0x56bc75e2d63100000"; // 100 ether
const RECEIPT_TIMEOUT_MS = 120_000;

const address = addressValidator;

/** The resource schema. */
export const contractSchema = defineSchema({
  description:
    "A contract deployed into one Virtual Environment of an environment, from a Foundry or Hardhat artifact (or bytecode and ABI), through the environment's Admin RPC. Any change replaces it; so does a change of the artifact's bytecode.",
  attributes: {
    // Required
    environment_id: attr.string({
      description: "Identifier of the environment (chainform_environment.<name>.id).",
      required: true,
      planModifiers: [requiresReplace()],
    }),
    vnet_id: attr.string({
      description: "Identifier of the Virtual Environment to deploy into (chainform_environment.<name>.vnets[<index>].id).",
      required: true,
      planModifiers: [requiresReplace()],
    }),
    // Optional
    artifact_path: attr.string({
      description:
        "Path of a Foundry (out/X.sol/X.json) or Hardhat (artifacts/.../X.json) artifact, relative to the directory terraform runs in. Give this, or bytecode and abi.",
      optional: true,
      planModifiers: [requiresReplace()],
    }),
    bytecode: attr.string({
      description: "Creation bytecode, 0x-prefixed hex; instead of artifact_path.",
      optional: true,
      planModifiers: [requiresReplace()],
    }),
    abi: attr.string({
      description:
        "ABI as JSON text; required with bytecode, read from the artifact otherwise (and then computed, known after apply for a new contract: plans do not print it).",
      optional: true,
      computed: true,
      planModifiers: [useStateForUnknown(), requiresReplace()],
    }),
    constructor_args: attr.list(cty.string, {
      description:
        "Constructor arguments, in order, as strings (Terraform converts numbers and bools): whole numbers in decimal or 0x hex, addresses, true/false, 0x bytes; arrays and tuples as jsonencode(...).",
      optional: true,
      planModifiers: [requiresReplace()],
    }),
    from: attr.string({
      description: `Sender of the deployment; any address (the Admin RPC impersonates it), which must hold enough ether for gas. Default ${DEFAULT_DEPLOYER}, which the provider funds.`,
      optional: true,
      computed: true,
      validators: [address],
      planModifiers: [useStateForUnknown(), requiresReplace()],
    }),
    verify: attr.bool({
      description:
        "Submit the contract to the explorer's verification API after deploying (a warning, not an error, when it cannot). Default false.",
      optional: true,
      planModifiers: [requiresReplace()],
    }),
    // Computed
    id: attr.string({ description: "<vnet_id>/<address>.", computed: true, planModifiers: [useStateForUnknown()] }),
    address: attr.string({ description: "Address of the deployed contract.", computed: true, planModifiers: [useStateForUnknown()] }),
    transaction_hash: attr.string({
      description: "Hash of the deployment transaction.",
      computed: true,
      planModifiers: [useStateForUnknown()],
    }),
    block_number: attr.number({
      description: "Number of the block the contract was deployed in.",
      computed: true,
      planModifiers: [useStateForUnknown()],
    }),
    bytecode_hash: attr.string({
      description:
        "keccak256 of the creation bytecode (from the artifact or bytecode), known at plan time: a different bytecode replaces the contract.",
      computed: true,
      planModifiers: [useStateForUnknown()],
    }),
  },
});

/** The state of a `chainform_contract`. */
export type ContractState = Model<typeof contractSchema>;

type Source = { artifact: Artifact; args: unknown[] };

/**
 * What to deploy, from a plan or configuration whose inputs are known: the artifact (or bytecode and ABI) and the
 * encoded constructor arguments. Adds diagnostics with the attribute at fault and returns undefined when it cannot.
 */
export function deploymentSource(
  inputs: { artifact_path: string | null; bytecode: string | null; abi: string | null; constructor_args: string[] | null },
  diagnostics: Diagnostics,
): Source | undefined {
  let artifact: Artifact | { error: string };
  if (inputs.artifact_path !== null) {
    artifact = loadArtifact(inputs.artifact_path);
    if ("error" in artifact) return void diagnostics.error("Cannot use the contract artifact", artifact.error, at("artifact_path"));
  } else if (inputs.bytecode !== null) {
    if (inputs.abi === null)
      return void diagnostics.error(
        "abi is required with bytecode",
        'Give the contract\'s ABI as JSON text (abi = file("X.abi.json")), or use artifact_path.',
        at("abi"),
      );
    const abi = parseAbi(inputs.abi);
    if ("error" in abi) return void diagnostics.error("Invalid abi", abi.error, at("abi"));
    artifact = fromParts(abi, inputs.bytecode, "bytecode");
    if ("error" in artifact) return void diagnostics.error("Invalid bytecode", artifact.error, at("bytecode"));
  } else {
    return void diagnostics.error(
      "Nothing to deploy",
      "Set artifact_path (a Foundry or Hardhat artifact), or bytecode and abi.",
      at("artifact_path"),
    );
  }
  const constructor = artifact.abi.find((item) => item.type === "constructor") as { inputs: readonly AbiParameter[] } | undefined;
  try {
    const args = toAbiValues(constructor?.inputs ?? [], inputs.constructor_args ?? [], "the constructor");
    viem().encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never);
    return { artifact, args };
  } catch (error) {
    if (!(error instanceof AbiValueError)) throw error;
    diagnostics.error(
      "Constructor arguments do not match the constructor",
      error.message,
      error.index >= 0 ? at("constructor_args", error.index) : at("constructor_args"),
    );
    return undefined;
  }
}

const paths = { environmentId: at("environment_id"), vnetId: at("vnet_id") };

/** The resource. */
export const contract = defineResource<typeof contractSchema, ChainformProviderData>({
  typeName: "chainform_contract",
  schema: contractSchema,

  validate({ config, diagnostics }) {
    if (config.artifact_path !== null && config.bytecode !== null) {
      diagnostics.error(
        "Give artifact_path or bytecode, not both",
        "The artifact holds the bytecode and ABI; remove one of them.",
        at("bytecode"),
      );
    }
    if (isKnown(config.artifact_path) && config.abi !== null) {
      diagnostics.error("abi comes from the artifact", "Remove abi: with artifact_path, the ABI is read from the artifact.", at("abi"));
    }
  },

  modifyPlan({ plan, state, config, diagnostics, requiresReplace: replace }) {
    if (config.from === null) plan.from = DEFAULT_DEPLOYER;
    const inputs = [plan.artifact_path, plan.bytecode, plan.abi, plan.constructor_args];
    // The artifact is read and the arguments encoded at plan time: a bad file or argument fails the plan.
    if (
      [config.artifact_path, config.bytecode, config.abi, config.constructor_args].some(isUnknown) ||
      inputs.some((v) => isUnknown(v) && v !== plan.abi)
    )
      return;
    const source = deploymentSource(
      {
        artifact_path: config.artifact_path as string | null,
        bytecode: config.bytecode as string | null,
        abi: config.abi as string | null,
        constructor_args: config.constructor_args as string[] | null,
      },
      diagnostics,
    );
    if (!source) return;
    plan.bytecode_hash = source.artifact.bytecodeHash;
    // An ABI read from the artifact is not planned for a new contract ("known after apply"): Terraform expands
    // JSON text in plans, and one ABI is hundreds of lines (a first deploy of four resources printed over a
    // thousand). The bytecode hash above already says at plan what will be deployed; state gets the ABI at apply,
    // for contract calls. An existing contract plans it, so that a changed ABI shows as a change.
    if (config.abi === null && state !== null) plan.abi = JSON.stringify(source.artifact.abi);
    if (state && state.bytecode_hash !== source.artifact.bytecodeHash) {
      replace(at("bytecode_hash"));
      for (const key of ["id", "address", "transaction_hash", "block_number"] as const) (plan as Record<string, unknown>)[key] = Unknown;
    }
  },

  async create({ plan, config, providerData: data, diagnostics }) {
    const source = deploymentSource(
      {
        artifact_path: plan.artifact_path,
        bytecode: plan.bytecode,
        abi: config.abi as string | null,
        constructor_args: plan.constructor_args,
      },
      diagnostics,
    );
    if (!source) return;
    if (typeof plan.bytecode_hash === "string" && plan.bytecode_hash !== source.artifact.bytecodeHash) {
      diagnostics.error(
        "The artifact changed after the plan",
        `${plan.artifact_path} holds other bytecode than when the plan was made; plan again.`,
        at("artifact_path"),
      );
      return;
    }
    const chain = await vnetRpc(data, diagnostics, plan, paths, { gone: "error", needAdmin: true, action: "deploy the contract" });
    if (!chain) return;
    const from = typeof plan.from === "string" ? plan.from : DEFAULT_DEPLOYER;
    const deployData = viem().encodeDeployData({
      abi: source.artifact.abi,
      bytecode: source.artifact.bytecode,
      args: source.args,
    } as never) as Hex;
    try {
      if (from.toLowerCase() === DEFAULT_DEPLOYER) {
        const balance = BigInt(await chain.read<string>("eth_getBalance", [from, "latest"]));
        if (balance < DEPLOYER_MINIMUM) await chain.admin("tenderly_setBalance", [from, DEPLOYER_FUNDS]);
      }
      const gas = await estimateDeployment(chain, source.artifact.abi, from, deployData, diagnostics);
      if (gas === undefined) return;
      const hash = await chain.admin<string>("eth_sendTransaction", [{ from, data: deployData, gas }]);
      const receipt = await waitForReceipt(chain, hash);
      if (!receipt) {
        diagnostics.error(
          "The deployment was not mined",
          `Transaction ${hash} has no receipt after ${RECEIPT_TIMEOUT_MS / 1000} s (is mining paused on this chain?). Nothing was added to state.`,
        );
        return;
      }
      if (receipt.status !== "0x1" || !receipt.contractAddress) {
        diagnostics.error(
          "The deployment failed",
          `Transaction ${hash} was mined with status ${receipt.status} (the constructor reverted or ran out of gas). Nothing was added to state.`,
          at("constructor_args"),
        );
        return;
      }
      const deployed = receipt.contractAddress.toLowerCase();
      if (plan.verify === true) {
        await verifyContract(
          data,
          chain.vnetId,
          deployed,
          source.artifact,
          deployData.slice(source.artifact.bytecode.length),
          plan.artifact_path,
          diagnostics,
        );
      }
      return {
        ...plan,
        abi: typeof plan.abi === "string" && !isUnknown(plan.abi) ? plan.abi : JSON.stringify(source.artifact.abi),
        from,
        id: `${chain.vnetId}/${deployed}`,
        address: deployed,
        transaction_hash: hash,
        block_number: Number(BigInt(receipt.blockNumber)),
        bytecode_hash: source.artifact.bytecodeHash,
      };
    } catch (error) {
      reportChainError(diagnostics, "deploy the contract", error);
      return;
    }
  },

  async read({ state, providerData: data, diagnostics }) {
    const chain = await vnetRpc(data, diagnostics, state, paths, { gone: "null", needAdmin: false, action: "read the contract" });
    if (chain === null) return null;
    if (!chain) return;
    try {
      const code = await chain.read<string>("eth_getCode", [state.address, "latest"]);
      return code === "0x" || code === "" ? null : state;
    } catch (error) {
      reportChainError(diagnostics, `read the code at ${state.address}`, error);
      return;
    }
  },

  // Code cannot be undeployed on a real chain; here the Admin RPC can, so destroy leaves no code behind.
  async delete({ state, providerData: data, diagnostics }) {
    const chain = await vnetRpc(data, diagnostics, state, paths, { gone: "null", needAdmin: true, action: "remove the contract" });
    if (!chain) return;
    try {
      await chain.admin("tenderly_setCode", [state.address, "0x"]);
    } catch (error) {
      reportChainError(diagnostics, `remove the code at ${state.address}`, error);
    }
  },
});

/** Estimates the deployment's gas; a revert becomes a diagnostic with the constructor's reason. */
async function estimateDeployment(
  chain: VnetRpc,
  abi: Abi,
  from: string,
  data: Hex,
  diagnostics: Diagnostics,
): Promise<string | undefined> {
  try {
    const estimate = BigInt(await chain.read<string>("eth_estimateGas", [{ from, data }]));
    return `0x${(estimate + estimate / 5n).toString(16)}`;
  } catch (error) {
    if (!(error instanceof ChainRpcError) || !/revert/i.test(error.message)) throw error;
    diagnostics.error(
      "The constructor reverted",
      `Deploying would revert: ${revertReason(abi, error)}. Nothing was deployed; fix constructor_args.`,
      at("constructor_args"),
    );
    return undefined;
  }
}

/** The reason of a revert: Error(string), a custom error of the ABI, or the chain's message. */
export function revertReason(abi: Abi, error: ChainRpcError): string {
  const data = typeof error.data === "string" ? error.data : (error.data as { data?: unknown } | undefined)?.data;
  if (typeof data === "string" && data.length >= 10) {
    try {
      const decoded = viem().decodeErrorResult({ abi, data: data as Hex });
      if (decoded.errorName === "Error") return JSON.stringify(decoded.args?.[0]);
      return `${decoded.errorName}(${(decoded.args ?? []).map((a) => String(a)).join(", ")})`;
    } catch {
      // not an error of this ABI
    }
  }
  return error.message.replace(/^execution reverted:?\s*/i, "") || "no reason given";
}

interface Receipt {
  readonly status: string;
  readonly contractAddress: string | null;
  readonly blockNumber: string;
}

async function waitForReceipt(chain: VnetRpc, hash: string): Promise<Receipt | null> {
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
  for (let delay = 20; ; delay = Math.min(delay * 2, 1000)) {
    const receipt = await chain.read<Receipt | null>("eth_getTransactionReceipt", [hash]);
    if (receipt || Date.now() > deadline) return receipt;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
