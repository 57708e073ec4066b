/**
 * The read-only lookups (`networks`, `projects`, `channels`, `environments`): fetch a list with the client, print a
 * table, or the JSON with `--json`.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { clientFromEnv, type Client } from "../client";
import { SHOW_SECRETS_USAGE } from "./app-command";
import { UsageError, type Command } from "./command";
import { renderTable } from "./table";

/** The options of every lookup; `--show-secrets` only where the list holds secrets. */
const LOOKUP_OPTIONS = { json: { type: "boolean", default: false } } as const satisfies ParseArgsConfig["options"];
const SECRET_LOOKUP_OPTIONS = {
  ...LOOKUP_OPTIONS,
  "show-secrets": { type: "boolean", default: false },
} as const satisfies ParseArgsConfig["options"];

/** How one lookup fetches and shows its list. */
export interface LookupDefinition<T> {
  readonly name: string;
  readonly summary: string;
  /** What the list is, for the usage text and the empty message, e.g. "supported networks". */
  readonly noun: string;
  /** Extra usage lines (environment variables used). */
  readonly notes: string;
  fetch(client: Client): Promise<T[]>;
  readonly headers: readonly string[];
  row(item: T): string[];
  /** What `--json` prints for the list (default: the list itself). */
  json?(items: T[]): unknown;
  /**
   * With `--show-secrets` (as `up` and `deploy` take it): a table column and the JSON with the secrets the list
   * otherwise leaves out. Without it, the lookup takes no `--show-secrets`.
   */
  readonly secrets?: {
    readonly header: string;
    cell(item: T): string;
    json(items: T[]): unknown;
  };
}

/**
 * Builds a lookup command.
 * @example
 * export default lookupCommand({ name: "networks", noun: "supported networks", fetch: (c) => c.listSupportedNetworks(), ... });
 */
export function lookupCommand<T>(definition: LookupDefinition<T>): Command {
  const secrets = definition.secrets;
  return {
    name: definition.name,
    summary: definition.summary,
    options: secrets ? SECRET_LOOKUP_OPTIONS : LOOKUP_OPTIONS,
    usage: `usage: chainform ${definition.name} [--json]${secrets ? " [--show-secrets]" : ""}

Prints the ${definition.noun} as a table, or as JSON with --json.
${secrets ? `${SHOW_SECRETS_USAGE}\n` : ""}${definition.notes}
`,
    async run(args) {
      const { values, positionals } = parseArgs({
        args,
        strict: true,
        allowPositionals: true,
        options: secrets ? SECRET_LOOKUP_OPTIONS : LOOKUP_OPTIONS,
      });
      if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
      const shown = secrets && (values as { "show-secrets"?: boolean })["show-secrets"] ? secrets : undefined;
      const client = clientFromEnv();
      try {
        const items = await definition.fetch(client);
        const json = shown ? shown.json(items) : definition.json ? definition.json(items) : items;
        if (values.json) process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
        else if (items.length === 0) process.stdout.write(`No ${definition.noun}.\n`);
        else
          process.stdout.write(
            renderTable(
              shown ? [...definition.headers, shown.header] : definition.headers,
              items.map((item) => (shown ? [...definition.row(item), shown.cell(item)] : definition.row(item))),
            ),
          );
        return 0;
      } finally {
        await client.close();
      }
    },
  };
}
