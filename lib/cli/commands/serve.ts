/**
 * `chainform serve [--host 127.0.0.1] [--port 8787] [--data-dir .chainform] [--seed FILE] [--in-memory] [--tls]
 * [--tls-cert FILE --tls-key FILE] [--insecure-http] [--public-url URL] [--rate-limit N] [--burst-limit N]
 * [--rpc-rate-limit N|off] [--max-chains N] [--log-file FILE] [--log-level LEVEL] [--rpc-timeout SECONDS]
 * [--idle-stop DURATION|off] [--fork ID=URL]... [--fork-cache DIR] [--offline] [--import FILE]...` (docs/service.md): runs the local service
 * until SIGTERM or SIGINT, printing one JSON ready line on stdout and its log on stderr (or `--log-file`). Off
 * loopback it needs TLS (docs/serving-on-a-network.md). `--import` brings in fixture files before the ready line
 * (docs/fixtures.md).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { resolve } from "node:path";
import { startServer, DEFAULT_HOST, DEFAULT_PORT } from "../../service/listen";
import { givenCertificate, ServeConfigError } from "../../service/https";
import { loadSeedFile } from "../../service/seed";
import { LOG_LEVELS } from "../../service/log";
import { DEFAULT_RPC_LIMIT, RPC_LIMIT_OFF } from "../../service/rate-limit";
import { UsageError, type Command } from "../command";
import { FORK_OPTIONS, FORK_OPTIONS_USAGE, forkSettings, openForkCache } from "../fork-flags";
import { listenFailure } from "../errors";
import { importAtStart } from "../../service/environment-files";
import { localFixtureFiles } from "../fixture-places";
import { exportLine, integerIn, SERVICE_OPTIONS, SERVICE_OPTIONS_USAGE, serviceSettings } from "../service-flags";

/** Default data dir, relative to the working directory. */
export const DEFAULT_DATA_DIR = ".chainform";

/** The options of `chainform serve`. */
const OPTIONS = {
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
  ...FORK_OPTIONS,
  ...SERVICE_OPTIONS,
  "log-level": { type: "string", default: "info" },
  import: { type: "string", multiple: true },
} as const satisfies ParseArgsConfig["options"];

