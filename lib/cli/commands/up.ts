/**
 * `chainform up [APP_DIR]`: the main job. Starts the embedded local service unless CHAINFORM_BASE_URL is set, then
 * synthesizes, plans, applies, prints and checks the RPC URLs, and destroys (after Ctrl-C with --keep).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { APP_OPTIONS, APP_OPTIONS_USAGE, appDirOf, runAppCommand, SHOW_SECRETS_USAGE } from "../app-command";
import { UsageError, type Command } from "../command";
import { startEmbeddedService, type EmbeddedService } from "../embedded-service";
import { FORK_OPTIONS, FORK_OPTIONS_USAGE, forkSettings } from "../fork-flags";
import { Pipeline } from "../pipeline";
import { exportLine, SERVICE_OPTIONS, SERVICE_OPTIONS_USAGE, serviceSettings } from "../service-flags";
import { DEFAULT_DATA_DIR } from "./serve";

/** The options of `chainform up`. */
const OPTIONS = {
  ...APP_OPTIONS,
  keep: { type: "boolean", default: false },
  persist: { type: "boolean", default: false },
  "data-dir": { type: "string" },
  port: { type: "string" },
  ...FORK_OPTIONS,
  ...SERVICE_OPTIONS,
} as const satisfies ParseArgsConfig["options"];

const up: Command = {
  name: "up",
  options: OPTIONS,
  summary: "the whole job offline: local service, synth, plan, apply, check the RPC URLs, destroy",
  usage: `usage: chainform up [APP_DIR] [--keep] [--persist | --data-dir DIR] [--port N] [--stack NAME] [--show-secrets]
                    [--fork ID=URL]... [--fork-cache DIR] [--offline] [--offline-empty-accounts] [--max-chains N]
                    [--log-file FILE] [--rpc-timeout SECONDS] [--idle-stop DURATION|off]

Without CHAINFORM_BASE_URL, starts the local service in this process (in memory, default seed, a free port)
and points the app and terraform at it. Then synthesizes the app, runs terraform init (offline provider mirror),
shows the plan, applies it, prints environment -> network -> chain id -> Public RPC URL, checks that every Public
RPC answers eth_chainId with its chain id and every prefunded account holds its balance, and destroys everything.

  --keep            leave everything running until Ctrl-C, then destroy; prints the CHAINFORM_* settings (the
                    access key too) that let other commands (\`chainform environments\`, ...) reach the service
  --persist         keep the embedded service's data in ${DEFAULT_DATA_DIR}/ instead of memory
  --data-dir DIR    keep the embedded service's data in DIR
  --port N          port of the embedded service (default: a free one)
${FORK_OPTIONS_USAGE}
${SERVICE_OPTIONS_USAGE}
${APP_OPTIONS_USAGE}
${SHOW_SECRETS_USAGE}
`,
  async run(args, context) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    });
    const appDir = appDirOf(positionals);
    const external = Boolean(process.env.CHAINFORM_BASE_URL);
    const forking = values.fork !== undefined || values["fork-cache"] !== undefined || values.offline;
    const serviceFlags = Object.keys(SERVICE_OPTIONS).some((flag) => values[flag as keyof typeof SERVICE_OPTIONS] !== undefined);
    if (external && (values.persist || values["data-dir"] !== undefined || values.port !== undefined || forking || serviceFlags)) {
      throw new UsageError(
        "--persist, --data-dir, --port, --fork, --fork-cache, --offline, --max-chains, --log-file, --rpc-timeout and --idle-stop configure the embedded service, which is not started because CHAINFORM_BASE_URL is set",
      );
    }
    const settings = serviceSettings(values);
    const fork = forkSettings(values);
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new UsageError(`--port must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}`);
    const dataDir = values["data-dir"] ?? (values.persist ? DEFAULT_DATA_DIR : null);

    return runAppCommand(context, appDir, values, async ({ progress, interrupts, pipelineOptions }) => {
      let service: EmbeddedService | undefined;
      let pipeline: Pipeline | undefined;
      let applying = false;
      let failure: unknown;
      try {
        let env: NodeJS.ProcessEnv = process.env;
        if (!external) {
          service = await progress.step(`start the local service (${dataDir === null ? "in memory" : `data in ${dataDir}`})`, () =>
            startEmbeddedService({ dataDir, port, ...fork, forkCachePlace: values["fork-cache"], ...settings }),
          );
          const { CHAINFORM_BEARER_TOKEN: _ignored, ...rest } = process.env;
          env = { ...rest, ...service.env };
        }
        pipeline = await Pipeline.prepare(pipelineOptions(env));
        await pipeline.plan();
        interrupts.throwIfRequested();
        applying = true; // from here on, a failure may leave resources behind: destroy them
        const networks = await pipeline.apply();
        pipeline.printNetworks(networks);
        await pipeline.verify(networks);
        if (values.keep) {
          progress.note(
            service
              ? `Everything is up; the local service listens on ${service.baseUrl}. Dashboard (one-time sign-in link, ` +
                  `10 minutes): ${service.dashboardUrl}\nOther commands reach it with these settings (the access key is this service's secret: ` +
                  `keep it out of shared logs):\n${exportLine(service.env)}\nPress Ctrl-C to destroy it all and exit.`
              : `Everything is up. Dashboard: ${env.CHAINFORM_BASE_URL}/dashboard/ (sign in with your access key). ` +
                  "Press Ctrl-C to destroy it all and exit.",
          );
          await interrupts.wait();
        } else {
          interrupts.throwIfRequested();
        }
      } catch (error) {
        failure = error;
      } finally {
        if (applying && pipeline) {
          try {
            // Without --keep, the state is the one this run applied seconds ago: no need to read it back first.
            await pipeline.destroy({ refresh: values.keep });
          } catch (error) {
            failure ??= error;
          }
        }
        await service?.close();
      }
      if (failure !== undefined) throw failure;
      progress.done("up: applied, checked and destroyed");
      return 0;
    });
  },
};
export default up;
