// Ethereum mainnet forked at a pinned block: a Virtual Environment with mainnet's real contracts and state as of
// that block, a test holder funded with ether and with USDC (written into the real token's storage), and two reads
// of the real token. Needs an upstream for network 1 (docs/forking.md):
//   chainform up examples/cdktf/fork-mainnet --fork 1=https://YOUR-MAINNET-RPC
// A first run records what the fork read under .chainform/fork-cache (or --fork-cache DIR); later runs replay it
// with --offline, with no upstream at all.
import { App, TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { ChainformProvider, ContractCall, Environment, Erc20Balance, Network, ether } from "chainform/constructs";

/** The block to fork: pinned, so every run (and every replay) sees the same state. FORK_BLOCK overrides it. */
const FORK_BLOCK = process.env.FORK_BLOCK?.trim() || "0x1406f40"; // 21,000,000
/** USDC on mainnet; TOKEN_ADDRESS names another ERC-20 token of the forked network. */
const TOKEN = process.env.TOKEN_ADDRESS?.trim() || "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
/** The holder the tests use; 1000 tokens of 6 decimals. */
const HOLDER = "0x00000000000000000000000000000000000a11ce";
const AMOUNT = 1_000_000_000n;
/** FORK_NAME names the stack and the environment (fork-mainnet-<name>); "local" by default. */
const NAME = (process.env.FORK_NAME ?? "local").trim() || "local";

export class ForkMainnetStack extends TerraformStack {
  public constructor(scope: Construct, id: string) {
    super(scope, id);
    new ChainformProvider(this, "chainform"); // configured from the CHAINFORM_* environment variables

    const env = new Environment(this, "environment", {
      displayName: "Mainnet fork",
      slug: `fork-mainnet-${NAME}`,
      // Its own chain id, so that wallets never confuse the fork with mainnet.
      networks: [
        { networkId: Network.MAINNET, chainId: 73571, blockNumber: FORK_BLOCK, accounts: [{ address: HOLDER, balance: ether(10) }] },
      ],
    });
    const funded = new Erc20Balance(this, "holder-token", {
      environment: env,
      networkId: Network.MAINNET,
      token: TOKEN,
      holder: HOLDER,
      amount: AMOUNT,
    });
    // Reads of the real token's state at the pinned block, and of the balance written into it.
    const supply = new ContractCall(this, "total-supply", {
      environment: env,
      networkId: Network.MAINNET,
      address: TOKEN,
      functionName: "totalSupply() view returns (uint256)",
    });
    const held = new ContractCall(this, "holder-balance", {
      environment: env,
      networkId: Network.MAINNET,
      address: TOKEN,
      functionName: "balanceOf(address) view returns (uint256)",
      args: [HOLDER],
      after: [funded],
    });

    new TerraformOutput(this, "token_total_supply", { value: supply.result(0) });
    new TerraformOutput(this, "holder_balance", { value: held.result(0) });
    new TerraformOutput(this, "rpc_url", { value: env.publicRpcUrl(Network.MAINNET) });
    new TerraformOutput(this, "admin_rpc_url", { value: env.adminRpcUrl(Network.MAINNET), sensitive: true });
  }
}

const app = new App();
new ForkMainnetStack(app, `fork-mainnet-${NAME}`);
app.synth();
