/**
 * Runs the terraform binary for the CLI: always with chainform's own CLI config (the offline provider mirror), never
 * the user's TF_CLI_CONFIG_FILE, and with CHECKPOINT_DISABLE=1 so that terraform never phones home.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mirrorLayout, terraformCliConfigPath, writeProviderMirror } from "../terraform/mirror";
import { CliError } from "./errors";

/** The outcome of one terraform command. */
export interface TerraformResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link Terraform.run}. */
export interface TerraformRunOptions {
  /** The stack's working directory. */
  readonly cwd: string;
  /** Called with each complete line of output as it arrives (e.g. to stream it with --verbose). */
  readonly onLine?: (line: string) => void;
}

/** The terraform binary: `TERRAFORM_BIN`, or `terraform` on PATH. */
export function terraformBinary(env: NodeJS.ProcessEnv = process.env): string {
  return env.TERRAFORM_BIN || "terraform";
}

/** How to install Terraform, for the error that says it is missing. */
const INSTALL_HINT = "install Terraform 1.5 or later (https://developer.hashicorp.com/terraform/install) or set TERRAFORM_BIN to its path";

/**
 * The terraform binary with chainform's environment.
 * @example
 * const terraform = await Terraform.locate({ ...process.env, CHAINFORM_BASE_URL: url });
 * await terraform.expect(["init", "-input=false"], { cwd: stackDir }, "terraform init");
 */
export class Terraform {
  private constructor(
    /** The binary that runs. */
    readonly binary: string,
    /** Its version, e.g. `1.11.4`. */
    readonly version: string,
    /** Whether the chainform provider bundle is built (the mirror can install it). */
    readonly providerBuilt: boolean,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * Finds terraform and prepares the offline mirror. Throws a CliError saying how to install terraform when the
   * binary cannot be run.
   */
  static async locate(env: NodeJS.ProcessEnv = process.env): Promise<Terraform> {
    const binary = terraformBinary(env);
    const providerBuilt = existsSync(mirrorLayout().bundlePath);
    // Without the bundle the mirror is still written, so that apps which do not use the provider work; stacks that
    // need it are stopped by requireProvider() with a clear line instead of a launcher failing inside terraform.
    const cliConfig = providerBuilt ? terraformCliConfigPath() : writeProviderMirror().cliConfigPath;
    const childEnv: NodeJS.ProcessEnv = {
      ...env,
      TF_CLI_CONFIG_FILE: cliConfig,
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      TF_INPUT: "0",
    };
    let result: TerraformResult;
    try {
      result = await runProcess(binary, ["version", "-json"], { cwd: process.cwd() }, childEnv);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "EACCES") {
        throw new CliError(`terraform was not found (${binary}): ${INSTALL_HINT}`, { details: String(error), cause: error });
      }
      throw error;
    }
    if (result.code !== 0) {
      throw new CliError(`\`${binary} version\` failed (exit ${result.code}): ${INSTALL_HINT}`, { details: result.stderr });
    }
    let version = "unknown";
    try {
      version = String((JSON.parse(result.stdout) as { terraform_version?: string }).terraform_version ?? version);
    } catch {
      // An old terraform without -json: the version stays unknown, which is harmless.
    }
    return new Terraform(binary, version, providerBuilt, childEnv);
  }

  /** Runs `terraform ARGS`; never throws on a non-zero exit. */
  run(args: readonly string[], options: TerraformRunOptions): Promise<TerraformResult> {
    return runProcess(this.binary, args, options, this.env);
  }

  /** Runs `terraform ARGS` and throws a CliError naming `what` (with terraform's output) on a non-zero exit. */
  async expect(args: readonly string[], options: TerraformRunOptions, what: string): Promise<TerraformResult> {
    const result = await this.run(args, options);
    if (result.code !== 0) {
      throw new CliError(`${what} failed (terraform exited ${result.code}); terraform said:\n${lastDiagnostics(result)}`, {
        details: `${result.stdout}\n${result.stderr}`.trim(),
      });
    }
    return result;
  }
}

/** The `Error:` blocks of terraform's output (or its last lines), so the one error line can say what went wrong. */
export function lastDiagnostics(result: TerraformResult): string {
  const text = `${result.stderr}\n${result.stdout}`.replace(/\x1b\[[0-9;]*m/g, "");
  const errors = text.split(/\n(?=╷|Error: )/).filter((block) => /(^|\n)│? ?Error: /.test(block));
  const chosen = errors.length > 0 ? errors.join("\n") : text.trim().split("\n").slice(-15).join("\n");
  return chosen.trim();
}

/** The terraform processes running now, so that a second Ctrl-C can stop them. */
const running = new Set<ReturnType<typeof spawn>>();

/** Asks every running terraform to stop gracefully (SIGINT: terraform finishes the operation in flight, then exits). */
export function interruptTerraform(): void {
  for (const child of running) child.kill("SIGINT");
}

function runProcess(
  binary: string,
  args: readonly string[],
  options: TerraformRunOptions,
  env: NodeJS.ProcessEnv,
): Promise<TerraformResult> {
  return new Promise((resolve, reject) => {
    // detached: a Ctrl-C on the terminal reaches chainform only, which then decides what terraform should do
    // (finish the step, then destroy), instead of terraform aborting half-way on its own.
    const child = spawn(binary, args, { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    running.add(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let pending = "";
    const onData = (sink: Buffer[]) => (chunk: Buffer) => {
      sink.push(chunk);
      if (!options.onLine) return;
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) options.onLine(line);
    };
    child.stdout.on("data", onData(out));
    child.stderr.on("data", onData(err));
    child.on("error", (error) => {
      running.delete(child);
      reject(error);
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      if (pending && options.onLine) options.onLine(pending);
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}
