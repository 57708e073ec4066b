import "cdktf/lib/testing/adapters/jest"; // the matchers' types
import { TerraformStack, Testing } from "cdktf";
import { Environment } from "./environment";
import * as contract from "./generated/contract";
import * as dataContractCall from "./generated/data-chainform-contract-call";
import * as erc20Balance from "./generated/erc20-balance";
import * as snapshot from "./generated/snapshot";
import { Erc20Balance } from "./erc20-balance";
import { Snapshot } from "./snapshot";
import { Network } from "./network";
import { ChainformProvider } from "./provider";

Testing.setupJest();

const ALICE = "0x00000000000000000000000000000000000a11ce";
const TOKEN_ABI = [
  {
    type: "constructor",
    stateMutability: "nonpayable",
    inputs: [
      { name: "name_", type: "string" },
      { name: "supply", type: "uint256" },
    ],
  },
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "a", type: "address" }],
    outputs: [{ type: "uint256" }],
  },
] as const;

function newEnvironment(): Environment {
  const stack = new TerraformStack(Testing.app(), "stack");
  new ChainformProvider(stack, "chainform");
  return new Environment(stack, "env", { displayName: "Seeded", networks: [{ networkId: Network.MAINNET }, { networkId: Network.BASE }] });
}

describe("chain state constructs", () => {
  it("deploy a contract, fund a holder, snapshot after both and call the contract", () => {
    // GIVEN an environment with two networks
    const env = newEnvironment();
    // WHEN a token is deployed on Base from bytecode with a typed ABI, alice funded, a snapshot taken, and a call made
    const token = env.deployContract("token", {
      networkId: Network.BASE,
      bytecode: "0x6001",
      abi: TOKEN_ABI,
      constructorArgs: ["T", 10n ** 24n],
    });
    const alice = new Erc20Balance(env, "alice", { environment: env, networkId: Network.BASE, token, holder: ALICE, amount: 5n });
    new Snapshot(env, "seeded", { environment: env, networkId: Network.BASE, after: [token, alice], triggers: { token: token.address } });
    token.call("balance", "balanceOf", [ALICE], [alice]);
    // THEN the resources point at Base's Virtual Environment, with arguments as the provider takes them
    const synthesized = Testing.synth(env.node.scope as TerraformStack);
    expect(synthesized).toHaveResourceWithProperties(contract.Contract, {
      bytecode: "0x6001",
      abi: JSON.stringify(TOKEN_ABI),
      constructor_args: ["T", "1000000000000000000000000"],
      vnet_id: expect.stringContaining('["8453"].id'),
    });
    expect(synthesized).toHaveResourceWithProperties(erc20Balance.Erc20Balance, {
      holder: ALICE,
      amount: "5",
      token: expect.stringMatching(/chainform_contract\..*\.address/),
    });
    expect(synthesized).toHaveResourceWithProperties(snapshot.Snapshot, {
      depends_on: [expect.stringMatching(/^chainform_contract\./), expect.stringMatching(/^chainform_erc20_balance\./)],
    });
    expect(synthesized).toHaveDataSourceWithProperties(dataContractCall.DataChainformContractCall, {
      function: "balanceOf",
      args: [ALICE],
    });
  });

  it("resolves an artifact path at synth and leaves the ABI to the artifact", () => {
    const env = newEnvironment();
    env.deployContract("token", { networkId: Network.MAINNET, artifactPath: "out/Token.sol/Token.json" });
    const synthesized = Testing.synth(env.node.scope as TerraformStack);
    const resources = Object.values(
      (JSON.parse(synthesized) as { resource: { chainform_contract: Record<string, Record<string, unknown>> } }).resource
        .chainform_contract,
    );
    expect(resources).toEqual([expect.objectContaining({ artifact_path: `${process.cwd()}/out/Token.sol/Token.json` })]);
    expect(resources[0]).not.toHaveProperty("abi");
  });

  it.each([
    [{ networkId: Network.MAINNET }, /give artifactPath .* or bytecode with abi, exactly one of them/],
    [{ networkId: Network.MAINNET, bytecode: "0x60" }, /bytecode needs abi/],
    [{ networkId: Network.MAINNET, artifactPath: "a.json", from: "me" }, /from must be an address/],
  ])("refuses %j at construction", (props, message) => {
    expect(() => newEnvironment().deployContract("token", props)).toThrow(message);
  });

  it("refuses a bad holder or amount, naming the construct", () => {
    const env = newEnvironment();
    expect(
      () => new Erc20Balance(env, "bad", { environment: env, networkId: Network.MAINNET, token: ALICE, holder: "alice", amount: -1 }),
    ).toThrow(/\[stack\/env\/bad\] holder must be an address[\s\S]*amount must be a whole number/);
  });

  it("fails at synth when the network is not in the environment", () => {
    const env = newEnvironment();
    env.deployContract("token", { networkId: Network.ARBITRUM, artifactPath: "a.json" });
    expect(() => Testing.fullSynth(env.node.scope as TerraformStack)).toThrow(
      /network "42161" is used, but the environment does not fork it/,
    );
  });
});
