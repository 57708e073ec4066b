/**
 * `chainform teardown --prefix P | --older-than 2h | --all [--dry-run] [--yes] [--json]`: removes a project's
 * environments in bulk, for CI clean-up. Lists every environment (pages of 100), selects, shows what will go, and
 * deletes with batch deletes of up to 100 ids: 500 environments take 6 list calls and 5 delete calls.
 */
import { createInterface } from "node:readline/promises";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { MAX_BATCH_DELETE_IDS } from "../../domain/constants";
import { clientFromEnv, type Client, type Environment } from "../../client";
import { UsageError, type Command } from "../command";
import { explainError } from "../errors";
import { formatDuration, parseDuration } from "../duration";
import { Progress } from "../progress";
import { listAllEnvironments } from "../project-environments";
import { renderTable } from "../table";
import { describeSelector, selectForTeardown, TEARDOWN_EXIT, type TeardownSelector } from "../teardown-selection";

/** Rows shown before "... and N more" (all rows with --dry-run or --verbose). */
const LISTED_ROWS = 20;

/** What one teardown did, as `--json` prints it. */
export interface TeardownSummary {
  readonly project: string;
  readonly selector: string;
  readonly dryRun: boolean;
  readonly matched: number;
  readonly deleted: number;
  readonly alreadyMissing: number;
  readonly failed: number;
  readonly environments: readonly { id: string; slug: string; created_at: string }[];
}

/** The options of `chainform teardown`. */
const OPTIONS = {
  prefix: { type: "string" },
  "older-than": { type: "string" },
  all: { type: "boolean", default: false },
  "dry-run": { type: "boolean", default: false },
  yes: { type: "boolean", default: false },
  json: { type: "boolean", default: false },
} as const satisfies ParseArgsConfig["options"];

const teardown: Command = {
  name: "teardown",
  options: OPTIONS,
  summary: "delete a project's environments in bulk: --prefix P | --older-than 2h | --all",
  usage: `usage: chainform teardown (--prefix P | --older-than DURATION | --all) [--dry-run] [--yes] [--json]

Lists the environments of the project (CHAINFORM_ACCOUNT/CHAINFORM_PROJECT), selects them, shows what will go,
and deletes them with batch deletes of up to ${MAX_BATCH_DELETE_IDS} ids per call.
  --prefix P              environments whose slug starts with P (e.g. pr-42)
  --older-than DURATION   environments created more than DURATION ago (90s, 30m, 2h, 1d, 1h30m)
  --all                   every environment of the project
  --dry-run               show the selection, delete nothing
  --yes                   do not ask (needed when stdin is not a terminal)
  --json                  print a JSON summary instead of tables

Exit codes: 0 deleted, 3 nothing to do (no match, --dry-run, or declined), 4 some deletions failed,
1 error (service unreachable, bad key, ...), 2 bad usage.
`,
  async run(args, context) {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: OPTIONS,
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const selector = selectorOf(values);
    const progress = new Progress();
    const client = clientFromEnv();
    const project = `${client.accountSlug ?? "?"}/${client.projectSlug ?? "?"}`;
    try {
      const all = await progress.step(`list the environments of ${project}`, () => listAllEnvironments(client));
      const selected = selectForTeardown(all, selector);
      const summary = (deleted = 0, alreadyMissing = 0, failed = 0): TeardownSummary => ({
        project,
        selector: describeSelector(selector),
        dryRun: values["dry-run"],
        matched: selected.length,
        deleted,
        alreadyMissing,
        failed,
        environments: selected.map(({ id, slug, created_at }) => ({ id, slug, created_at })),
      });
      const report = (result: TeardownSummary, line: string, code: number) => {
        if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else process.stdout.write(`${line}\n`);
        return code;
      };

      if (selected.length === 0) {
        return report(
          summary(),
          `Nothing to do: ${project} has ${all.length} environment(s) and the selection (${describeSelector(selector)}) matches none.`,
          TEARDOWN_EXIT.nothingToDo,
        );
      }
      if (!values.json) process.stdout.write(listing(selected, values["dry-run"] || context.verbose));
      if (values["dry-run"]) {
        return report(
          summary(),
          `Dry run: ${selected.length} of ${all.length} environments of ${project} would be deleted; nothing was deleted.`,
          TEARDOWN_EXIT.nothingToDo,
        );
      }
      if (!values.yes && !(await confirm(`Delete ${selected.length} environment(s) of ${project}?`))) {
        return report(summary(), "Nothing was deleted.", TEARDOWN_EXIT.nothingToDo);
      }

      const outcome = await progress.step(`delete ${selected.length} environment(s) in batches of ${MAX_BATCH_DELETE_IDS}`, () =>
        deleteInBatches(
          client,
          selected.map((e) => e.id),
        ),
      );
      if (outcome.failed.length > 0 && outcome.deleted + outcome.alreadyMissing === 0) throw outcome.failed[0].error;
      const result = summary(
        outcome.deleted,
        outcome.alreadyMissing,
        outcome.failed.reduce((n, f) => n + f.ids, 0),
      );
      if (outcome.failed.length > 0) {
        const reasons = [...new Set(outcome.failed.map((f) => explainError(f.error).line))].join("; ");
        return report(
          result,
          `Partial failure: deleted ${result.deleted + result.alreadyMissing} of ${selected.length}; ${result.failed} could not be deleted (${reasons}). Run the same command again to retry them.`,
          TEARDOWN_EXIT.partialFailure,
        );
      }
      const missing = result.alreadyMissing > 0 ? ` (${result.alreadyMissing} were already gone)` : "";
      return report(result, `Deleted ${selected.length} environment(s) of ${project}${missing}.`, TEARDOWN_EXIT.deleted);
    } finally {
      await client.close();
    }
  },
};
export default teardown;

