/** `chainform destroy [APP_DIR]`: synthesize, init and destroy every stack of the app. */
import { APP_OPTIONS_WITHOUT_SECRETS, APP_OPTIONS_USAGE, parseAppArgs, runAppCommand } from "../app-command";
import type { Command } from "../command";
import { Pipeline } from "../pipeline";

const destroy: Command = {
  name: "destroy",
  options: APP_OPTIONS_WITHOUT_SECRETS,
  summary: "destroy what deploy created for a cdktf app",
  usage: `usage: chainform destroy [APP_DIR] [--stack NAME]

Synthesizes the app, runs terraform init and terraform destroy for every stack (dependents first).
Uses the service named by CHAINFORM_BASE_URL. To remove environments without their Terraform state (e.g. after a
CI job lost it), use \`chainform teardown --prefix P\`.

${APP_OPTIONS_USAGE}
`,
  async run(args, context) {
    const { values, appDir } = parseAppArgs(args, { name: "destroy", printsRpcUrls: false });
    return runAppCommand(context, appDir, values, async ({ progress, pipelineOptions }) => {
      const pipeline = await Pipeline.prepare(pipelineOptions(process.env));
      await pipeline.destroy();
      progress.done("destroyed");
      return 0;
    });
  },
};
export default destroy;
