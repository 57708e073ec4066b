/**
 * `npm run bench -- provider`: the chainform Terraform provider as Terraform runs it (the offline mirror's
 * launcher, built by `npm run build`), against the local service, compared in the same run with what Terraform
 * itself sets as the limit. Everything is interleaved (chainform, then the baseline, then chainform again...) and
 * repeated, and medians are compared, so that a machine busy with other work slows both sides alike.
 *
 * - Handshake: spawn the mirror launcher with Terraform's handshake environment (mTLS client certificate included)
 *   and time until the handshake line on stdout, interleaved with the Go provider hashicorp/aws from
 *   /opt/tf-plugins (or BENCH_GO_PROVIDER) when it is there, and with `node -e 0`.
 * - `terraform plan` of 50 environments to create, and after `apply` the plan that refreshes the 50, each
 *   interleaved with the same plan of 50 `terraform_data` (Terraform's built-in resource: no provider process).
 * - A profile from CHAINFORM_PROVIDER_TRACE (lib/terraform/protocol/trace.ts) of one more chainform plan of each kind,
 *   after the timed ones (which are not traced): the provider processes, their start-up, code loading, RPC time by
 *   RPC, shutdown, CPU, and the peak RSS.
 * - The floor: the same two plans with bench/support/floor-provider.ts, chainform's wire layer and schema with no
 *   provider behind it (every RPC answers with what it was given), built here with the provider's own bundler and
 *   loader. Its gap to terraform_data is what Terraform's process model and Node.js cost any provider built this
 *   way; the rest of chainform's gap is chainform's own code.
 * - plan/apply/destroy of 1 and 10 environments, once each, for scale.
 *
 * Targets (issue 14): plan of 50 to create within 400 ms of 50 terraform_data, plan with refresh within 600 ms;
 * handshake median at most half the Go provider's. The last line is one JSON object with the figures and the ratios
 * to the targets (ratio <= 1 meets it). BENCH_REPEAT sets the repetitions (default 5).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  PROVIDER_ADDRESS,
  mirrorLayout,
  packageVersion,
  providerExecutableName,
  PROVIDER_HOST,
  PROVIDER_NAMESPACE,
  PROVIDER_TYPE,
  terraformCliConfigPath,
} from "../lib/terraform/mirror";
import { bundleProvider } from "../lib/terraform/protocol/bundle";
import { MAGIC_COOKIE_VALUE } from "../lib/terraform/protocol/handshake";
import { SCHEMA_FILE } from "../lib/terraform/provider/schema-file";
import { generateServerCertificate } from "../lib/certificates/self-signed";
import { TRACE_ENV, type TraceEvent } from "../lib/terraform/protocol/trace";
import { summarizeTrace, type TraceSummary } from "../lib/terraform/protocol/trace-summary";
import { PROVIDER_BLOCK, providerEnv } from "../test/helpers/acceptance";
import { startTestService } from "../test/helpers/service";
import { TerraformWorkspace } from "../test/helpers/terraform";
import { median } from "./support/stats";

const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const HANDSHAKES = 15;
const PLAN_COUNT = 50;
const SCALE_COUNTS = [1, 10] as const;
const TARGETS = { plan50CreateOverMs: 400, plan50RefreshOverMs: 600, handshakeOfGo: 0.5 };
const GO_PROVIDER =
  process.env.BENCH_GO_PROVIDER ??
  "/opt/tf-plugins/registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64/terraform-provider-aws_v5.100.0_x5";

const round = (ms: number) => Math.round(ms);
const ratio = (value: number, limit: number) => +(value / limit).toFixed(2);

/** Spawns a plugin as Terraform would and resolves with the ms until its handshake line. */
function handshakeOnce(command: string, args: string[], env: NodeJS.ProcessEnv, clientCertPem: string, protocols: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      env: {
        ...env,
        TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
        PLUGIN_PROTOCOL_VERSIONS: protocols,
        PLUGIN_MIN_PORT: "10000",
        PLUGIN_MAX_PORT: "25000",
        PLUGIN_CLIENT_CERT: clientCertPem,
      },
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes("\n")) return;
      const ms = performance.now() - started;
      child.kill("SIGKILL");
      if (!/^1\|[56]\|(tcp|unix)\|[^|]+\|grpc\|/.test(out)) reject(new Error(`unexpected handshake from ${command}: ${out}`));
      else resolve(ms);
    });
    child.on("error", reject);
  });
}

/** `node -e 0` with the same environment as the provider's start (NODE_EXTRA_CA_CERTS alone costs Node 20 ~60 ms). */
function nodeEmptyStart(env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => spawn(process.execPath, ["-e", "0"], { env }).on("close", () => resolve(performance.now() - started)));
}

const environments = (count: number) => `${PROVIDER_BLOCK}
provider "chainform" {}

resource "chainform_environment" "bench" {
  count        = ${count}
  display_name = "bench \${count.index}"
  network_config {
    network_id = "1"
  }
}
`;