function selectorOf(values: { prefix?: string; "older-than"?: string; all: boolean }): TeardownSelector {
  const given = [values.prefix !== undefined, values["older-than"] !== undefined, values.all].filter(Boolean).length;
  if (given !== 1) throw new UsageError("give exactly one of --prefix P, --older-than DURATION or --all");
  if (values.prefix !== undefined) {
    if (values.prefix === "") throw new UsageError("--prefix must not be empty (use --all to select every environment)");
    return { kind: "prefix", prefix: values.prefix };
  }
  if (values["older-than"] !== undefined) {
    try {
      return { kind: "olderThan", ms: parseDuration(values["older-than"]) };
    } catch (error) {
      throw new UsageError(`--older-than: ${(error as Error).message}`);
    }
  }
  return { kind: "all" };
}

function listing(selected: readonly Environment[], everything: boolean): string {
  const shown = everything ? selected : selected.slice(0, LISTED_ROWS);
  const now = Date.now();
  const table = renderTable(
    ["SLUG", "ID", "CREATED", "AGE"],
    shown.map((e) => [e.slug, e.id, e.created_at, formatDuration(now - Date.parse(e.created_at))]),
  );
  const more = selected.length - shown.length;
  return more > 0 ? `${table}... and ${more} more (--dry-run or --verbose lists them all)\n` : table;
}

/** Asks on the terminal; without one, refuses (a CI job must say --yes). */
async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) {
    throw new UsageError("stdin is not a terminal, so there is no one to confirm: add --yes to delete (or --dry-run to look first)");
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim());
  } finally {
    prompt.close();
  }
}

/** Batch deletes, one call per 100 ids; a failed batch does not stop the others. */
async function deleteInBatches(client: Client, ids: readonly string[]) {
  const outcome = { deleted: 0, alreadyMissing: 0, failed: [] as { ids: number; error: unknown }[] };
  for (let start = 0; start < ids.length; start += MAX_BATCH_DELETE_IDS) {
    const chunk = ids.slice(start, start + MAX_BATCH_DELETE_IDS);
    try {
      const result = await client.deleteEnvironments({ environmentIds: chunk });
      outcome.deleted += result.deleted;
      outcome.alreadyMissing += result.alreadyMissing;
    } catch (error) {
      outcome.failed.push({ ids: chunk.length, error });
    }
  }
  return outcome;
}
