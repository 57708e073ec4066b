/**
 * `chainform outputs [--format json|env|github|foundry|hardhat] [--include-sensitive] [--stack NAME] [APP_DIR]`:
 * a deployed stack's outputs and the RPC settings of its networks for the next CI step or a test runner.
 */
import { appendFileSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { appDirOf } from "../app-command";
import { appStacks, loadApp, selectStacks, synthesize, type Stack } from "../cdktf-app";
import { UsageError, type Command } from "../command";
import { CliError } from "../errors";
import {
  allOutputs,
  formatOutputs,
  networkEndpoints,
  NETWORK_FORMATS,
  OUTPUTS_FORMATS,
  secretTexts,
  type NetworkEndpoint,
  type OutputsFormat,
  type TerraformOutput,
} from "../outputs-format";
import { deployedNetworks } from "../stack-state";
import { lastDiagnostics, Terraform } from "../terraform";
import { synthesizeUnlessUnchanged } from "../work-cache";

/** The options of `chainform outputs`. */
const OPTIONS = {
  format: { type: "string", default: "json" },
  "include-sensitive": { type: "boolean", default: false },
  stack: { type: "string" },
  export: { type: "boolean", default: false },
} as const satisfies ParseArgsConfig["options"];

const outputs: Command = {
  name: "outputs",
  options: OPTIONS,
  summary: "print a deployed app's outputs and RPC settings (JSON, dotenv, Foundry, Hardhat) or write them to $GITHUB_OUTPUT",
  usage: `usage: chainform outputs [APP_DIR] [--format json|env|github|foundry|hardhat] [--include-sensitive] [--stack NAME] [--export]

Reads the outputs of a deployed stack (terraform output) and the networks of its chainform environments (terraform
state). The app is synthesized first (unless nothing changed), with this environment: an app that names its stack
after a variable (PR_NUMBER, ...) is read under the name the variable gives now.
Besides the app's own outputs, every network gets <name>_rpc_url, <name>_chain_id, <name>_network_id,
<name>_environment_id and (sensitive) <name>_admin_rpc_url, named mainnet, base, ..., or chain_<id>; eth_rpc_url is
the first network's Public RPC URL, networks all of them as one JSON object. An output of the app wins a name clash.
  --format json      one JSON object name -> value on stdout (default)
  --format env       NAME="value" lines (dotenv) on stdout, e.g. MAINNET_RPC_URL and ETH_RPC_URL: \`> .env\`
  --format github    appends name<<DELIMITER blocks to $GITHUB_OUTPUT (multi-line safe), for later steps
                     as \${{ steps.<id>.outputs.<name> }}
  --format foundry   an [rpc_endpoints] table (name = Public RPC URL) to append to foundry.toml
  --format hardhat   a Hardhat networks object as JSON: { "<name>": { "type": "http", "url", "chainId" } }
  --include-sensitive  include sensitive outputs (Admin RPC URLs; foundry and hardhat add <name>_admin entries); left
                     out by default. In GitHub Actions they are masked in the log with ::add-mask::
  --export           with --format github: also append them to $GITHUB_ENV as environment variables of later
                     steps, named as --format env names them
  --stack NAME       the stack to read when the app has several
`,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    });
    if (!OUTPUTS_FORMATS.includes(values.format as OutputsFormat)) {
      throw new UsageError(`--format must be one of ${OUTPUTS_FORMATS.join(", ")}, got ${JSON.stringify(values.format)}`);
    }
    const format = values.format as OutputsFormat;
    const includeSensitive = values["include-sensitive"];
    const githubOutput = process.env.GITHUB_OUTPUT;
    const githubEnv = process.env.GITHUB_ENV;
    if (format === "github" && !githubOutput) {
      throw new UsageError(
        "--format github appends to the file named by $GITHUB_OUTPUT, which is not set: run it in a GitHub Actions step, or use --format env",
      );
    }
    if (values.export && format !== "github")
      throw new UsageError("--export goes with --format github; for a dotenv file use --format env");
    if (values.export && !githubEnv) {
      throw new UsageError(
        "--export appends to the file named by $GITHUB_ENV, which is not set: run it in a GitHub Actions step, or use --format env",
      );
    }

    const deploy = ["chainform deploy", ...positionals].join(" ");
    const stack = await stackToRead(appDirOf(positionals), values.stack);
    const terraform = await Terraform.locate();
    const result = await terraform.run(["output", "-json", "-no-color"], { cwd: stack.dir });
    if (result.code !== 0 && /terraform init|initialization required|not initialized/i.test(`${result.stderr}\n${result.stdout}`)) {
      // Synthesized but never deployed: terraform's own answer is a 17-line box about `terraform init`.
      throw new CliError(
        `stack ${stack.name} was never deployed (terraform init has not run in ${stack.dir}): deploy it first (\`${deploy}\`)`,
      );
    }
    if (result.code !== 0) {
      throw new CliError(
        `reading the outputs of stack ${stack.name} failed (terraform exited ${result.code}); terraform said:\n${lastDiagnostics(result)}`,
        {
          details: `${result.stdout}\n${result.stderr}`.trim(),
        },
      );
    }
    const found = JSON.parse(result.stdout || "{}") as Record<string, TerraformOutput>;
    const networks = await stateNetworks(terraform, stack);
    if (Object.keys(found).length === 0 && networks.length === 0) {
      throw new CliError(`stack ${stack.name} has no outputs yet: deploy it first (\`${deploy}\`)`);
    }
    if (NETWORK_FORMATS.includes(format) && networks.length === 0) {
      throw new CliError(
        `stack ${stack.name} holds no chainform environment, so --format ${format} has no network to write: use --format json for its outputs`,
      );
    }
    const text = formatOutputs(found, format, { includeSensitive, networks });
    if (format !== "github") {
      process.stdout.write(text);
      return 0;
    }
    const every = allOutputs(found, networks);
    if (includeSensitive && process.env.GITHUB_ACTIONS === "true") {
      // The runner hides masked values in every later log line; this line itself is consumed by the runner.
      for (const secret of secretTexts(every))
        process.stdout.write(`::add-mask::${secret.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")}\n`);
    }
    appendFileSync(githubOutput as string, text);
    if (values.export) appendFileSync(githubEnv as string, formatOutputs(found, format, { includeSensitive, networks, envNames: true }));
    const names = Object.entries(every)
      .filter(([, o]) => includeSensitive || !o.sensitive)
      .map(([name]) => name);
    process.stderr.write(
      `wrote ${names.length} output(s) to $GITHUB_OUTPUT${values.export ? " and $GITHUB_ENV" : ""}: ${names.sort().join(", ")}\n`,
    );
    return 0;
  },
};
export default outputs;