const terraformData = (count: number) => `resource "terraform_data" "bench" {
  count = ${count}
  input = "bench \${count.index}"
}
`;

function readTrace(file: string): TraceSummary {
  const events = existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as TraceEvent)
    : [];
  rmSync(file, { force: true });
  return summarizeTrace(events);
}

/** The profile of the median run, with the RPCs that took the most time first. */
function describeProfile(label: string, summary: TraceSummary, gapMs: number): string {
  const rpcs = Object.entries(summary.rpcs)
    .sort((a, b) => b[1].totalMs - a[1].totalMs)
    .map(([name, r]) => `${name} x${r.calls} ${round(r.totalMs)} ms (max ${round(r.maxMs)})`)
    .join(", ");
  return (
    `${label}: gap ${round(gapMs)} ms to terraform_data; ${summary.processes} provider processes: start to handshake ${round(summary.startupMs)} ms, ` +
    `code load ${round(summary.loadMs)} ms, RPCs in flight ${round(summary.rpcBusyMs)} ms, Shutdown to exit ${round(summary.shutdownToExitMs)} ms, ` +
    `CPU ${round(summary.cpuMs)} ms, peak RSS ${summary.peakRssMb} MB\n  RPCs: ${rpcs}`
  );
}

async function handshakes(figures: Record<string, unknown>, baseEnv: NodeJS.ProcessEnv): Promise<number | undefined> {
  const version = packageVersion();
  const launcher = join(
    mirrorLayout().mirrorDir,
    PROVIDER_HOST,
    PROVIDER_NAMESPACE,
    PROVIDER_TYPE,
    version,
    "linux_amd64",
    providerExecutableName(version),
  );
  const clientCert = generateServerCertificate().certPem;
  const goPresent = existsSync(GO_PROVIDER);
  const cold = await handshakeOnce(launcher, [], baseEnv, clientCert, "5,6");
  await new Promise((resolve) => setTimeout(resolve, 500)); // the loader saves V8's code cache ~300 ms after start
  const samples = { chainform: [] as number[], go: [] as number[], node: [] as number[] };
  for (let i = 0; i < HANDSHAKES; i++) {
    samples.chainform.push(await handshakeOnce(launcher, [], baseEnv, clientCert, "5,6"));
    if (goPresent) samples.go.push(await handshakeOnce(GO_PROVIDER, [], baseEnv, clientCert, "5"));
    samples.node.push(await nodeEmptyStart(baseEnv));
  }
  const chainformMedian = median(samples.chainform);
  figures.handshake = {
    coldMs: round(cold),
    medianMs: round(chainformMedian),
    minMs: round(Math.min(...samples.chainform)),
    maxMs: round(Math.max(...samples.chainform)),
    nodeEmptyStartMedianMs: round(median(samples.node)),
    goProviderMedianMs: goPresent ? round(median(samples.go)) : null,
  };
  console.error(
    `handshake: chainform median ${round(chainformMedian)} ms (cold ${round(cold)}), ` +
      `${goPresent ? `Go hashicorp/aws ${round(median(samples.go))} ms` : `Go provider absent (${GO_PROVIDER}): no comparison`}, ` +
      `node -e 0 ${round(median(samples.node))} ms, over ${HANDSHAKES} interleaved starts`,
  );
  return goPresent ? chainformMedian / median(samples.go) : undefined;
}

/**
 * Builds the floor provider (bench/support/floor-provider.ts) into `work`/floor and returns its directory (for
 * dev_overrides) and the environment that points it at the schema answer chainform's build wrote.
 */
async function buildFloor(work: string): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = join(work, "floor");
  await bundleProvider({ entry: join(__dirname, "support", "floor-provider.ts"), outDir: dir, type: PROVIDER_TYPE });
  return { dir, env: { BENCH_FLOOR_SCHEMA: join(dirname(mirrorLayout().bundlePath), SCHEMA_FILE) } };
}

