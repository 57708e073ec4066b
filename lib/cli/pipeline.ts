/**
 * The pipeline behind `up`, `deploy`, `plan` and `destroy`: check the service, synthesize the cdktf app,
 * `terraform init` against the offline mirror, plan (shown), apply, read the state into a table of RPC URLs,
 * check the RPC URLs, destroy. Each step is a progress step with its timing.
 */
import { relative } from "node:path";
import { clientFromEnv } from "../client";
import { loadApp, selectStacks, stackUsesChainform, synthesize, type App, type Stack } from "./cdktf-app";
import { CliError, redactorFor } from "./errors";
import type { Interrupts } from "./interrupts";
import type { Progress } from "./progress";
import { deployedNetworks, type DeployedNetwork } from "./stack-state";
import { renderTable } from "./table";
import { Terraform, type TerraformRunOptions } from "./terraform";
import { verifyNetworks, type RpcCheckSummary } from "./verify-rpc";
import { initInputsOf, initUnlessUnchanged, synthesizeUnlessUnchanged } from "./work-cache";

/** The plan file written by `plan` and applied by `apply`, inside each stack's directory. */
const PLAN_FILE = "chainform.tfplan";

/** Settings of a {@link Pipeline}. */
export interface PipelineOptions {
  /** The cdktf app directory (absolute). */
  readonly appDir: string;
  /** Only this stack; all stacks by default. */
  readonly stack?: string | undefined;
  /** Print Admin RPC URLs in the table. */
  readonly showSecrets: boolean;
  /** Stream terraform's output to stderr. */
  readonly verbose: boolean;
  /** Environment of the app and terraform (the CHAINFORM_* settings included). */
  readonly env: NodeJS.ProcessEnv;
  readonly progress: Progress;
  readonly interrupts: Interrupts;
  /** Where results go; stdout by default. */
  readonly out?: { write(text: string): unknown };
}

/**
 * One app's way through terraform.
 * @example
 * const pipeline = await Pipeline.prepare(options);
 * await pipeline.plan();
 * const networks = await pipeline.apply();
 */
export class Pipeline {
  private readonly redact: (text: string) => string;
  private readonly out: { write(text: string): unknown };
  private readonly color: boolean;
  /** Chain id -> network name, from the service's supported networks. */
  private networkNames = new Map<string, string>();
  private stacks: Stack[] = [];

  private constructor(
    private readonly options: PipelineOptions,
    private readonly app: App,
    private readonly terraform: Terraform,
  ) {
    this.redact = redactorFor(options.env);
    this.out = options.out ?? process.stdout;
    this.color = Boolean(process.stdout.isTTY) && this.out === process.stdout;
  }

  /** Checks the app directory, terraform and the service, then synthesizes the app and runs `terraform init`. */
  static async prepare(options: PipelineOptions): Promise<Pipeline> {
    const { progress, env } = options;
    const app = loadApp(options.appDir, env);
    const terraform = await progress.step("find terraform", () => Terraform.locate(env));
    const pipeline = new Pipeline(options, app, terraform);
    await progress.step("check the chainform service", () => pipeline.checkService());
    options.interrupts.throwIfRequested();
    const synthesized =
      app.kind === "hcl"
        ? { stacks: await synthesize(app, env), reused: false }
        : await progress.step(`synthesize ${displayPath(app.dir)}`, () => synthesizeUnlessUnchanged(app, env, () => synthesize(app, env)));
    if (synthesized.reused) progress.note("  nothing changed since the last synthesis: its output was reused");
    pipeline.stacks = selectStacks(synthesized.stacks, options.stack);
    for (const stack of pipeline.stacks) {
      if (stackUsesChainform(stack) && !terraform.providerBuilt) {
        throw new CliError(
          "the chainform Terraform provider is not built: an installed chainform ships it built, so reinstall it; in a clone of chainform, run `npm run build` there, then try again",
        );
      }
      options.interrupts.throwIfRequested();
      const initialized = await progress.step(pipeline.label(stack, "terraform init"), () =>
        initUnlessUnchanged(stack, initInputsOf(terraform), env, () =>
          terraform.expect(
            ["init", "-input=false", ...pipeline.noColor()],
            pipeline.runOptions(stack),
            `terraform init of stack ${stack.name}`,
          ),
        ),
      );
      if (!initialized) progress.note("  nothing changed since the last terraform init: skipped");
    }
    return pipeline;
  }

  /** The stacks being worked on, dependencies first. */
  get stackNames(): string[] {
    return this.stacks.map((s) => s.name);
  }

  /** Plans every stack into its plan file and prints the plans on stdout. */
  async plan(): Promise<void> {
    for (const stack of this.stacks) {
      this.options.interrupts.throwIfRequested();
      const result = await this.options.progress.step(this.label(stack, "terraform plan"), () =>
        this.terraform.expect(
          ["plan", "-input=false", `-out=${PLAN_FILE}`, ...this.noColor()],
          this.runOptions(stack),
          `terraform plan of stack ${stack.name}`,
        ),
      );
      this.out.write(this.redact(planText(result.stdout)));
    }
  }

