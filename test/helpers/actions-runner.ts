/**
 * Runs a node action's `main` and `post` scripts the way GitHub's runner does: inputs as INPUT_<NAME> (defaults
 * from action.yml), a fresh GITHUB_OUTPUT, GITHUB_ENV and GITHUB_STATE file per step, read back after the step;
 * `::add-mask::` lines collected from stdout; the post step run with the main step's state as STATE_<name> and
 * the variables earlier steps exported.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, ROOT } from "./cli";

// js-yaml comes with jest (through @istanbuljs/load-nyc-config); the test only reads YAML.
const yaml = require("js-yaml") as { load(text: string): unknown };

/** action.yml as the runner reads it. */
export interface ActionMetadata {
  readonly inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  readonly outputs: Record<string, { description: string }>;
  readonly runs: { using: string; main: string; post?: string; "post-if"?: string };
}

/** Reads a YAML file. */
export function readYaml(path: string): unknown {
  return yaml.load(readFileSync(path, "utf8"));
}

/** The repository's action.yml. */
export function actionMetadata(): ActionMetadata {
  return readYaml(join(ROOT, "action.yml")) as ActionMetadata;
}

/** What a finished step left. */
export interface StepResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
  readonly env: Record<string, string>;
  readonly state: Record<string, string>;
  /** Values masked with ::add-mask::. */
  readonly masks: string[];
}

/** Inputs that point the Action at a hosted service (which no test reaches): for the inputs only the local service takes. */
export const HOSTED_SERVICE_INPUTS = { "base-url": "https://example.invalid", "access-key": "k", account: "a", project: "p" } as const;

/**
 * Expects a step to have exited 0, and fails with its output when it did not: a comparison of the exit code alone
 * (`toMatchObject({ code: 0 })`) prints only the code, which says nothing of why a step failed.
 */
export function expectSucceeded(step: Pick<StepResult, "code" | "stdout"> & { readonly stderr?: string }): void {
  const tail = (text: string) => text.slice(-4000);
  expect(step.code === 0 ? 0 : `exit ${step.code}\n--- stdout\n${tail(step.stdout)}\n--- stderr\n${tail(step.stderr ?? "")}`).toBe(0);
}

/** A step while it runs: its process, its output so far, and its result. */
export interface RunningStep {
  readonly child: ChildProcess;
  /** Resolves when stdout or stderr so far matches. */
  waitFor(pattern: RegExp): Promise<void>;
  readonly done: Promise<StepResult>;
}

/**
 * Parses a file command file (`name=value` lines and `name<<DELIMITER` blocks), as the runner does.
 * @example
 * parseFileCommands("a=1\nb<<EOF\ntwo\nlines\nEOF\n") // { a: "1", b: "two\nlines" }
 */
export function parseFileCommands(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === "") continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      if (end === -1) throw new Error(`no closing delimiter ${heredoc[2]} for ${heredoc[1]}`);
      values[heredoc[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else {
      const at = line.indexOf("=");
      if (at === -1) throw new Error(`not a file command: ${line}`);
      values[line.slice(0, at)] = line.slice(at + 1);
    }
  }
  return values;
}

/** Whether a process exists (the service the action's main step started, which its post step must stop). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A job of one runner: its workspace, its temp dir, the variables its steps exported. */
export class RunnerJob {
  readonly dir = mkdtempSync(join(tmpdir(), "chainform-runner-"));
  readonly workspace = join(this.dir, "workspace");
  readonly temp = join(this.dir, "temp");
  /** Variables exported by earlier steps (GITHUB_ENV). */
  readonly jobEnv: Record<string, string> = {};
  private steps = 0;

  /**
   * @param baseEnv variables of every step, over the runner's own
   * @param actionRoot the action's checkout whose main and post scripts run (this repository unless given)
   */
  constructor(
    private readonly baseEnv: Record<string, string> = {},
    private readonly actionRoot: string = ROOT,
  ) {
    mkdirSync(this.workspace, { recursive: true });
    mkdirSync(this.temp, { recursive: true });
  }

