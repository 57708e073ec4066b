/**
 * `chainform abi add ENVIRONMENT ADDRESS FILE [--network ID]`: adds the ABI of a contract nobody verified to an
 * environment's networks, so that the local explorer and dashboard decode its calls and events. FILE is a plain ABI
 * (JSON array), a Foundry artifact (`out/X.sol/X.json`) or a Hardhat artifact (`artifacts/.../X.json`). A local extra
 * of chainform's service (`POST .../vnet/{vnetId}/abis`, docs/explorer-and-dashboard.md).
 */
import { readFileSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { clientFromEnv, getEnvironmentBySlug, type Client, type Environment } from "../../client";
import { Address } from "../../api";
import { MAX_ABI_JSON_LENGTH, parseAbiFile } from "../../domain/abi-files";
import { isUuid } from "../../domain/uuid";
import { UsageError, type Command } from "../command";
import { CliError } from "../errors";
import { instancePath } from "../../client/utils/scope";

/** The options of `chainform abi`. */
const OPTIONS = { network: { type: "string" } } as const satisfies ParseArgsConfig["options"];

const ADDRESS = new RegExp(Address.pattern!);

/** What the service answers for an added ABI. */
interface AddedAbi {
  readonly vnet_id: string;
  readonly address: string;
  readonly name: string;
  readonly functions: number;
  readonly events: number;
}

const abiCommand: Command = {
  name: "abi",
  options: OPTIONS,
  summary: "add the ABI of an unverified contract (a plain ABI, a Foundry or a Hardhat artifact) so the explorer decodes it",
  usage: `usage: chainform abi add ENVIRONMENT ADDRESS FILE [--network NETWORK_ID]

Adds the ABI in FILE for the contract at ADDRESS on the networks of ENVIRONMENT (its id or slug), so that the local
explorer and dashboard name its calls and events. FILE is a plain ABI (a JSON array), a Foundry artifact
(out/Counter.sol/Counter.json) or a Hardhat artifact (artifacts/contracts/Counter.sol/Counter.json); the contract's
name comes from the artifact or the file name. Adding again replaces it. A contract verified on the explorer is
decoded with its verified ABI instead.

  --network NETWORK_ID   only the network with this id (default: every network of the environment)

Uses CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY (or CHAINFORM_BEARER_TOKEN), CHAINFORM_ACCOUNT and CHAINFORM_PROJECT.
`,
  async run(args) {
    const { values, positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: OPTIONS });
    const [verb, environmentName, address, file] = positionals;
    if (verb !== "add" || positionals.length !== 4 || !environmentName || !address || !file) {
      throw new UsageError("usage: chainform abi add ENVIRONMENT ADDRESS FILE [--network NETWORK_ID]");
    }
    if (!ADDRESS.test(address)) throw new UsageError(`${address.slice(0, 80)} is not an address: 0x followed by 40 hex digits`);
    const text = readAbiFile(file);
    const parsed = parseAbiFile(text, file);
    if ("error" in parsed) throw new CliError(`${file}: ${parsed.error}`);
    const client = clientFromEnv();
    try {
      const environment = await environmentNamed(client, environmentName);
      const vnets = environment.active_instance.vnets.filter(
        (v) => values.network === undefined || String(v.fork_config.network_id) === values.network,
      );
      if (vnets.length === 0) {
        const ids = environment.active_instance.vnets.map((v) => v.fork_config.network_id).join(", ");
        throw new CliError(`environment ${environment.slug} has no network ${values.network ?? ""}: its networks are ${ids}`);
      }
      for (const vnet of vnets) {
        const added = await client.request<AddedAbi>({
          method: "POST",
          path: `${instancePath(client, { environmentId: environment.id, instanceId: environment.active_instance.id })}/vnet/${vnet.id}/abis`,
          body: { address, abi: JSON.stringify(parsed.abi), name: parsed.name },
        });
        process.stdout.write(
          `added ${added.name || "the ABI"} at ${added.address} on network ${vnet.fork_config.network_id} (${added.functions} functions, ${added.events} events)\n`,
        );
      }
      return 0;
    } finally {
      await client.close();
    }
  },
};
export default abiCommand;

/** The file's text; a CliError naming the file when it cannot be read or is too large. */
function readAbiFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (text.length > MAX_ABI_JSON_LENGTH * 4) throw new CliError(`${file} is larger than an artifact should be`);
  return text;
}

/** An environment of the client's project by id or slug; a CliError saying so when there is none. */
async function environmentNamed(client: Client, name: string): Promise<Environment> {
  const found = isUuid(name) ? await client.getEnvironment({ environmentId: name.toLowerCase() }).catch(() => null) : null;
  const environment = found ?? (await getEnvironmentBySlug(client, { slug: name }));
  if (!environment) {
    throw new CliError(
      `no environment ${name} in project ${client.accountSlug}/${client.projectSlug}: \`chainform environments\` lists them`,
    );
  }
  return environment;
}
