// The example of issue 6, verbatim: the API users write. test/constructs-example.test.ts synthesizes it.
import { App, TerraformStack, TerraformOutput } from "cdktf";
import { Construct } from "constructs";
import { ChainformProvider, Environment, Network, Bridge, ether } from "chainform/constructs";

class PullRequestStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new ChainformProvider(this, "chainform"); // configured from the CHAINFORM_* environment variables
    const env = new Environment(this, "pr", {
      displayName: `PR ${process.env.PR_NUMBER ?? "local"}`,
      slug: `pr-${process.env.PR_NUMBER ?? "local"}`,
      networks: [
        {
          networkId: Network.MAINNET,
          chainId: 73571,
          accounts: [{ address: "0x1111111111111111111111111111111111111111", balance: ether(100) }],
        },
        { networkId: Network.BASE, chainId: 84530 },
      ],
      bridge: Bridge.delayedRelay(30),
    });
    env.addNetwork({ networkId: Network.ARBITRUM });
    new TerraformOutput(this, "mainnet_rpc", { value: env.publicRpcUrl(Network.MAINNET) });
    new TerraformOutput(this, "mainnet_admin_rpc", { value: env.adminRpcUrl(Network.MAINNET), sensitive: true });
  }
}

const app = new App();
new PullRequestStack(app, "pull-request");
app.synth();
