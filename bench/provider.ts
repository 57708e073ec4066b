/**
 * `npm run bench -- provider`: the chainform Terraform provider as Terraform runs it (the offline mirror's
 * launcher, built by `npm run build`), against the local service.
 *
 * - Start-to-handshake: spawn the mirror launcher with Terraform's handshake environment (mTLS client certificate
 *   included) and time until the handshake line on stdout; median of 25 starts after one warm-up start (which
 *   fills V8's compile cache, as the first of Terraform's 3-5 starts per command does).
 * - `terraform plan` and `apply` wall time for 1, 10 and 50 environments (plan before apply: all creates; a second
 *   plan after apply: all refreshes), and in the same run `plan` of the same count of Terraform's built-in
 *   `terraform_data`.
 *
 * Targets: handshake median <= 120 ms; plan of 50 environments < 3x the plan of 50 terraform_data + 2 s.
 * The last line is one JSON object with the figures and their ratios to the targets (ratio <= 1 meets it).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROVIDER_ADDRESS, mirrorLayout, packageVersion, providerExecutableName, PROVIDER_HOST, PROVIDER_NAMESPACE, PROVIDER_TYPE, terraformCliConfigPath } from "../lib/terraform/mirror";
import { MAGIC_COOKIE_VALUE } from "../lib/terraform/protocol/handshake";
import { generateServerCertificate } from "../lib/tls/certificate";
import { PROVIDER_BLOCK, providerEnv } from "../test/helpers/acceptance";
import { startTestService } from "../test/helpers/service";
import { TerraformWorkspace } from "../test/helpers/terraform";

const COUNTS = [1, 10, 50] as const;
const HANDSHAKES = 25;
const TARGETS = { handshakeMedianMs: 120, planFactor: 3, planSlackMs: 2_000 };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round = (ms: number) => Math.round(ms);

/** Spawns the mirror launcher as Terraform would and resolves with the ms until its handshake line. */
function handshakeOnce(launcher: string, env: NodeJS.ProcessEnv, clientCertPem: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(launcher, [], {
      env: {
        ...env,
        TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
        PLUGIN_PROTOCOL_VERSIONS: "5,6",
        PLUGIN_MIN_PORT: "10000",
        PLUGIN_MAX_PORT: "25000",
        PLUGIN_CLIENT_CERT: clientCertPem,
      },
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) {
        const ms = performance.now() - started;
        if (!/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|/.test(out)) reject(new Error(`unexpected handshake: ${out}`));
        child.kill("SIGKILL");
        resolve(ms);
      }
    });
    child.on("error", reject);
  });
}

function environments(count: number): string {
  return `${PROVIDER_BLOCK}
provider "chainform" {}

resource "chainform_environment" "bench" {
  count        = ${count}
  display_name = "bench \${count.index}"
  network_config {
    network_id = "1"
  }
}
`;
}

function terraformData(count: number): string {
  return `resource "terraform_data" "bench" {
  count = ${count}
  input = "bench \${count.index}"
}
`;
}

async function main(): Promise<void> {
  terraformCliConfigPath(); // fails clearly when the provider is not built
  const cacheDir = mkdtempSync(join(tmpdir(), "chainform-bench-cache-"));
  const service = await startTestService();
  const figures: Record<string, unknown> = {};
  try {
    // 1. Start-to-handshake of the mirror's launcher (what Terraform executes).
    const version = packageVersion();
    const launcher = join(mirrorLayout().mirrorDir, PROVIDER_HOST, PROVIDER_NAMESPACE, PROVIDER_TYPE, version, "linux_amd64", providerExecutableName(version));
    const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: cacheDir };
    const clientCert = generateServerCertificate().certPem;
    const cold = await handshakeOnce(launcher, baseEnv, clientCert);
    await new Promise((r) => setTimeout(r, 500)); // the loader saves the compile cache ~300 ms after start
    const samples: number[] = [];
    for (let i = 0; i < HANDSHAKES; i++) samples.push(await handshakeOnce(launcher, baseEnv, clientCert));
    const nodeBaseline: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await new Promise((r) => spawn(process.execPath, ["-e", "0"]).on("close", r));
      nodeBaseline.push(performance.now() - started);
    }
    figures.handshake = {
      coldMs: round(cold),
      medianMs: round(median(samples)),
      minMs: round(Math.min(...samples)),
      maxMs: round(Math.max(...samples)),
      nodeEmptyStartMedianMs: round(median(nodeBaseline)),
    };
    console.error(`handshake: cold ${round(cold)} ms, median ${round(median(samples))} ms over ${HANDSHAKES} (node -e 0: ${round(median(nodeBaseline))} ms)`);

    // 2. terraform plan / apply of N environments, and plan of N terraform_data, in the same run.
    const env = { ...providerEnv(service), XDG_CACHE_HOME: cacheDir };
    const runs: Record<string, Record<string, number>> = {};
    for (const count of COUNTS) {
      const tf = TerraformWorkspace.create({ filesystemMirror: { path: mirrorLayout().mirrorDir, include: [PROVIDER_ADDRESS] }, env });
      const plain = TerraformWorkspace.create({ env });
      try {
        tf.write("main.tf", environments(count));
        await tf.expect(["init", "-input=false"]);
        const planCreate = await tf.expect(["plan", "-input=false"]);
        const apply = await tf.expect(["apply", "-auto-approve", "-input=false"]);
        const planRefresh = await tf.expect(["plan", "-input=false", "-detailed-exitcode"]);
        const destroy = await tf.expect(["destroy", "-auto-approve", "-input=false"]);
        plain.write("main.tf", terraformData(count));
        await plain.expect(["init", "-input=false"]);
        const dataPlan = await plain.expect(["plan", "-input=false"]);
        await plain.expect(["apply", "-auto-approve", "-input=false"]);
        const dataPlanRefresh = await plain.expect(["plan", "-input=false", "-detailed-exitcode"]);
        runs[count] = {
          planCreateMs: round(planCreate.ms),
          applyMs: round(apply.ms),
          planRefreshMs: round(planRefresh.ms),
          destroyMs: round(destroy.ms),
          terraformDataPlanMs: round(dataPlan.ms),
          terraformDataPlanRefreshMs: round(dataPlanRefresh.ms),
        };
        console.error(`${count} environments: ${JSON.stringify(runs[count])}`);
      } finally {
        tf.dispose();
        plain.dispose();
      }
    }
    figures.terraform = runs;

    // 3. Ratios to the targets (<= 1 meets the target). The plan target is checked for both plans of 50: the one
    //    that plans creates and the one that refreshes 50 existing environments.
    const fifty = runs[50]!;
    const planLimit = (dataMs: number) => TARGETS.planFactor * dataMs + TARGETS.planSlackMs;
    figures.targets = TARGETS;
    figures.ratios = {
      handshakeMedian: +(median(samples) / TARGETS.handshakeMedianMs).toFixed(2),
      plan50Create: +(fifty.planCreateMs! / planLimit(fifty.terraformDataPlanMs!)).toFixed(2),
      plan50Refresh: +(fifty.planRefreshMs! / planLimit(fifty.terraformDataPlanRefreshMs!)).toFixed(2),
    };
  } finally {
    await service.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(figures));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
