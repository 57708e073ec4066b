/**
 * End to end: the multichain-ci example app synthesized with tsx, then real `terraform init` (offline mirror),
 * `apply`, a second `plan` that must be empty, and `destroy`, against the local service.
 *
 * Runs only once the provider is built (`npm run build` bundles lib/terraform/provider/main.ts into the mirror);
 * until then it is reported as skipped, not passed.
 */
import { assertProviderBuilt } from "./helpers/cli";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "../lib/client";
import { PROVIDER_ADDRESS, mirrorLayout, terraformCliConfigPath } from "../lib/terraform/mirror";
import { startTestService, type TestService } from "./helpers/service";
import { TerraformWorkspace } from "./helpers/terraform";

const ROOT = join(__dirname, "..");
const EXAMPLE_MAIN = join(ROOT, "examples", "cdktf", "multichain-ci", "main.ts");
const TSX = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

describe("multichain-ci example against the local service (terraform)", () => {
  beforeAll(assertProviderBuilt);
  let service: TestService;
  let tf: TerraformWorkspace;
  const pullRequest = String(10_000 + Math.floor(Math.random() * 80_000));
  const terraform = (...args: string[]) => tf.expect(args).then((r) => r.stdout);

  beforeAll(async () => {
    service = await startTestService();
    terraformCliConfigPath(); // writes the mirror when it is missing
    tf = TerraformWorkspace.create({
      filesystemMirror: { path: mirrorLayout().mirrorDir, include: [PROVIDER_ADDRESS] },
      env: {
        CHAINFORM_BASE_URL: service.baseUrl,
        CHAINFORM_ACCESS_KEY: service.accessKey,
        CHAINFORM_ACCOUNT: service.accountSlug,
        CHAINFORM_PROJECT: service.projectSlug,
      },
    });
    // Synthesize from the workspace so that the stack's local state file lands there, then run terraform on it.
    const synth = spawnSync(process.execPath, [TSX, EXAMPLE_MAIN], {
      cwd: tf.dir,
      env: { ...process.env, PR_NUMBER: pullRequest, CDKTF_OUTDIR: join(tf.dir, "cdktf.out") },
      encoding: "utf8",
    });
    if (synth.status !== 0) throw new Error(`synth failed:\n${synth.stderr}`);
    tf.write("cdk.tf.json", readFileSync(join(tf.dir, "cdktf.out", "stacks", `pr-${pullRequest}`, "cdk.tf.json"), "utf8"));
    await terraform("init", "-input=false");
  }, 120_000);

  afterAll(async () => {
    // Leave nothing behind even when a step failed half-way.
    if (tf) await tf.run("destroy", "-auto-approve", "-input=false");
    await service?.close();
    tf?.dispose();
  }, 300_000);

  it("applies, and the outputs carry working RPC URLs and the chain ids", async () => {
    // WHEN the stack is applied
    await terraform("apply", "-auto-approve", "-input=false");
    const outputs = JSON.parse(await terraform("output", "-json")) as Record<string, { value: unknown; sensitive: boolean }>;
    // THEN every network has a public URL, a sensitive admin URL and its chain id
    for (const [name, chainId] of [
      ["mainnet", 73571],
      ["base", 84530],
      ["arbitrum", 42170],
    ] as const) {
      expect(outputs[`${name}_rpc_url`].value).toEqual(expect.stringMatching(new RegExp(`^${service.baseUrl}/rpc/public/`)));
      expect(outputs[`${name}_admin_rpc_url`]).toEqual({
        value: expect.stringMatching(new RegExp(`^${service.baseUrl}/rpc/admin/`)),
        sensitive: true,
        type: "string",
      });
      expect(outputs[`${name}_chain_id`].value).toBe(String(chainId));
      // AND the public RPC answers with that chain id
      const response = await fetch(outputs[`${name}_rpc_url`].value as string, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      expect(((await response.json()) as { result: string }).result).toBe(`0x${chainId.toString(16)}`);
    }
    expect(outputs.environment_slug.value).toBe(`pr-${pullRequest}-multichain`);
  }, 600_000);

  it("plans no changes on a second run", async () => {
    // -detailed-exitcode: 0 = no changes, 2 = changes (which fails the step)
    const plan = await terraform("plan", "-detailed-exitcode", "-input=false");
    expect(plan).toMatch(/No changes/);
  }, 300_000);

  it("destroys, leaving the project without the environment", async () => {
    await terraform("destroy", "-auto-approve", "-input=false");
    const client = createClient({
      baseUrl: service.baseUrl,
      accessKey: service.accessKey,
      accountSlug: service.accountSlug,
      projectSlug: service.projectSlug,
    });
    const remaining = await client.listEnvironments({ perPage: 100 });
    expect(remaining.map((e) => e.slug)).not.toContain(`pr-${pullRequest}-multichain`);
    expect(remaining).toEqual([]);
  }, 300_000);
});
