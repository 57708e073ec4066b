/**
 * Runs the real terraform binary against a provider under test: bundle the provider, write a CLI config that finds
 * it offline, and run commands in a throwaway working directory. Every run sets CHECKPOINT_DISABLE=1 (the registry
 * and checkpoint service are unreachable here) and never reads the user's own CLI config.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The terraform binary: `TERRAFORM_BIN` or `terraform` on PATH. */
export const terraformBinary = process.env.TERRAFORM_BIN ?? "terraform";

/** Bundles a provider and writes its `terraform-provider-TYPE` launcher (re-exported for tests). */
export { bundleProvider } from "../../lib/terraform/protocol/bundle";
export type { BundleProviderOptions, ProviderBundle } from "../../lib/terraform/protocol/bundle";

/** How Terraform finds providers offline (see the notes on installing providers). */
export interface CliConfigOptions {
  /** `dev_overrides`: provider source address (`echo/echo`) to the directory holding its launcher. */
  readonly devOverrides?: Readonly<Record<string, string>>;
  /** `filesystem_mirror`: the mirror's directory and the provider addresses it serves (`HOST/NS/TYPE`). */
  readonly filesystemMirror?: { readonly path: string; readonly include: readonly string[] };
}

/**
 * The text of a Terraform CLI config file (`TF_CLI_CONFIG_FILE`).
 * @example
 * terraformCliConfig({ devOverrides: { "echo/echo": launcherDir } })
 */
export function terraformCliConfig(options: CliConfigOptions): string {
  const lines = ["provider_installation {"];
  if (options.devOverrides) {
    lines.push("  dev_overrides {");
    for (const [address, dir] of Object.entries(options.devOverrides))
      lines.push(`    ${JSON.stringify(address)} = ${JSON.stringify(dir)}`);
    lines.push("  }");
  }
  if (options.filesystemMirror) {
    const { path, include } = options.filesystemMirror;
    lines.push("  filesystem_mirror {", `    path    = ${JSON.stringify(path)}`, `    include = ${JSON.stringify(include)}`, "  }");
  }
  // Everything not overridden or mirrored would come from the registry, which is unreachable: say so explicitly.
  lines.push("  direct {", '    exclude = ["*/*/*"]', "  }", "}");
  return `${lines.join("\n")}\n`;
}

/** The outcome of one terraform command. */
export interface TerraformResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** How long the command took, in milliseconds. */
  readonly ms: number;
}

/** Options of {@link TerraformWorkspace.create}. */
export interface WorkspaceOptions extends CliConfigOptions {
  /** Extra environment for every command (TF_LOG, provider settings). */
  readonly env?: Readonly<Record<string, string>>;
  /** Parent of the temporary working directory. Default: the OS temp dir. */
  readonly parentDir?: string;
}

/**
 * A throwaway Terraform working directory with its own CLI config.
 * @example
 * const tf = TerraformWorkspace.create({ devOverrides: { "echo/echo": dir } });
 * tf.write("main.tf", `resource "echo_thing" "a" { name = "a" }`);
 * expect((await tf.run("apply", "-auto-approve")).code).toBe(0);
 * tf.dispose();
 */
export class TerraformWorkspace {
  private constructor(
    /** The working directory. */
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Creates the working directory and its CLI config file. */
  static create(options: WorkspaceOptions = {}): TerraformWorkspace {
    const dir = mkdtempSync(join(options.parentDir ?? tmpdir(), "chainform-tf-"));
    const cliConfig = join(dir, ".terraformrc");
    writeFileSync(cliConfig, terraformCliConfig(options));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? dir,
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      TF_INPUT: "0",
      TF_CLI_CONFIG_FILE: cliConfig,
      ...options.env,
    };
    return new TerraformWorkspace(dir, env);
  }

  /** The same working directory, with more environment for its commands (dispose the original, not this). */
  withEnv(extra: Readonly<Record<string, string>>): TerraformWorkspace {
    return new TerraformWorkspace(this.dir, { ...this.env, ...extra });
  }

  /** Writes a file into the working directory (e.g. `main.tf`). */
  write(name: string, content: string): this {
    mkdirSync(dirname(join(this.dir, name)), { recursive: true });
    writeFileSync(join(this.dir, name), content);
    return this;
  }

  /** Runs `terraform ARGS...` (with `-no-color`) in the working directory; never throws on a non-zero exit. */
  run(...args: string[]): Promise<TerraformResult> {
    const [command, ...rest] = args;
    const started = performance.now();
    return new Promise((resolve) => {
      execFile(
        terraformBinary,
        [command!, ...(NO_COLOR.has(command!) ? ["-no-color"] : []), ...rest],
        { cwd: this.dir, env: this.env, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve({ code, stdout, stderr, ms: performance.now() - started });
        },
      );
    });
  }

  /** Runs a command and throws, with terraform's output, unless it exits with one of `codes` (default 0). */
  async expect(args: string[], codes: readonly number[] = [0]): Promise<TerraformResult> {
    const result = await this.run(...args);
    if (!codes.includes(result.code)) {
      throw new Error(`terraform ${args.join(" ")} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
    }
    return result;
  }

  /** `terraform plan -out` then `terraform show -json` of it: the machine-readable plan. */
  async planJson(...args: string[]): Promise<PlanJson> {
    await this.expect(["plan", "-out=tfplan", ...args], [0, 2]);
    return JSON.parse((await this.expect(["show", "-json", "tfplan"])).stdout) as PlanJson;
  }

  /** `terraform show -json`: the current state's root module resources. */
  async stateResources(): Promise<StateResource[]> {
    const state = JSON.parse((await this.expect(["show", "-json"])).stdout) as {
      values?: { root_module?: { resources?: StateResource[] } };
    };
    return state.values?.root_module?.resources ?? [];
  }

  /** Removes the working directory. */
  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// Commands that take -no-color themselves (`state` only takes it on some subcommands, so it is left alone).
const NO_COLOR = new Set(["plan", "apply", "destroy", "import", "validate", "refresh", "init", "output"]);

/** A resource change in `terraform show -json` of a plan (the parts tests look at). */
export interface PlannedChange {
  readonly address: string;
  readonly type: string;
  readonly change: {
    readonly actions: string[];
    readonly before: Record<string, unknown> | null;
    readonly after: Record<string, unknown> | null;
    readonly after_unknown: Record<string, unknown>;
    readonly replace_paths?: (string | number)[][];
  };
}

/** `terraform show -json` of a plan (the parts tests look at). */
export interface PlanJson {
  readonly resource_changes?: PlannedChange[];
}

/** A resource in `terraform show -json` of the state. */
export interface StateResource {
  readonly address: string;
  readonly type: string;
  readonly values: Record<string, unknown>;
  readonly sensitive_values?: Record<string, unknown>;
}