async function main(): Promise<void> {
  terraformCliConfigPath(); // fails clearly when the provider is not built
  const work = mkdtempSync(join(tmpdir(), "chainform-bench-provider-"));
  const cacheDir = join(work, "cache");
  const traceFile = join(work, "trace.jsonl");
  const service = await startTestService();
  const figures: Record<string, unknown> = { repeat: REPEAT };
  try {
    // The handshake runs kill the plugins (as soon as the line is out), which leaves their Unix sockets behind.
    const socketDir = join(work, "sockets");
    mkdirSync(socketDir);
    const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: cacheDir, PLUGIN_UNIX_SOCKET_DIR: socketDir };
    const handshakeOfGo = await handshakes(figures, baseEnv);

    const env = { ...providerEnv(service), XDG_CACHE_HOME: cacheDir };
    const mirror = { filesystemMirror: { path: mirrorLayout().mirrorDir, include: [PROVIDER_ADDRESS] } };
    const tf = TerraformWorkspace.create({ ...mirror, env });
    // The timed runs are not traced (tracing costs ~25 ms in a refresh of 50); a traced run follows each kind.
    const traced = tf.withEnv({ [TRACE_ENV]: traceFile });
    const plain = TerraformWorkspace.create({ env });
    const floorBuild = await buildFloor(work);
    const floor = TerraformWorkspace.create({ devOverrides: { [PROVIDER_ADDRESS]: floorBuild.dir }, env: { ...env, ...floorBuild.env } });
    const plans: Record<string, { chainform: number[]; terraformData: number[]; floor: number[]; profile?: TraceSummary }> = {
      create: { chainform: [], terraformData: [], floor: [] },
      refresh: { chainform: [], terraformData: [], floor: [] },
    };
    try {
      tf.write("main.tf", environments(PLAN_COUNT));
      plain.write("main.tf", terraformData(PLAN_COUNT));
      floor.write("main.tf", environments(PLAN_COUNT));
      await tf.expect(["init", "-input=false"]);
      await plain.expect(["init", "-input=false"]);
      const interleave = async (kind: "create" | "refresh", args: string[]) => {
        await tf.expect(args); // warm-up: fills V8's code cache, as the first start of any command does
        await floor.expect(args);
        for (let i = 0; i < REPEAT; i++) {
          plans[kind]!.chainform.push((await tf.expect(args)).ms);
          plans[kind]!.terraformData.push((await plain.expect(args)).ms);
          plans[kind]!.floor.push((await floor.expect(args)).ms);
        }
        await traced.expect(args);
        plans[kind]!.profile = readTrace(traceFile);
      };
      await interleave("create", ["plan", "-input=false"]);
      await tf.expect(["apply", "-auto-approve", "-input=false"]);
      await plain.expect(["apply", "-auto-approve", "-input=false"]);
      // The floor refreshes the very state chainform's apply wrote (it cannot apply anything itself).
      floor.write("terraform.tfstate", readFileSync(join(tf.dir, "terraform.tfstate"), "utf8"));
      await interleave("refresh", ["plan", "-input=false", "-detailed-exitcode"]);
      await tf.expect(["destroy", "-auto-approve", "-input=false"]);
    } finally {
      tf.dispose();
      plain.dispose();
      floor.dispose();
    }
    const planFigures: Record<string, unknown> = {};
    const gaps: Record<string, number> = {};
    for (const [kind, runs] of Object.entries(plans)) {
      const chainform = median(runs.chainform);
      const data = median(runs.terraformData);
      const floorMedian = median(runs.floor);
      gaps[kind] = chainform - data;
      const profile = runs.profile!;
      planFigures[kind] = {
        chainformMedianMs: round(chainform),
        terraformDataMedianMs: round(data),
        gapMs: round(chainform - data),
        chainformRunsMs: runs.chainform.map(round),
        terraformDataRunsMs: runs.terraformData.map(round),
        floorMedianMs: round(floorMedian),
        floorGapMs: round(floorMedian - data),
        floorRunsMs: runs.floor.map(round),
        peakRssMb: profile.peakRssMb,
        profile,
      };
      console.error(
        `plan of ${PLAN_COUNT} (${kind}): chainform median ${round(chainform)} ms, terraform_data ${round(data)} ms, ` +
          `floor (wire layer and schema, no provider) ${round(floorMedian)} ms: ${round(floorMedian - data)} ms of the gap ` +
          `is Terraform's process model and Node.js, ${round(chainform - floorMedian)} ms chainform's code`,
      );
      console.error(describeProfile(`  profile of a traced ${kind} plan after the timed ones`, profile, chainform - data));
    }
    figures[`plan${PLAN_COUNT}`] = planFigures;

    // For scale: plan, apply, plan again, destroy of 1 and 10 environments, once each.
    const scale: Record<string, Record<string, number>> = {};
    for (const count of SCALE_COUNTS) {
      const workspace = TerraformWorkspace.create({ ...mirror, env });
      try {
        workspace.write("main.tf", environments(count));
        await workspace.expect(["init", "-input=false"]);
        scale[count] = {
          planCreateMs: round((await workspace.expect(["plan", "-input=false"])).ms),
          applyMs: round((await workspace.expect(["apply", "-auto-approve", "-input=false"])).ms),
          planRefreshMs: round((await workspace.expect(["plan", "-input=false", "-detailed-exitcode"])).ms),
          destroyMs: round((await workspace.expect(["destroy", "-auto-approve", "-input=false"])).ms),
        };
        console.error(`${count} environment(s): ${JSON.stringify(scale[count])}`);
      } finally {
        workspace.dispose();
      }
    }
    figures.scale = scale;

    figures.targets = TARGETS;
    figures.ratios = {
      plan50Create: ratio(gaps.create!, TARGETS.plan50CreateOverMs),
      plan50Refresh: ratio(gaps.refresh!, TARGETS.plan50RefreshOverMs),
      handshakeOfGo: handshakeOfGo === undefined ? null : ratio(handshakeOfGo, TARGETS.handshakeOfGo),
    };
  } finally {
    await service.close();
    rmSync(work, { recursive: true, force: true });
  }
  console.log(JSON.stringify(figures));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
