/**
 * Acceptance tests of the chainform provider as step tables, run by the real terraform binary through the real
 * offline mirror (`npm run build` first): each step writes the configuration, runs one terraform command and
 * checks its outcome, in order, in one working directory, the way terraform-plugin-testing's TestStep does.
 *
 * @example
 * const run = acceptance({ env: providerEnv(service) });
 * await run.steps([
 *   { name: "create", config, command: "apply" },
 *   { name: "plan is empty", command: "plan", expectNoChanges: true },
 *   { name: "import by id", importId: () => id, resource: "chainform_environment.ci", importVerify: true },
 * ]);
 */
import { join } from "node:path";
import { PROVIDER_ADDRESS, mirrorLayout, terraformCliConfigPath } from "../../lib/terraform/mirror";
import type { Client } from "../../lib/client";
import { clientFor, startTestService, type TestService } from "./service";
import { TerraformWorkspace, type PlanJson, type StateResource, type TerraformResult } from "./terraform";

/** One step of a table. Exactly one of `command` and `importId` says what terraform runs; `before` runs first. */
export interface Step {
  /** What the step shows, for the failure message. */
  readonly name: string;
  /** The configuration (`main.tf`) from this step on. */
  readonly config?: string;
  /** Something done outside terraform before the command (delete an environment out of band...). */
  readonly before?: (ctx: StepContext) => Promise<void> | void;
  /** The terraform command: `apply` and `destroy` auto-approve, `plan` writes a plan file read as JSON. */
  readonly command?: "init" | "validate" | "plan" | "apply" | "destroy" | "refresh";
  /** Extra arguments of the command. */
  readonly args?: readonly string[];
  /** `terraform import` of `resource` with this id (after `terraform state rm` of it when it is in state). */
  readonly importId?: string | ((ctx: StepContext) => string);
  /** The resource address for `importId` and `importVerify`. */
  readonly resource?: string;
  /**
   * After the import: the imported resource's state must equal the state before it, except the listed
   * attribute paths (dot-separated, e.g. `network_config.0.account.0.balance`), which `importVerifyIgnore`
   * compares with its function instead when given one. A path ending in `.*` covers everything under it.
   */
  readonly importVerify?: boolean;
  /** Paths compared loosely by import-verify, with an optional comparison of the two values. */
  readonly importVerifyIgnore?: Readonly<Record<string, ((before: unknown, after: unknown) => boolean) | true>>;
  /** The command must fail, and its output (stdout + stderr, as is or with whitespace runs collapsed) match this. */
  readonly expectError?: RegExp;
  /** The plan must have no changes (exit code 0 of `-detailed-exitcode`). */
  readonly expectNoChanges?: boolean;
  /** More checks, with the command's result and, for `plan`, the plan JSON. */
  readonly check?: (ctx: StepContext, result: StepResult) => Promise<void> | void;
}

/** What a step's `check` receives. */
export interface StepResult extends TerraformResult {
  /** The plan as JSON (`plan` steps that succeeded). */
  readonly plan?: PlanJson;
}

/** What steps share: the workspace and helpers to look at state and outputs. */
export interface StepContext {
  readonly tf: TerraformWorkspace;
  /** The environment terraform runs with here (for spawning it directly, e.g. to interrupt it). */
  readonly env: NodeJS.ProcessEnv;
  /** The resources in state. */
  state(): Promise<StateResource[]>;
  /** One resource's state values (throws when it is not in state). */
  resource(address: string): Promise<Record<string, unknown>>;
  /** `terraform output -json`. */
  outputs(): Promise<Record<string, { value: unknown; sensitive: boolean }>>;
}

/** Options of {@link acceptance}. */
export interface AcceptanceOptions {
  /** Environment of every terraform command (provider settings). */
  readonly env?: Readonly<Record<string, string>>;
}

/** The provider settings of a test service as environment variables (docs/service.md). */
export function providerEnv(service: TestService, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    CHAINFORM_BASE_URL: service.baseUrl,
    CHAINFORM_ACCESS_KEY: service.accessKey,
    CHAINFORM_ACCOUNT: service.accountSlug,
    CHAINFORM_PROJECT: service.projectSlug,
    ...overrides,
  };
}

/** The `terraform { required_providers }` block every configuration starts with. */
export const PROVIDER_BLOCK = `terraform {
  required_providers {
    chainform = { source = "chainform/chainform" }
  }
}
`;

/** A workspace that runs step tables. */
export interface Acceptance extends StepContext {
  /** Runs the steps in order; throws naming the first step that fails. */
  steps(steps: readonly Step[]): Promise<void>;
  /** Runs one step. */
  step(step: Step): Promise<StepResult>;
  /** Removes the working directory. */
  dispose(): void;
}

/**
 * A workspace using the real mirror and CLI config (as `chainform terraformrc` prints it), initialized.
 * Needs the built provider (`npm run build`).
 */
