/**
 * `npm run bench -- up`: `chainform up` of examples/cdktf/multichain-ci end to end (embedded service, synth,
 * terraform init, plan, apply, RPC and balance checks, destroy), as `npm start` runs it, from the built CLI.
 *
 * The first run starts from an empty output directory (the app is synthesized and terraform initialized); the next
 * BENCH_REPEAT runs (default 3) find the output of the one before (synthesis reused and init skipped when nothing
 * changed: lib/cli/work-cache.ts). Each run's steps are read from the CLI's progress lines, and the provider's
 * processes from CHAINFORM_PROVIDER_TRACE, to show where the time went.
 *
 * Target (issue 14): the whole run under 5 s. The last line is one JSON object with the figures and the ratios to
 * the target (ratio <= 1 meets it), for the first run and the median of the others.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TRACE_ENV, type TraceEvent } from "../lib/terraform/protocol/trace";
import { summarizeTrace, type TraceSummary } from "../lib/terraform/protocol/trace-summary";
import { median } from "./support/stats";

const ROOT = join(__dirname, "..");
const EXAMPLE = join(ROOT, "examples", "cdktf", "multichain-ci");
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const TARGET_MS = 5_000;

interface Run {
  readonly wallMs: number;
  /** Step label -> ms, from the `✓ label (duration)` progress lines. */
  readonly steps: Record<string, number>;
  readonly provider: TraceSummary;
}

const round = (ms: number) => Math.round(ms);

/** `850 ms`, `4.2 s`, `1 min 5 s` (lib/cli/duration.ts formatDuration) back to ms. */
function parseShownDuration(text: string): number {
  const minutes = /^(\d+) min (\d+) s$/.exec(text);
  if (minutes) return Number(minutes[1]) * 60_000 + Number(minutes[2]) * 1_000;
  const [amount, unit] = text.split(" ");
  return Number(amount) * (unit === "s" ? 1_000 : 1);
}

function upOnce(env: NodeJS.ProcessEnv, traceFile: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(ROOT, "bin", "chainform"), "up"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stdout.resume();
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`chainform up exited ${code}:\n${stderr}`));
      const steps: Record<string, number> = {};
      for (const [, label, shown] of stderr.matchAll(/^✓ (.+) \(([^()]+)\)$/gm)) steps[label!] = parseShownDuration(shown!);
      const events = existsSync(traceFile)
        ? readFileSync(traceFile, "utf8")
            .trim()
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line) as TraceEvent)
        : [];
      rmSync(traceFile, { force: true });
      resolve({ wallMs, steps, provider: summarizeTrace(events) });
    });
  });
}

function describe(label: string, run: Run): string {
  const steps = Object.entries(run.steps)
    .map(([step, ms]) => `${step} ${round(ms)}`)
    .join(", ");
  const p = run.provider;
  return (
    `${label}: ${round(run.wallMs)} ms wall\n  steps (ms): ${steps}\n` +
    `  provider: ${p.processes} processes, start to handshake ${round(p.startupMs)} ms, code load ${round(p.loadMs)} ms, ` +
    `RPCs in flight ${round(p.rpcBusyMs)} ms (${Object.entries(p.rpcs)
      .sort((a, b) => b[1].totalMs - a[1].totalMs)
      .slice(0, 4)
      .map(([name, r]) => `${name} x${r.calls} ${round(r.totalMs)}`)
      .join(", ")}), Shutdown to exit ${round(p.shutdownToExitMs)} ms, peak RSS ${p.peakRssMb} MB`
  );
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "chainform-bench-up-"));
  const traceFile = join(work, "trace.jsonl");
  const pullRequest = `9${String(Math.floor(Math.random() * 100_000)).padStart(5, "0")}`;
  const { CHAINFORM_BASE_URL: _external, CHAINFORM_WORK_CACHE: _cache, ...inherited } = process.env;
  const env = { ...inherited, PR_NUMBER: pullRequest, CDKTF_OUTDIR: join(work, "cdktf.out"), [TRACE_ENV]: traceFile };
  const runs: Run[] = [];
  try {
    for (let i = 0; i <= REPEAT; i++) {
      runs.push(await upOnce(env, traceFile));
      console.error(describe(i === 0 ? "first run (synthesize, terraform init)" : `run ${i + 1} (output of the run before)`, runs[i]!));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    // The example's local backend keeps state files in the app directory: remove this benchmark's.
    for (const file of readdirSync(EXAMPLE)) {
      if (file.startsWith(`terraform.pr-${pullRequest}.tfstate`)) rmSync(join(EXAMPLE, file), { force: true });
    }
  }
  const [first, ...rest] = runs;
  const warmWall = median(rest.map((r) => r.wallMs));
  const medianRun = rest.reduce((best, run) => (Math.abs(run.wallMs - warmWall) < Math.abs(best.wallMs - warmWall) ? run : best));
  const stepMedians = Object.fromEntries(
    Object.keys(rest[0]!.steps).map((step) => [step, round(median(rest.map((r) => r.steps[step] ?? 0)))]),
  );
  const figures = {
    repeat: REPEAT,
    firstRun: { wallMs: round(first!.wallMs), steps: first!.steps, provider: first!.provider },
    warm: {
      wallMedianMs: round(warmWall),
      wallRunsMs: rest.map((r) => round(r.wallMs)),
      stepMediansMs: stepMedians,
      providerOfMedianRun: medianRun.provider,
    },
    targetMs: TARGET_MS,
    ratios: { firstRun: +(first!.wallMs / TARGET_MS).toFixed(2), warmMedian: +(warmWall / TARGET_MS).toFixed(2) },
  };
  console.log(JSON.stringify(figures));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
