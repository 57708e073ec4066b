/** `chainform terraformrc`: prints the path of a Terraform CLI config that finds the chainform provider offline. */
import { parseArgs } from "node:util";
import { terraformCliConfigPath } from "../../terraform/mirror";
import type { Command } from "../command";
import { CliError } from "../errors";

const terraformrc: Command = {
  name: "terraformrc",
  options: {},
  summary: "print the path of a Terraform CLI config that installs the provider offline",
  usage: `usage: chainform terraformrc

Prints the path of a Terraform CLI config file whose provider_installation finds the chainform provider in a
local filesystem mirror (written if needed), so terraform works offline:
  export TF_CLI_CONFIG_FILE=$(npx --no-install chainform terraformrc)
`,
  async run(args) {
    parseArgs({ args, strict: true, options: this.options });
    let path: string;
    try {
      path = terraformCliConfigPath();
    } catch (error) {
      throw new CliError(
        "the chainform Terraform provider is not built: an installed chainform ships it built, so reinstall it; in a clone of chainform, run `npm run build` there",
        {
          cause: error,
          details: String(error),
        },
      );
    }
    process.stdout.write(`${path}\n`);
    return 0;
  },
};
export default terraformrc;