const serve: Command = {
  name: "serve",
  options: OPTIONS,
  summary: "run the local service (offline, persistent in --data-dir)",
  usage: `usage: chainform serve [--host HOST] [--port N] [--data-dir DIR | --in-memory] [--seed FILE]
                       [--tls | --tls-cert FILE --tls-key FILE] [--insecure-http] [--public-url URL]
                       [--rate-limit N] [--burst-limit N] [--rpc-rate-limit N|off] [--fork ID=URL]...
                       [--fork-cache DIR] [--offline] [--offline-empty-accounts] [--max-chains N] [--log-file FILE]
                       [--log-level LEVEL] [--rpc-timeout SECONDS] [--idle-stop DURATION|off] [--import FILE]...

Runs the local chainform service until SIGTERM or Ctrl-C and prints one JSON line on stdout when it is ready:
{"event":"ready","baseUrl":...,"accountSlug":...,"projectSlug":...,"accessKey":...}, then on stderr a line
\`export CHAINFORM_BASE_URL=... CHAINFORM_ACCESS_KEY=...\` to paste into another shell.
Its log (JSON lines) goes to stderr, or to --log-file.

  --host HOST        address to listen on (default ${DEFAULT_HOST}); off loopback it needs TLS or --insecure-http
  --port N           port to listen on, 0 for a free one (default ${DEFAULT_PORT})
  --data-dir DIR     where the service keeps its data between runs (default ${DEFAULT_DATA_DIR})
  --in-memory        keep nothing on disk
  --seed FILE        accounts, projects, users and keys to start with (JSON; default: one account acme, project demo)
  --tls              serve HTTPS with a generated certificate (its CA file is printed, for CHAINFORM_CA_FILE)
  --tls-cert FILE    serve HTTPS with this certificate (PEM), together with --tls-key
  --tls-key FILE     the certificate's private key (PEM)
  --insecure-http    plain HTTP on a non-loopback host: keys and tokens cross the network in clear text
  --public-url URL   the base URL clients reach the service at (a proxy in front), for the RPC URLs it hands out
  --rate-limit N     requests per key per minute (default 400, the hosted service's)
  --burst-limit N    requests per minute from any client, keyed or not (default 250)
  --rpc-rate-limit N calls per minute per RPC URL, or off (default ${DEFAULT_RPC_LIMIT}: more than a chain answers)
${FORK_OPTIONS_USAGE}
${SERVICE_OPTIONS_USAGE}
  --log-level LEVEL  ${LOG_LEVELS.join(", ")} (default info: one line per request, error ids of 5xx)
  --import FILE      at start, import a fixture file (chainform export) into the default project unless an environment
                     with its slug is there already; repeatable (docs/fixtures.md); an oci://HOST/REPOSITORY[:TAG]
                     pulls it from an OCI registry (docs/oci-store.md)
One service per data dir: a second one on the same dir is refused. Serving on a network: docs/serving-on-a-network.md
in the installed package (node_modules/chainform/docs/).
The first seeded user's access key is CHAINFORM_ACCESS_KEY when set, else the one the seed holds.
`,
  async run(args) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: OPTIONS,
    });
    const rateLimit = optionalCount(values["rate-limit"], "--rate-limit");
    const burstLimit = optionalCount(values["burst-limit"], "--burst-limit");
    const { maxChains, logFile, rpcTimeoutMs, idleStopMs } = serviceSettings(values);
    const logLevel = values["log-level"];
    if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
      throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(logLevel)}`);
    const rpcLimit = values["rpc-rate-limit"] === undefined ? undefined : rpcRateLimit(values["rpc-rate-limit"]);
    const certFile = values["tls-cert"];
    const keyFile = values["tls-key"];
    if ((certFile === undefined) !== (keyFile === undefined)) throw new UsageError("--tls-cert and --tls-key go together: give both files");
    const port = integerIn(values.port, "--port", 0, 65_535);
    const forking = forkSettings(values);
    const forkCache = await openForkCache(values, forking.forkCacheDir, (line) => process.stderr.write(`chainform serve: ${line}\n`));
    const service = await startServer({
      host: values.host,
      tls: values.tls && certFile === undefined,
      certificate: certFile && keyFile ? usage(() => givenCertificate(certFile, keyFile)) : undefined,
      insecureHttp: values["insecure-http"],
      publicUrl: values["public-url"],
      port,
      dataDir: values["in-memory"] ? null : resolve(values["data-dir"]),
      seed: values.seed === undefined ? undefined : loadSeedFile(values.seed),
      accessKey: process.env.CHAINFORM_ACCESS_KEY || undefined,
      rateLimits: { ...(rateLimit && { rateLimit }), ...(burstLimit && { burstLimit }), ...(rpcLimit !== undefined && { rpcLimit }) },
      ...forking,
      forkCacheDir: forkCache.dir,
      sharedForkCache: forkCache.shared,
      maxChains,
      rpcTimeoutMs,
      idleStopMs,
      logger: { level: logLevel, file: logFile },
    }).catch(async (error: unknown) => {
      await forkCache.close();
      throw error instanceof ServeConfigError ? new UsageError(error.message) : listenFailure(error, values.host, port, "--port N");
    });
    // Fixtures are in before the ready line: a CI job that waits for it finds its environments there.
    try {
      const fixtures = await localFixtureFiles(values.import ?? []);
      try {
        for (const done of await importAtStart(service.app.service, fixtures.files)) {
          process.stderr.write(
            `chainform serve: ${fixtures.names.get(done.file) ?? done.file}: ${done.outcome === "imported" ? "imported as" : "already present as"} environment ${done.slug} (${done.environmentId})\n`,
          );
        }
      } finally {
        fixtures.cleanup();
      }
    } catch (error) {
      await service.close();
      await forkCache.close();
      throw error;
    }
    // Listening for the signals before the ready line: a supervisor may send SIGTERM the moment it reads it.
    const stopped = new Promise<void>((done) => {
      const stop = () => {
        process.off("SIGTERM", stop);
        process.off("SIGINT", stop);
        done();
      };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
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
    // On stderr, after the ready line (stdout's first line stays the JSON one): what `up --keep` prints, no more.
    const settings = {
      CHAINFORM_BASE_URL: service.baseUrl,
      CHAINFORM_ACCESS_KEY: service.accessKey,
      CHAINFORM_ACCOUNT: service.accountSlug,
      CHAINFORM_PROJECT: service.projectSlug,
      ...(service.caFile && { CHAINFORM_CA_FILE: service.caFile }),
    };
    // Only to a person at a terminal: stderr is the service's log, and a log never holds the access key (a supervisor
    // reads the key from the ready line).
    if (process.stderr.isTTY) {
      process.stderr.write(
        `chainform serve: other commands reach it with these settings (the access key is this service's secret: keep it out of shared logs):\n${exportLine(settings)}\n`,
      );
    }
    await stopped;
    await service.close();
    await forkCache.close(); // after the service: it has saved every recording by then
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

/** `--rpc-rate-limit`: a count, or `off` for no limit. */
export function rpcRateLimit(text: string): number {
  return text === "off" ? RPC_LIMIT_OFF : integerIn(text, "--rpc-rate-limit (a count, or off)", 1, Number.MAX_SAFE_INTEGER);
}

function optionalCount(text: string | undefined, flag: string): number | undefined {
  return text === undefined ? undefined : integerIn(text, flag, 1, Number.MAX_SAFE_INTEGER);
}
