/** `chainform deploy [APP_DIR]`: synthesize, init, plan, apply, print the RPC URLs and check them. */
import { APP_OPTIONS, APP_OPTIONS_USAGE, parseAppArgs, runAppCommand, SHOW_SECRETS_USAGE } from "../app-command";
import type { Command } from "../command";
import { Pipeline } from "../pipeline";

const deploy: Command = {
  name: "deploy",
  options: APP_OPTIONS,
  summary: "synthesize a cdktf app, then plan and apply it against the configured service",
  usage: `usage: chainform deploy [APP_DIR] [--stack NAME] [--show-secrets]

Synthesizes the app, runs terraform init (offline provider mirror), plan (shown) and apply, prints each
environment's networks with their chain ids and Public RPC URLs, and checks that every Public RPC answers with its
chain id and every prefunded account holds its balance. Uses the service named by CHAINFORM_BASE_URL.

${APP_OPTIONS_USAGE}
${SHOW_SECRETS_USAGE}
`,
  async run(args, context) {
    const { values, appDir } = parseAppArgs(args, { name: "deploy", printsRpcUrls: true });
    return runAppCommand(context, appDir, values, async ({ progress, pipelineOptions }) => {
      const pipeline = await Pipeline.prepare(pipelineOptions(process.env));
      await pipeline.plan();
      const networks = await pipeline.apply();
      pipeline.printNetworks(networks);
      await pipeline.verify(networks);
      progress.done("deployed");
      return 0;
    });
  },
};
export default deploy;
