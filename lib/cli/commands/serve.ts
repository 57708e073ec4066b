/**
 * `chainform serve [--host 127.0.0.1] [--port 8787] [--data-dir .chainform] [--seed FILE] [--in-memory] [--tls]
 * [--rate-limit N] [--burst-limit N]` (docs/service.md): runs the local service until SIGTERM or SIGINT, printing one
 * JSON ready line on stdout.
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { startServer, DEFAULT_HOST, DEFAULT_PORT } from "../../service/server";
import { loadSeedFile } from "../../service/seed";
import { UsageError, type Command } from "../command";

/** Default data dir, relative to the working directory. */
export const DEFAULT_DATA_DIR = ".chainform";

const serve: Command = {
  name: "serve",
  summary: "run the local service (offline, persistent in --data-dir)",
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
        "rate-limit": { type: "string" },
        "burst-limit": { type: "string" },
      },
    });
    const rateLimit = optionalCount(values["rate-limit"], "--rate-limit");
    const burstLimit = optionalCount(values["burst-limit"], "--burst-limit");
    const service = await startServer({
      host: values.host,
      tls: values.tls,
      port: integerIn(values.port, "--port", 0, 65_535),
      dataDir: values["in-memory"] ? null : resolve(values["data-dir"]),
      seed: values.seed === undefined ? undefined : loadSeedFile(values.seed),
      accessKey: process.env.CHAINFORM_ACCESS_KEY || undefined,
      rateLimits: { ...(rateLimit && { rateLimit }), ...(burstLimit && { burstLimit }) },
    });
    process.stdout.write(
      `${JSON.stringify({
        event: "ready",
        baseUrl: service.baseUrl,
        accountSlug: service.accountSlug,
        projectSlug: service.projectSlug,
        accessKey: service.accessKey,
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

function integerIn(text: string, flag: string, min: number, max: number): number {
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return value;
}

function optionalCount(text: string | undefined, flag: string): number | undefined {
  return text === undefined ? undefined : integerIn(text, flag, 1, Number.MAX_SAFE_INTEGER);
}
