/**
 * `chainform exec [--data-dir DIR] -- COMMAND [ARGS...]`: runs a command whose Node.js clients reach the local service
 * under every hosted host name (the API, vnet RPC hosts, node gateways) with TLS they trust, and nothing else
 * redirected (docs/hosted-clients.md). The service is CHAINFORM_BASE_URL's, else one started here in memory.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError, type Command } from "../command";
import { startEmbeddedService, type EmbeddedService } from "../embedded-service";
import { startForwarder } from "../exec/forwarder";
import { EXEC_PORT_VARIABLE } from "../exec/preload";

/** The options of `chainform exec`. */
const OPTIONS = {
  "data-dir": { type: "string" },
} as const satisfies ParseArgsConfig["options"];

/** The vnet RPC network labels of the service's networks, for the forwarder's certificate. */
async function vnetNetworks(baseUrl: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/v1/supported-networks`);
  if (!response.ok) throw new Error(`the service at ${baseUrl} answered ${response.status} to GET /v1/supported-networks`);
  const networks = (await response.json()) as { chain_id: string; network_slugs: { vnet_rpc_slug: string } }[];
  return networks.map((network) => network.network_slugs.vnet_rpc_slug || network.chain_id);
}

/** Runs the child and resolves to its exit code (128 + the signal's number when a signal ended it). */
function runChild(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on("SIGINT", forward).on("SIGTERM", forward);
    child.on("error", (error) => reject(new UsageError(`could not run ${command}: ${error.message}`)));
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward).off("SIGTERM", forward);
      resolve(code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1));
    });
  });
}

const exec: Command = {
  name: "exec",
  options: OPTIONS,
  summary: "run a command whose Node.js clients reach the local service under the hosted host names",
  usage: `usage: chainform exec [--data-dir DIR] -- COMMAND [ARGS...]

Runs COMMAND with its Node.js clients (https, axios, fetch, ethers) sent to the local service whenever they connect
to a hosted host name: api.tenderly.co, rpc.tenderly.co, virtual.{network}[.{region}].rpc.tenderly.co and
{network}.gateway.tenderly.co, over TLS they trust (a throw-away CA in NODE_EXTRA_CA_CERTS). Nothing else is
redirected. The service is CHAINFORM_BASE_URL's when set, else one started for the command (in memory, or in
--data-dir). The child gets CHAINFORM_BASE_URL and, for a service started here, CHAINFORM_ACCESS_KEY,
CHAINFORM_ACCOUNT and CHAINFORM_PROJECT.
Clients outside Node.js need a hosts-file entry and the CA: see docs/hosted-clients.md.

  --data-dir DIR     keep the started service's data in DIR (default: in memory)
`,
  async run(args) {
    const split = args.indexOf("--");
    const own = split < 0 ? [] : args.slice(0, split);
    const command = split < 0 ? args : args.slice(split + 1);
    const { values } = parseArgs({ args: own, strict: true, options: OPTIONS });
    if (command.length === 0) throw new UsageError("exec needs a command: chainform exec -- COMMAND [ARGS...]");
    const given = process.env.CHAINFORM_BASE_URL;
    let service: EmbeddedService | undefined;
    if (!given) service = await startEmbeddedService({ dataDir: values["data-dir"] ?? null });
    const baseUrl = given ?? service!.baseUrl;
    const directory = mkdtempSync(join(tmpdir(), "chainform-exec-"));
    const forwarder = await startForwarder(baseUrl, await vnetNetworks(baseUrl));
    try {
      const caFile = join(directory, "ca.pem");
      const extra = process.env.NODE_EXTRA_CA_CERTS ? `${readFileSync(process.env.NODE_EXTRA_CA_CERTS, "utf8")}\n` : "";
      writeFileSync(caFile, `${extra}${forwarder.certPem}`, { mode: 0o600 });
      const preload = require.resolve("../exec/preload");
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        ...service?.env,
        CHAINFORM_BASE_URL: baseUrl,
        [EXEC_PORT_VARIABLE]: String(forwarder.port),
        NODE_EXTRA_CA_CERTS: caFile,
        NODE_OPTIONS: [process.env.NODE_OPTIONS, `--require ${JSON.stringify(preload)}`].filter(Boolean).join(" "),
      };
      return await runChild(command[0], command.slice(1), env);
    } finally {
      await forwarder.close();
      await service?.close();
      rmSync(directory, { recursive: true, force: true });
    }
  },
};

export default exec;