export async function acceptance(options: AcceptanceOptions = {}): Promise<Acceptance> {
  terraformCliConfigPath(); // fails clearly when the provider is not built
  const tf = TerraformWorkspace.create({
    filesystemMirror: { path: mirrorLayout().mirrorDir, include: [PROVIDER_ADDRESS] },
    env: { ...options.env },
  });
  let initialized = false;
  const ctx: StepContext = {
    tf,
    // As TerraformWorkspace sets it up: its CLI config file in the working directory.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? tf.dir,
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      TF_INPUT: "0",
      TF_CLI_CONFIG_FILE: join(tf.dir, ".terraformrc"),
      ...options.env,
    },
    state: () => tf.stateResources(),
    async resource(address) {
      const found = (await tf.stateResources()).find((r) => r.address === address);
      if (!found) throw new Error(`${address} is not in state`);
      return found.values;
    },
    async outputs() {
      return JSON.parse((await tf.expect(["output", "-json"])).stdout) as Record<string, { value: unknown; sensitive: boolean }>;
    },
  };

  async function step(s: Step): Promise<StepResult> {
    if (s.config !== undefined) tf.write("main.tf", s.config);
    if (!initialized && s.command !== "init") {
      await tf.expect(["init", "-input=false"]);
      initialized = true;
    }
    await s.before?.(ctx);
    let result: StepResult;
    if (s.importId !== undefined) {
      result = await importStep(s);
    } else if (s.command === "plan") {
      const plan = await tf.run("plan", "-input=false", "-detailed-exitcode", "-out=tfplan", ...(s.args ?? []));
      const json =
        plan.code === 0 || plan.code === 2 ? (JSON.parse((await tf.expect(["show", "-json", "tfplan"])).stdout) as PlanJson) : undefined;
      result = { ...plan, ...(json ? { plan: json } : {}) };
      if (s.expectNoChanges && plan.code !== 0) fail(s, result, "expected an empty plan");
    } else if (s.command) {
      const auto = s.command === "apply" || s.command === "destroy" ? ["-auto-approve"] : [];
      const input = s.command === "validate" ? [] : ["-input=false"];
      result = await tf.run(s.command, ...input, ...auto, ...(s.args ?? []));
      if (s.command === "init") initialized = result.code === 0;
    } else {
      throw new Error(`step "${s.name}": give command or importId`);
    }
    if (s.expectError) {
      if (result.code === 0) fail(s, result, `expected failure matching ${s.expectError}`);
      // Terraform wraps diagnostic text to the terminal width: match the text with its line breaks undone too.
      const output = result.stdout + result.stderr;
      if (!s.expectError.test(output) && !s.expectError.test(output.replace(/\s+/g, " "))) {
        fail(s, result, `expected output matching ${s.expectError}`);
      }
    } else if (result.code !== 0 && !(s.command === "plan" && result.code === 2)) {
      fail(s, result, `exited ${result.code}`);
    }
    await s.check?.(ctx, result);
    return result;
  }

  async function importStep(s: Step): Promise<StepResult> {
    const address = s.resource;
    if (!address) throw new Error(`step "${s.name}": importId needs resource`);
    const id = typeof s.importId === "function" ? s.importId(ctx) : s.importId!;
    const before = (await tf.stateResources()).find((r) => r.address === address);
    if (before) await tf.expect(["state", "rm", address]);
    const result = await tf.run("import", "-input=false", address, id);
    if (result.code !== 0 || !s.importVerify) return result;
    if (!before) throw new Error(`step "${s.name}": import-verify needs ${address} in state before the import`);
    const after = await ctx.resource(address);
    const differences = diff(before.values, after, "").filter(({ path, a, b }) => {
      const prefix = Object.keys(s.importVerifyIgnore ?? {}).find((key) => key.endsWith(".*") && (path + ".").startsWith(key.slice(0, -1)));
      const rule = s.importVerifyIgnore?.[path] ?? (prefix ? s.importVerifyIgnore![prefix] : undefined);
      return rule === undefined ? true : rule === true ? false : !rule(a, b);
    });
    if (differences.length > 0) {
      fail(
        s,
        result,
        `imported state differs:\n${differences.map((d) => `  ${d.path}: ${JSON.stringify(d.a)} != ${JSON.stringify(d.b)}`).join("\n")}`,
      );
    }
    return result;
  }

  return {
    ...ctx,
    step,
    async steps(list) {
      for (const s of list) await step(s);
    },
    dispose: () => tf.dispose(),
  };
}

function fail(s: Step, result: TerraformResult, why: string): never {
  throw new Error(`step "${s.name}": ${why}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
}

/** Leaf differences between two JSON values, by dot path. */
function diff(a: unknown, b: unknown, path: string): { path: string; a: unknown; b: unknown }[] {
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((key) =>
      diff((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path ? `${path}.${key}` : key),
    );
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ path, a, b }];
}

/** What {@link useAcceptanceSuite} gives a `describe` block. Read its fields inside tests: beforeAll sets them. */
export interface AcceptanceSuite {
  /** The suite's local service. */
  readonly service: TestService;
  /** A client of it (as its first user). */
  readonly client: Client;
  /** A new initialized workspace, by default configured for the suite's service; destroyed after the suite. */
  workspace(env?: Readonly<Record<string, string>>): Promise<Acceptance>;
}

/**
 * Registers beforeAll/afterAll hooks for a suite of acceptance tests: a local service and a client on it, and
 * workspaces that are destroyed and removed (then the client and service closed) after the suite.
 * @example
 * const suite = useAcceptanceSuite();
 * test("apply", async () => { const run = await suite.workspace(); ... });
 */
export function useAcceptanceSuite(): AcceptanceSuite {
  let service: TestService | undefined;
  let client: Client | undefined;
  const workspaces: Acceptance[] = [];
  beforeAll(async () => {
    service = await startTestService();
    client = clientFor(service);
  }, 60_000);
  afterAll(async () => {
    for (const run of workspaces) {
      await run.tf.run("destroy", "-auto-approve", "-input=false");
      run.dispose();
    }
    await client?.close();
    await service?.close();
  }, 60_000);
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the acceptance suite starts in beforeAll: use it inside tests");
    return value;
  };
  return {
    get service() {
      return started(service);
    },
    get client() {
      return started(client);
    },
    async workspace(env) {
      const run = await acceptance({ env: env ?? providerEnv(started(service)) });
      workspaces.push(run);
      return run;
    },
  };
}
