/**
 * `chainform serve [--host 127.0.0.1] [--port 8787] [--data-dir .chainform] [--seed FILE] [--in-memory] [--tls]
 * [--tls-cert FILE --tls-key FILE] [--insecure-http] [--public-url URL] [--rate-limit N] [--burst-limit N]
 * [--rpc-rate-limit N|off]` (docs/service.md): runs the local service until SIGTERM or SIGINT, printing one JSON ready line on stdout. Off
 * loopback it needs TLS (docs/serving-on-a-network.md).
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { startServer, DEFAULT_HOST, DEFAULT_PORT, ServeConfigError } from "../../service/server";
import { givenCertificate } from "../../service/tls";
import { loadSeedFile } from "../../service/seed";
import { DEFAULT_RPC_LIMIT, RPC_LIMIT_OFF } from "../../service/rate-limit";
import { UsageError, type Command } from "../command";

/** Default data dir, relative to the working directory. */
export const DEFAULT_DATA_DIR = ".chainform";

const serve: Command = {
  name: "serve",
  summary: "run the local service (offline, persistent in --data-dir)",
  usage: `usage: chainform serve [--host HOST] [--port N] [--data-dir DIR | --in-memory] [--seed FILE] [--tls]
                       [--rate-limit N] [--burst-limit N] [--rpc-rate-limit N|off]

Runs the local chainform service until SIGTERM or Ctrl-C and prints one JSON line on stdout when it is ready:
{"event":"ready","baseUrl":...,"accountSlug":...,"projectSlug":...,"accessKey":...}.

  --host HOST        address to listen on (default ${DEFAULT_HOST})
  --port N           port to listen on, 0 for a free one (default ${DEFAULT_PORT})
  --data-dir DIR     where the service keeps its data between runs (default ${DEFAULT_DATA_DIR})
  --in-memory        keep nothing on disk
  --seed FILE        accounts, projects, users and keys to start with (JSON; default: one account acme, project demo)
  --tls              serve HTTPS with a generated certificate
  --rate-limit N     requests per key per minute (default 400, the hosted service's)
  --burst-limit N    requests per minute from any client, keyed or not (default 250)
  --rpc-rate-limit N calls per minute per RPC URL, or off (default ${DEFAULT_RPC_LIMIT}: more than a chain answers)
The first seeded user's access key is CHAINFORM_ACCESS_KEY when set, else the one the seed holds.
`,
  async run(args) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        host: { type: "string", default: DEFAULT_HOST },
        port: { type: "string", default: String(DEFAULT_PORT) },
        "data-dir": { type: "string", default: DEFAULT_DATA_DIR },
        seed: { type: "string" },
        "in-memory": { type: "boolean", default: false },
        tls: { type: "boolean", default: false },
        "tls-cert": { type: "string" },
        "tls-key": { type: "string" },
        "insecure-http": { type: "boolean", default: false },
        "public-url": { type: "string" },
        "rate-limit": { type: "string" },
        "burst-limit": { type: "string" },
        "rpc-rate-limit": { type: "string" },
      },
    });
    const rateLimit = optionalCount(values["rate-limit"], "--rate-limit");
    const burstLimit = optionalCount(values["burst-limit"], "--burst-limit");
    const rpcLimit = values["rpc-rate-limit"] === undefined ? undefined : rpcRateLimit(values["rpc-rate-limit"]);
    const certFile = values["tls-cert"];
    const keyFile = values["tls-key"];
    if ((certFile === undefined) !== (keyFile === undefined)) throw new UsageError("--tls-cert and --tls-key go together: give both files");
    const service = await startServer({
      host: values.host,
      tls: values.tls && certFile === undefined,
      certificate: certFile && keyFile ? usage(() => givenCertificate(certFile, keyFile)) : undefined,
      insecureHttp: values["insecure-http"],
      publicUrl: values["public-url"],
      port: integerIn(values.port, "--port", 0, 65_535),
      dataDir: values["in-memory"] ? null : resolve(values["data-dir"]),
      seed: values.seed === undefined ? undefined : loadSeedFile(values.seed),
      accessKey: process.env.CHAINFORM_ACCESS_KEY || undefined,
      rateLimits: { ...(rateLimit && { rateLimit }), ...(burstLimit && { burstLimit }), ...(rpcLimit && { rpcLimit }) },
    }).catch((error: unknown) => {
      throw error instanceof ServeConfigError ? new UsageError(error.message) : error;
    });
    for (const warning of service.warnings) process.stderr.write(`chainform serve: ${warning}\n`);
    if (service.caFile) {
      process.stderr.write(
        `chainform serve: self-signed certificate in ${service.caFile}; clients trust it with CHAINFORM_CA_FILE=${service.caFile} (provider argument ca_file)\n`,
      );
    }
    process.stdout.write(
      `${JSON.stringify({
        event: "ready",
        baseUrl: service.baseUrl,
        accountSlug: service.accountSlug,
        projectSlug: service.projectSlug,
        accessKey: service.accessKey,
        ...(service.caFile && { caFile: service.caFile }),
        dashboardUrl: service.dashboardUrl,
      })}\n`,
    );
    await new Promise<void>((done) => {
      const stop = () => {
        process.off("SIGTERM", stop);
        process.off("SIGINT", stop);
        done();
      };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
    });
    await service.close();
    return 0;
  },
};
export default serve;

/** Runs `read`, turning a refused setting into a usage error (one line, exit 2). */
function usage<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof ServeConfigError ? new UsageError(error.message) : error;
  }
}

function integerIn(text: string, flag: string, min: number, max: number): number {
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return value;
}

/** `--rpc-rate-limit`: a count, or `off` for no limit. */
export function rpcRateLimit(text: string): number {
  return text === "off" ? RPC_LIMIT_OFF : integerIn(text, "--rpc-rate-limit (a count, or off)", 1, Number.MAX_SAFE_INTEGER);
}

function optionalCount(text: string | undefined, flag: string): number | undefined {
  return text === undefined ? undefined : integerIn(text, flag, 1, Number.MAX_SAFE_INTEGER);
}