  /** Starts the action's main script with these inputs (the others at their defaults). */
  main(inputs: Record<string, string>, stepEnv: Record<string, string> = {}): RunningStep {
    return this.start(actionMetadata().runs.main, inputs, stepEnv, {});
  }

  /** Starts the action's post script with the same inputs and the main step's state. */
  post(inputs: Record<string, string>, state: Record<string, string>, stepEnv: Record<string, string> = {}): RunningStep {
    const post = actionMetadata().runs.post;
    if (!post) throw new Error("action.yml has no post script");
    return this.start(post, inputs, stepEnv, state);
  }

  /** The environment a `run:` step of this job sees. */
  stepEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return cleanEnv({ ...this.runnerEnv(), ...this.jobEnv, ...extra });
  }

  private runnerEnv(): Record<string, string> {
    return {
      GITHUB_ACTIONS: "true",
      CI: "true",
      GITHUB_WORKSPACE: this.workspace,
      RUNNER_TEMP: this.temp,
      RUNNER_TOOL_CACHE: join(this.dir, "toolcache"),
      GITHUB_RUN_ID: "4242",
      GITHUB_RUN_ATTEMPT: "1",
      GITHUB_JOB: "test",
      GITHUB_REPOSITORY: "acme/app",
      CHECKPOINT_DISABLE: "1",
      ...this.baseEnv,
    };
  }

  private start(
    script: string,
    inputs: Record<string, string>,
    stepEnv: Record<string, string>,
    state: Record<string, string>,
  ): RunningStep {
    const metadata = actionMetadata();
    const step = join(this.dir, `step-${++this.steps}`);
    mkdirSync(step);
    const files = { GITHUB_OUTPUT: join(step, "output"), GITHUB_ENV: join(step, "env"), GITHUB_STATE: join(step, "state") };
    for (const file of Object.values(files)) writeFileSync(file, "");
    const inputEnv: Record<string, string> = {};
    for (const [name, input] of Object.entries(metadata.inputs))
      // The runner evaluates a default's expression; the one the action uses, the job's token, is none here.
      inputEnv[`INPUT_${name.toUpperCase()}`] = (inputs[name] ?? input.default ?? "").replace(/\$\{\{\s*github\.token\s*\}\}/g, "");
    for (const name of Object.keys(inputs)) {
      if (!(name in metadata.inputs)) throw new Error(`action.yml declares no input ${name}`);
    }
    const stateEnv = Object.fromEntries(Object.entries(state).map(([name, value]) => [`STATE_${name}`, value]));
    const env = this.stepEnv({ ...stepEnv, ...inputEnv, ...stateEnv, ...files });
    const child = spawn(process.execPath, [join(this.actionRoot, script)], { cwd: this.workspace, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const waiters: { pattern: RegExp; resolve: () => void }[] = [];
    const check = () => {
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(stdout) || waiter.pattern.test(stderr)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    };
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      check();
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      check();
    });
    const done = new Promise<StepResult>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => {
        const env = parseFileCommands(readFileSync(files.GITHUB_ENV, "utf8"));
        Object.assign(this.jobEnv, env);
        resolve({
          code,
          signal,
          stdout,
          stderr,
          outputs: parseFileCommands(readFileSync(files.GITHUB_OUTPUT, "utf8")),
          env,
          state: parseFileCommands(readFileSync(files.GITHUB_STATE, "utf8")),
          masks: [...stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1]),
        });
      });
    });
    return {
      child,
      done,
      waitFor(pattern) {
        return new Promise<void>((resolve, reject) => {
          waiters.push({ pattern, resolve });
          check();
          void done.then(() => reject(new Error(`the step ended before its output matched ${pattern}:\n${stdout}\n${stderr}`)), reject);
        });
      },
    };
  }
}