/**
 * The one stack to read. A cdktf app is synthesized with the current environment first (its output is reused when
 * nothing changed), so that a stack named after an environment variable is the one the variable names now, not the
 * one of the last synthesis.
 */
async function stackToRead(appDir: string, name: string | undefined): Promise<Stack> {
  const app = loadApp(appDir);
  const stacks = selectStacks(
    app.kind === "cdktf" ? (await synthesizeUnlessUnchanged(app, process.env, () => synthesize(app, process.env))).stacks : appStacks(app),
    name,
  );
  if (stacks.length > 1) {
    throw new UsageError(`the app has ${stacks.length} stacks (${stacks.map((s) => s.name).join(", ")}): pick one with --stack NAME`);
  }
  return stacks[0];
}

/** The networks of the stack's chainform environments (`terraform show -json`, never printed: it holds secrets). */
async function stateNetworks(terraform: Terraform, stack: Stack): Promise<NetworkEndpoint[]> {
  const shown = await terraform.run(["show", "-json", "-no-color"], { cwd: stack.dir });
  if (shown.code !== 0)
    throw new CliError(
      `reading the state of stack ${stack.name} failed (terraform exited ${shown.code}); terraform said:\n${lastDiagnostics(shown)}`,
    );
  return networkEndpoints(deployedNetworks(stack.name, JSON.parse(shown.stdout || "{}") as Parameters<typeof deployedNetworks>[1]));
}
