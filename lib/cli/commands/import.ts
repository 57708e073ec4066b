/**
 * `chainform import FILE [--slug SLUG] [--display-name NAME] [--show-secrets]`: makes a new environment of the project
 * from a fixture file (docs/fixtures.md) and prints it (without Admin RPC URLs unless `--show-secrets`, as `chainform
 * environments --json`). The file is checked here first: a bad one is refused in one line naming it, and nothing is
 * sent.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ApiError, clientFromEnv, importEnvironment } from "../../client";
import { readFixture } from "../../service/environment-files";
import { SHOW_SECRETS_USAGE } from "../app-command";
import { UsageError, type Command } from "../command";
import { CliError } from "../errors";
import { withoutAdminRpcUrls } from "./environments";
import { readFixtureAt } from "../fixture-places";

/** The options of `chainform import`. */
const OPTIONS = {
  slug: { type: "string" },
  "display-name": { type: "string" },
  "show-secrets": { type: "boolean", default: false },
} as const satisfies ParseArgsConfig["options"];

const importCommand: Command = {
  options: OPTIONS,
  name: "import",
  summary: "make a new environment from a fixture file (chainform export)",
  usage: `usage: chainform import FILE|oci://HOST/REPOSITORY[:TAG] [--slug SLUG] [--display-name NAME] [--show-secrets]

Makes a new environment of the project from a fixture file written by \`chainform export\`: the same chains, records
and verified contracts, under new ids and new RPC URLs. Prints the environment as JSON (Admin RPC URLs left out
unless --show-secrets; \`chainform environments --show-secrets\` shows them later).
A taken slug is refused, as a create's is: give another with --slug. An oci:// URL pulls the fixture from an OCI
registry, checked against its digests (docs/oci-store.md).

  --slug SLUG          the new environment's slug (default: the one in the file)
  --display-name NAME  the new environment's name (default: the one in the file)
${SHOW_SECRETS_USAGE.replace("--show-secrets    ", "--show-secrets       ")}

Uses CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY (or CHAINFORM_BEARER_TOKEN), CHAINFORM_ACCOUNT and CHAINFORM_PROJECT.
`,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: OPTIONS,
    });
    if (positionals.length !== 1) throw new UsageError("give one fixture file to import: chainform import FILE");
    const path = positionals[0];
    const file = await readFixtureAt(path);
    readFixture(file, path);
    const client = clientFromEnv();
    try {
      const environment = await importEnvironment(client, { file, slug: values.slug, displayName: values["display-name"] }).catch(
        (error: unknown) => {
          // The service names the upload; here it is the file.
          if (error instanceof ApiError && error.status === 400) {
            const reason = error.serviceMessage.replace(/^the uploaded fixture: /, "").replace(/: choose another slug$/, "");
            throw new CliError(`${path}: ${reason}${error.data?.field === "/slug" ? ": give another with --slug" : ""}`);
          }
          throw error;
        },
      );
      process.stdout.write(`${JSON.stringify(values["show-secrets"] ? environment : withoutAdminRpcUrls(environment), null, 2)}\n`);
      return 0;
    } finally {
      await client.close();
    }
  },
};
export default importCommand;
