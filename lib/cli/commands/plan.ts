/** `chainform plan [APP_DIR]`: synthesize, init and show the plan; changes nothing. */
import { APP_OPTIONS_WITHOUT_SECRETS, APP_OPTIONS_USAGE, parseAppArgs, runAppCommand } from "../app-command";
import type { Command } from "../command";
import { Pipeline } from "../pipeline";

const plan: Command = {
  name: "plan",
  options: APP_OPTIONS_WITHOUT_SECRETS,
  summary: "synthesize a cdktf app and show what deploy would change",
  usage: `usage: chainform plan [APP_DIR] [--stack NAME]

Synthesizes the app, runs terraform init (offline provider mirror) and terraform plan, and prints the plan.
Changes nothing. Uses the service named by CHAINFORM_BASE_URL.

${APP_OPTIONS_USAGE}
`,
  async run(args, context) {
    const { values, appDir } = parseAppArgs(args, { name: "plan", printsRpcUrls: false });
    return runAppCommand(context, appDir, values, async ({ progress, pipelineOptions }) => {
      const pipeline = await Pipeline.prepare(pipelineOptions(process.env));
      await pipeline.plan();
      progress.done("planned");
      return 0;
    });
  },
};
export default plan;