  /** Applies the plans made by {@link plan} and returns the networks the state now holds. */
  async apply(): Promise<DeployedNetwork[]> {
    const networks: DeployedNetwork[] = [];
    for (const stack of this.stacks) {
      this.options.interrupts.throwIfRequested();
      await this.options.progress.step(this.label(stack, "terraform apply"), () =>
        this.terraform.expect(
          ["apply", "-input=false", "-auto-approve", ...this.noColor(), PLAN_FILE],
          this.runOptions(stack),
          `terraform apply of stack ${stack.name}`,
        ),
      );
      networks.push(...(await this.readState(stack)));
    }
    return networks;
  }

  /** Prints the table environment -> network -> chain id -> Public RPC URL (and Admin RPC URL with --show-secrets). */
  printNetworks(networks: readonly DeployedNetwork[]): void {
    if (networks.length === 0) {
      this.out.write("The app's stacks hold no chainform environments.\n");
      return;
    }
    const headers = ["ENVIRONMENT", "NETWORK", "CHAIN ID", "PUBLIC RPC URL", ...(this.options.showSecrets ? ["ADMIN RPC URL"] : [])];
    const rows = networks.map((n) => [
      n.environment,
      this.networkNames.has(n.networkId) ? `${this.networkNames.get(n.networkId)} (${n.networkId})` : n.networkId,
      String(n.chainId),
      n.publicRpcUrl,
      ...(this.options.showSecrets ? [n.adminRpcUrl] : []),
    ]);
    this.out.write(renderTable(headers, rows));
  }

  /** Checks every Public RPC URL and prefunded balance (a step only when there are any). */
  async verify(networks: readonly DeployedNetwork[]): Promise<RpcCheckSummary> {
    if (networks.length === 0) return { rpcs: 0, accounts: 0 };
    const accounts = networks.reduce((sum, n) => sum + n.accounts.length, 0);
    return this.options.progress.step(`check ${networks.length} Public RPC URL(s) and ${accounts} prefunded balance(s)`, () =>
      verifyNetworks(networks, { signal: this.options.interrupts.stopSignal }),
    );
  }

  /**
   * Destroys every stack, dependents first. Runs even after an interruption (that is what Ctrl-C asks `up` for).
   * `refresh: false` destroys what the state holds without reading it back first (one provider process and one
   * read per resource less), for a caller that has just applied the state itself.
   */
  async destroy(options: { refresh?: boolean } = {}): Promise<void> {
    const refresh = options.refresh === false ? ["-refresh=false"] : [];
    for (const stack of [...this.stacks].reverse()) {
      await this.options.progress.step(this.label(stack, "terraform destroy"), () =>
        this.terraform.expect(
          ["destroy", "-input=false", "-auto-approve", ...refresh, ...this.noColor()],
          this.runOptions(stack),
          `terraform destroy of stack ${stack.name}`,
        ),
      );
    }
  }

  /**
   * Reachability, credentials and project in one call, before terraform turns their failure into diagnostics.
   * Without CHAINFORM_ACCOUNT/CHAINFORM_PROJECT (an app may configure its provider itself) only reachability.
   */
  private async checkService(): Promise<void> {
    const client = clientFromEnv({ maxRetries: 2 }, this.options.env);
    try {
      const networks =
        client.accountSlug && client.projectSlug
          ? await client.listEnvironments({ perPage: 1 }).then(() => client.listSupportedNetworks().catch(() => []))
          : await client.listSupportedNetworks();
      this.networkNames = new Map(networks.map((n) => [n.chain_id, n.network_name]));
    } finally {
      await client.close();
    }
  }

  private async readState(stack: Stack): Promise<DeployedNetwork[]> {
    // `show -json` prints sensitive values in clear: it is parsed here and never printed.
    const result = await this.terraform.expect(
      ["show", "-json", "-no-color"],
      { cwd: stack.dir },
      `reading the state of stack ${stack.name}`,
    );
    return deployedNetworks(stack.name, JSON.parse(result.stdout) as Parameters<typeof deployedNetworks>[1]);
  }

  private runOptions(stack: Stack): TerraformRunOptions {
    return {
      cwd: stack.dir,
      onLine: this.options.verbose ? (line) => this.options.progress.note(`  ${this.redact(line)}`) : undefined,
    };
  }

  private noColor(): string[] {
    return this.color ? [] : ["-no-color"];
  }

  private label(stack: Stack, what: string): string {
    return this.stacks.length > 1 ? `${what} (stack ${stack.name})` : what;
  }
}

/** The plan without terraform's preamble about refreshing and its closing note about the saved plan file. */
function planText(stdout: string): string {
  const text = stdout
    .split("\n")
    .filter((line) => !/Refreshing state\.\.\.|Reading\.\.\.|Read complete after/.test(line))
    .join("\n")
    .replace(/\n─+\n\nSaved the plan to:[\s\S]*$/, "\n")
    .trim();
  return `${text}\n`;
}

/** A path relative to the working directory when inside it, for short progress lines. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
}
