/**
 * The multichain-ci example app, synthesized the way CI runs it: `tsx main.ts` with plain node (no cdktf-cli),
 * importing `chainform/constructs` through the package's exports map (so dist/ must be built: `npm test` builds).
 */
import "cdktf/lib/testing/adapters/jest"; // the matchers' types
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Testing } from "cdktf";
import * as environment from "../lib/constructs/generated/environment";
import * as provider from "../lib/constructs/generated/provider";

Testing.setupJest();

const ROOT = join(__dirname, "..");
const EXAMPLES = join(ROOT, "examples", "cdktf");
const TSX = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

/** Fails with what to do when dist/constructs is missing or older than its sources. */
function assertConstructsBuilt(): void {
  const sources = join(ROOT, "lib", "constructs");
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [join(dir, e.name)] : [],
    );
  for (const source of walk(sources)) {
    const built = join(ROOT, "dist", "constructs", relative(sources, source).replace(/\.ts$/, ".js"));
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs) {
      throw new Error(`${relative(ROOT, built)} is missing or older than its source: run \`npm run build\` first`);
    }
  }
}

/** Synthesizes the example with `env` and returns the stack's cdk.tf.json text. */
function synthesizeExample(env: Record<string, string>, stack: string, example = "multichain-ci"): string {
  const outdir = mkdtempSync(join(tmpdir(), "chainform-example-"));
  try {
    const run = spawnSync(process.execPath, [TSX, "main.ts"], {
      cwd: join(EXAMPLES, example),
      env: { ...process.env, CDKTF_OUTDIR: outdir, ...env },
      encoding: "utf8",
      timeout: 60_000,
    });
    if (run.status !== 0) throw new Error(`the example failed (${run.status}):\n${run.stderr}`);
    return readFileSync(join(outdir, "stacks", stack, "cdk.tf.json"), "utf8");
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const DEPLOYER = "0x1111111111111111111111111111111111111111";
const HUNDRED_ETHER = "0x56bc75e2d63100000";

describe("examples/cdktf/multichain-ci", () => {
  beforeAll(assertConstructsBuilt);

  it("synthesizes an environment named after the pull request, with three bridged, funded networks", () => {
    // GIVEN CI's PR_NUMBER
    // WHEN the app is synthesized with tsx
    const json = synthesizeExample({ PR_NUMBER: "123" }, "pr-123");
    // THEN the stack has the provider (from the environment variables) and the environment
    expect(json).toHaveProvider(provider.ChainformProvider);
    expect(JSON.parse(json).provider.chainform).toEqual([{}]);
    expect(json).toHaveResourceWithProperties(environment.Environment, {
      display_name: "PR 123",
      slug: "pr-123-multichain",
      bridge: { enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 },
      network_config: [
        { network_id: "1", chain_id: "73571", account: [{ address: DEPLOYER, balance: HUNDRED_ETHER }] },
        { network_id: "8453", chain_id: "84530", account: [{ address: DEPLOYER, balance: HUNDRED_ETHER }] },
        { network_id: "42161", chain_id: "42170", account: [{ address: DEPLOYER, balance: HUNDRED_ETHER }] },
      ],
    });
  });

  it("outputs every RPC URL, admin ones sensitive, and every chain id", () => {
    const json = synthesizeExample({ PR_NUMBER: "7" }, "pr-7");
    const output = JSON.parse(json).output as Record<string, { value: string; sensitive?: boolean }>;
    // THEN one public URL, one sensitive admin URL and one chain id per network, plus the environment's id and slug
    expect(Object.keys(output).sort()).toEqual([
      "arbitrum_admin_rpc_url",
      "arbitrum_chain_id",
      "arbitrum_rpc_url",
      "base_admin_rpc_url",
      "base_chain_id",
      "base_rpc_url",
      "environment_id",
      "environment_slug",
      "mainnet_admin_rpc_url",
      "mainnet_chain_id",
      "mainnet_rpc_url",
    ]);
    for (const [name, networkId] of [
      ["mainnet", "1"],
      ["base", "8453"],
      ["arbitrum", "42161"],
    ]) {
      expect(output[`${name}_rpc_url`]).toEqual({ value: expect.stringMatching(new RegExp(`\\.public_rpc_urls\\["${networkId}"\\]\\}$`)) });
      expect(output[`${name}_admin_rpc_url`]).toEqual({
        value: expect.stringMatching(new RegExp(`\\.admin_rpc_urls\\["${networkId}"\\]\\}$`)),
        sensitive: true,
      });
      expect(output[`${name}_chain_id`].value).toMatch(new RegExp(`\\["${networkId}"\\]\\.chain_id\\)\\}$`));
    }
  });

  it("names the environment 'local' outside CI", () => {
    const json = synthesizeExample({ PR_NUMBER: "" }, "pr-local");
    expect(json).toHaveResourceWithProperties(environment.Environment, { display_name: "PR local", slug: "pr-local-multichain" });
  });
});

describe("examples/cdktf/pull-request (the issue's example, verbatim)", () => {
  beforeAll(assertConstructsBuilt);

  it("synthesizes the environment and both outputs", () => {
    // GIVEN the app, importing from "chainform/constructs"
    // WHEN synthesized with PR_NUMBER=42
    const json = synthesizeExample({ PR_NUMBER: "42" }, "pull-request", "pull-request");
    // THEN it has the environment as written, arbitrum added, and the two outputs
    expect(json).toHaveResourceWithProperties(environment.Environment, {
      display_name: "PR 42",
      slug: "pr-42",
      bridge: { enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 },
      network_config: [
        { network_id: "1", chain_id: "73571", account: [{ address: DEPLOYER, balance: HUNDRED_ETHER }] },
        { network_id: "8453", chain_id: "84530" },
        { network_id: "42161" },
      ],
    });
    const output = JSON.parse(json).output;
    expect(output.mainnet_rpc.value).toMatch(/\.public_rpc_urls\["1"\]\}$/);
    expect(output.mainnet_admin_rpc).toEqual({ value: expect.stringMatching(/\.admin_rpc_urls\["1"\]\}$/), sensitive: true });
  });
});
