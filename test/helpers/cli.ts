/**
 * Runs the real `chainform` command line (bin/chainform -> dist/cli, built by `npm run build`; `npm test` builds
 * first) as a child process, the way users and CI run it.
 *
 * @example
 * const service = await startTestService();
 * const result = await runCli(["environments", "--json"], { env: serviceEnv(service) });
 * expect(result.code).toBe(0);
 */
import { mirrorLayout } from "../../lib/terraform/mirror";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Client } from "../../lib/client";
import type { RunningService } from "../../lib/service/listen";

/** The package root. */
export const ROOT = join(__dirname, "..", "..");
/** The executable users run. */
export const CLI_BIN = join(ROOT, "bin", "chainform");

/** The outcome of one CLI run. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time in milliseconds. */
  readonly ms: number;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** Added to the clean environment (see {@link cleanEnv}); undefined removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Kills the CLI after this long. @default 60000 */
  readonly timeoutMs?: number;
}

/**
 * The parent's environment without anything that would steer the CLI (CHAINFORM_*, GITHUB_*, CDKTF_OUTDIR), so a
 * test sets exactly what it means to.
 */
export function cleanEnv(extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(CHAINFORM_|GITHUB_|CDKTF_)/.test(name) && name !== "PR_NUMBER" && name !== "TERRAFORM_BIN") env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Starts the CLI and returns the child, for tests that talk to it while it runs (signals, `up --keep`). */
export function startCli(args: readonly string[], options: Omit<RunCliOptions, "timeoutMs"> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CLI_BIN, ...args], { cwd: options.cwd ?? ROOT, env: cleanEnv(options.env), stdio: "pipe" });
}

/** Runs the CLI to completion; never throws on a non-zero exit. */
export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  const started = performance.now();
  const child = startCli(args, options);
  return collect(child, options.timeoutMs ?? 60_000, started);
}

/** Waits for a started CLI to exit and collects its output. */
export function collect(child: ChildProcessWithoutNullStreams, timeoutMs: number, started = performance.now()): Promise<CliResult> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => out.push(c));
  child.stderr.on("data", (c: Buffer) => err.push(c));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        ms: performance.now() - started,
      });
    });
  });
}

/** What `chainform serve` prints as a JSON line (`"event":"ready"`) once it listens. */
export interface ServeReady {
  readonly baseUrl: string;
  readonly accessKey: string;
  readonly accountSlug: string;
  readonly projectSlug: string;
}

/**
 * Watches a started `chainform serve`: `ready` resolves with its ready line, or rejects with what it printed if it
 * exits first; `output()` is everything it has printed so far (stdout and stderr, in arrival order).
 */
export function watchServe(serve: ChildProcessWithoutNullStreams): { ready: Promise<ServeReady>; output: () => string } {
  let output = "";
  const ready = new Promise<ServeReady>((resolve, reject) => {
    serve.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const line = output.split("\n").find((l) => l.includes('"event":"ready"'));
      if (line) resolve(JSON.parse(line) as ServeReady);
    });
    serve.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    serve.once("exit", (code) => reject(new Error(`chainform serve exited ${code}: ${output}`)));
  });
  return { ready, output: () => output };
}

/** The CHAINFORM_* variables that point the CLI at a service as its first seeded user (alice). */
export function serviceEnv(service: Pick<RunningService, "baseUrl" | "accessKey" | "accountSlug" | "projectSlug">): Record<string, string> {
  return {
    CHAINFORM_BASE_URL: service.baseUrl,
    CHAINFORM_ACCESS_KEY: service.accessKey,
    CHAINFORM_ACCOUNT: service.accountSlug,
    CHAINFORM_PROJECT: service.projectSlug,
  };
}

/**
 * Creates environments named `slugs` (one network each) through the API, a few at a time.
 * @returns their ids, in the order of `slugs`
 */
export async function createEnvironments(client: Client, slugs: readonly string[], concurrency = 10): Promise<string[]> {
  const ids: string[] = new Array(slugs.length);
  let next = 0;
  const worker = async () => {
    while (next < slugs.length) {
      const index = next++;
      const created = await client.createEnvironment({
        display_name: slugs[index],
        slug: slugs[index],
        network_configs: [{ network_id: "1" }],
      });
      ids[index] = created.id;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, slugs.length) }, worker));
  return ids;
}

/** Every slug of the client's project. */
export async function slugsOf(client: Client): Promise<string[]> {
  const slugs: string[] = [];
  for await (const environment of client.iterateEnvironments()) slugs.push(environment.slug);
  return slugs.sort();
}

/** Fails with what to do when dist/cli is missing or older than lib/cli (the CLI runs from dist/). */
export function assertCliBuilt(): void {
  const sources = join(ROOT, "lib", "cli");
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [join(dir, e.name)] : [],
    );
  for (const source of walk(sources)) {
    const built = join(ROOT, "dist", "cli", relative(sources, source).replace(/\.ts$/, ".js"));
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs) {
      throw new Error(`${relative(ROOT, built)} is missing or older than its source: run \`npm run build\` first (npm test does)`);
    }
  }
}

/** Fails with what to do when the provider's bundle and Terraform mirror are missing (tests that run terraform need them). */
export function assertProviderBuilt(): void {
  if (!existsSync(mirrorLayout().bundlePath)) throw new Error("the provider is not built: run `npm run build` first (npm test does)");
}
