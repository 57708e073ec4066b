// A throw-away chainform environment per pull request: mainnet, Base and Arbitrum forked with their own chain ids,
// bridged with a delayed relay, and a funded deployer. CI synthesizes it with `npx tsx main.ts` (no cdktf-cli),
// then runs terraform in cdktf.out/stacks/<stack>; see README.md.
import { App, TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { Bridge, ChainformProvider, Environment, Network, ether } from "chainform/constructs";

/** The deployer CI funds on every network; override with DEPLOYER_ADDRESS. */
const DEPLOYER = process.env.DEPLOYER_ADDRESS ?? "0x1111111111111111111111111111111111111111";

/** Chain ids the forks answer with, distinct from the real networks so that wallets never confuse them. */
const FORKS = [
  { name: "mainnet", networkId: Network.MAINNET, chainId: 73571 },
  { name: "base", networkId: Network.BASE, chainId: 84530 },
  { name: "arbitrum", networkId: Network.ARBITRUM, chainId: 42170 },
] as const;

export class PullRequestStack extends TerraformStack {
  public constructor(scope: Construct, id: string, pullRequest: string) {
    super(scope, id);
    new ChainformProvider(this, "chainform"); // configured from the CHAINFORM_* environment variables

    const env = new Environment(this, "environment", {
      displayName: `PR ${pullRequest}`,
      // The slug ends with a dash-separated suffix so that `teardown --prefix pr-7-` never matches pull request 70.
      slug: `pr-${pullRequest}-multichain`,
      bridge: Bridge.delayedRelay(30),
    });
    for (const fork of FORKS) {
      env.addNetwork({
        networkId: fork.networkId,
        chainId: fork.chainId,
        accounts: [{ address: DEPLOYER, balance: ether(100) }],
      });
    }

    new TerraformOutput(this, "environment_id", { value: env.environmentId });
    new TerraformOutput(this, "environment_slug", { value: env.environmentSlug });
    for (const fork of FORKS) {
      const vnet = env.vnet(fork.networkId);
      new TerraformOutput(this, `${fork.name}_rpc_url`, { value: env.publicRpcUrl(fork.networkId) });
      new TerraformOutput(this, `${fork.name}_admin_rpc_url`, { value: env.adminRpcUrl(fork.networkId), sensitive: true });
      new TerraformOutput(this, `${fork.name}_chain_id`, { value: vnet.chainId });
    }
  }
}

/** The pull request number from CI (GitHub Actions: `PR_NUMBER: ${{ github.event.number }}`), "local" elsewhere. */
const pullRequest = (process.env.PR_NUMBER ?? "local").trim() || "local";
const app = new App();
new PullRequestStack(app, `pr-${pullRequest}`, pullRequest);
app.synth();
