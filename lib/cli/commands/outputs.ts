/**
 * `chainform outputs [--format json|env|github] [--include-sensitive] [--stack NAME] [APP_DIR]`: a deployed stack's
 * outputs for the next CI step, as JSON, a dotenv file, or appended to `$GITHUB_OUTPUT`.
 */
import { appendFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { appDirOf } from "../app-command";
import { appStacks, loadApp, selectStacks } from "../cdktf-app";
import { UsageError, type Command } from "../command";
import { CliError } from "../errors";
import { formatOutputs, OUTPUTS_FORMATS, type OutputsFormat, type TerraformOutput } from "../outputs-format";
import { lastDiagnostics, Terraform } from "../terraform";

const outputs: Command = {
  name: "outputs",
  summary: "print a deployed app's outputs as JSON or dotenv, or write them to $GITHUB_OUTPUT",
  usage: `usage: chainform outputs [APP_DIR] [--format json|env|github] [--include-sensitive] [--stack NAME]

Reads the outputs of a deployed stack (terraform output) of the app synthesized by \`chainform deploy\`.
  --format json      one JSON object name -> value on stdout (default)
  --format env       NAME="value" lines (dotenv) on stdout: \`chainform outputs --format env > .env\`
  --format github    appends name<<DELIMITER blocks to $GITHUB_OUTPUT (multi-line safe), for later steps
                     as \${{ steps.<id>.outputs.<name> }}
  --include-sensitive  include sensitive outputs (Admin RPC URLs); left out by default. In GitHub Actions they
                     are masked in the log with ::add-mask::
  --stack NAME       the stack to read when the app has several
`,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: "string", default: "json" },
        "include-sensitive": { type: "boolean", default: false },
        stack: { type: "string" },
      },
    });
    if (!OUTPUTS_FORMATS.includes(values.format as OutputsFormat)) {
      throw new UsageError(`--format must be one of ${OUTPUTS_FORMATS.join(", ")}, got ${JSON.stringify(values.format)}`);
    }
    const format = values.format as OutputsFormat;
    const githubOutput = process.env.GITHUB_OUTPUT;
    if (format === "github" && !githubOutput) {
      throw new UsageError("--format github appends to the file named by $GITHUB_OUTPUT, which is not set: run it in a GitHub Actions step, or use --format env");
    }

    const app = loadApp(appDirOf(positionals));
    const stacks = selectStacks(appStacks(app), values.stack);
    if (stacks.length > 1) {
      throw new UsageError(`the app has ${stacks.length} stacks (${stacks.map((s) => s.name).join(", ")}): pick one with --stack NAME`);
    }
    const [stack] = stacks;
    const terraform = await Terraform.locate();
    const deploy = ["chainform deploy", ...positionals].join(" ");
    const result = await terraform.run(["output", "-json", "-no-color"], { cwd: stack.dir });
    if (result.code !== 0 && /terraform init|initialization required|not initialized/i.test(`${result.stderr}\n${result.stdout}`)) {
      // Synthesized but never deployed: terraform's own answer is a 17-line box about `terraform init`.
      throw new CliError(`stack ${stack.name} was never deployed (terraform init has not run in ${stack.dir}): deploy it first (\`${deploy}\`)`);
    }
    if (result.code !== 0) {
      throw new CliError(`reading the outputs of stack ${stack.name} failed (terraform exited ${result.code}); terraform said:\n${lastDiagnostics(result)}`, {
        details: `${result.stdout}\n${result.stderr}`.trim(),
      });
    }
    const found = JSON.parse(result.stdout || "{}") as Record<string, TerraformOutput>;
    if (Object.keys(found).length === 0) {
      throw new CliError(`stack ${stack.name} has no outputs yet: deploy it first (\`${deploy}\`)`);
    }
    const text = formatOutputs(found, format, { includeSensitive: values["include-sensitive"] });
    if (format !== "github") {
      process.stdout.write(text);
      return 0;
    }
    if (values["include-sensitive"] && process.env.GITHUB_ACTIONS === "true") {
      // The runner hides masked values in every later log line; this line itself is consumed by the runner.
      for (const output of Object.values(found)) {
        if (output.sensitive && typeof output.value === "string") process.stdout.write(`::add-mask::${output.value}\n`);
      }
    }
    appendFileSync(githubOutput as string, text);
    const names = Object.entries(found).filter(([, o]) => values["include-sensitive"] || !o.sensitive).map(([name]) => name);
    process.stderr.write(`wrote ${names.length} output(s) to $GITHUB_OUTPUT: ${names.sort().join(", ")}\n`);
    return 0;
  },
};
export default outputs;
