/**
 * `chainform export ENVIRONMENT [--output FILE]`: writes an environment of the project (by id or slug) as one fixture
 * file (docs/fixtures.md), `<slug>.chainform` by default. The file is written whole or not at all.
 */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { clientFromEnv, exportEnvironment, getEnvironmentBySlug, type Client, type Environment } from "../../client";
import { isUuid } from "../../domain/uuid";
import { UsageError, type Command } from "../command";
import { CliError } from "../errors";
import { isOciUrl, pushFixtureTo } from "../fixture-places";

/** The options of `chainform export`. */
const OPTIONS = { output: { type: "string" } } as const satisfies ParseArgsConfig["options"];

const exportCommand: Command = {
  options: OPTIONS,
  name: "export",
  summary: "write an environment (id or slug) as a fixture file: its chains, records and verified contracts",
  usage: `usage: chainform export ENVIRONMENT [--output FILE|oci://HOST/REPOSITORY[:TAG]]

Writes the environment (its id or slug) of the project as one fixture file, by default <slug>.chainform: each
network's chain state, the transaction records, the verified contracts, and the fork recordings its forks read.
No access key, Admin RPC URL or upstream URL is in it. \`chainform import FILE\` makes a new environment from it,
here or on another machine; \`chainform serve --import FILE\` does at start (docs/fixtures.md).

  --output FILE   where to write the file (default <slug>.chainform in the current directory), or an
                  oci://HOST/REPOSITORY[:TAG] to push it to an OCI registry (docs/oci-store.md: credentials
                  from the Docker config, CHAINFORM_OCI_USERNAME/PASSWORD or GITHUB_TOKEN)

Uses CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY (or CHAINFORM_BEARER_TOKEN), CHAINFORM_ACCOUNT and CHAINFORM_PROJECT.
`,
  async run(args) {
    const { values, positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: OPTIONS });
    if (positionals.length !== 1) throw new UsageError("give one environment to export, by id or slug: chainform export ENVIRONMENT");
    const client = clientFromEnv();
    try {
      const environment = await environmentNamed(client, positionals[0]);
      const file = await exportEnvironment(client, { environmentId: environment.id });
      if (values.output !== undefined && isOciUrl(values.output)) {
        const pinned = await pushFixtureTo(values.output, file, `${environment.slug}.chainform`);
        process.stdout.write(
          `pushed ${values.output} (${file.length} bytes, ${pinned}): environment ${environment.slug} (${environment.id})\n`,
        );
        return 0;
      }
      const output = resolve(values.output ?? `${environment.slug}.chainform`);
      writeWhole(output, file);
      process.stdout.write(`wrote ${output} (${file.length} bytes): environment ${environment.slug} (${environment.id})\n`);
      return 0;
    } finally {
      await client.close();
    }
  },
};
export default exportCommand;

/** An environment of the client's project by id or slug; a CliError saying so when there is none. */
async function environmentNamed(client: Client, name: string): Promise<Pick<Environment, "id" | "slug">> {
  const found = isUuid(name) ? await client.getEnvironment({ environmentId: name.toLowerCase() }).catch(() => null) : null;
  const environment = found ?? (await getEnvironmentBySlug(client, { slug: name }));
  if (!environment) {
    throw new CliError(
      `no environment ${name} in project ${client.accountSlug}/${client.projectSlug}: \`chainform environments\` lists them`,
    );
  }
  return environment;
}

/** Writes a file through a temporary one beside it, so that a failure leaves no half file. */
function writeWhole(path: string, bytes: Buffer): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CliError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
