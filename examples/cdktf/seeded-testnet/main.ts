// A seeded test environment: Ethereum mainnet and Base forked as Virtual Environments, an ERC-20 token deployed on
// each from a compiled artifact, two holders funded with it, and a snapshot per network for test suites to revert
// to. Synthesize with `npx tsx main.ts`, or let `chainform up examples/cdktf/seeded-testnet` do everything.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { App, TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { ChainformProvider, Environment, Erc20Balance, Network, Snapshot, ether } from "chainform/constructs";

/** The holders every network funds: 1000 and 250 tokens (6 decimals). */
const HOLDERS = {
  alice: { address: "0x00000000000000000000000000000000000a11ce", amount: 1_000_000_000n },
  bob: { address: "0x0000000000000000000000000000000000000b0b", amount: 250_000_000n },
} as const;

/** Chain ids the forks answer with. */
const NETWORKS = [
  { name: "mainnet", networkId: Network.MAINNET, chainId: 73575 },
  { name: "base", networkId: Network.BASE, chainId: 84535 },
] as const;

/**
 * The token's artifact: TOKEN_ARTIFACT, or the one `npm run build` compiles in this repository
 * (contracts/ChainformToken.sol). A Foundry (out/X.sol/X.json) or Hardhat artifact works the same.
 */
function tokenArtifact(): string {
  const path = process.env.TOKEN_ARTIFACT ?? join(__dirname, "..", "..", "..", "dist", "contracts", "ChainformToken.json");
  if (!existsSync(path)) throw new Error(`no token artifact at ${path}: run \`npm run build\` or set TOKEN_ARTIFACT`);
  return path;
}

/** One seeded environment: two forked networks, a token on each, funded holders, a snapshot per network. */
export class SeededStack extends TerraformStack {
  public constructor(scope: Construct, id: string, name: string) {
    super(scope, id);
    new ChainformProvider(this, "chainform"); // configured from the CHAINFORM_* environment variables

    const env = new Environment(this, "environment", {
      displayName: `Seeded ${name}`,
      slug: `seeded-${name}`,
      // The holders also get ether for gas.
      networks: NETWORKS.map((n) => ({
        networkId: n.networkId,
        chainId: n.chainId,
        accounts: Object.values(HOLDERS).map((h) => ({ address: h.address, balance: ether(10) })),
      })),
    });

    for (const network of NETWORKS) {
      const token = env.deployContract(`token-${network.name}`, {
        networkId: network.networkId,
        artifactPath: tokenArtifact(),
        constructorArgs: ["Seeded Dollar", "SUSD", 6, 0n],
      });
      const balances = Object.entries(HOLDERS).map(
        ([holder, { address, amount }]) =>
          new Erc20Balance(this, `${holder}-${network.name}`, {
            environment: env,
            networkId: network.networkId,
            token,
            holder: address,
            amount,
          }),
      );
      const seeded = new Snapshot(this, `seeded-${network.name}`, {
        environment: env,
        networkId: network.networkId,
        after: balances,
        triggers: { token: token.address },
      });
      const aliceBalance = token.call(
        `alice-balance-${network.name}`,
        "balanceOf(address) view returns (uint256)",
        [HOLDERS.alice.address],
        balances,
      );

      new TerraformOutput(this, `${network.name}_token`, { value: token.address });
      new TerraformOutput(this, `${network.name}_alice_balance`, { value: aliceBalance.result(0) });
      new TerraformOutput(this, `${network.name}_snapshot`, { value: seeded.snapshotId });
      new TerraformOutput(this, `${network.name}_revert_request`, { value: seeded.revertRequest });
      new TerraformOutput(this, `${network.name}_rpc_url`, { value: env.publicRpcUrl(network.networkId) });
      new TerraformOutput(this, `${network.name}_admin_rpc_url`, { value: env.adminRpcUrl(network.networkId), sensitive: true });
    }
  }
}

/** SEED_NAME names the environment (seeded-<name>); "local" by default. */
const name = (process.env.SEED_NAME ?? "local").trim() || "local";
const app = new App();
new SeededStack(app, `seeded-${name}`, name);
app.synth();
