/** `chainform action stop ID [--json]`: stops a Web3 Action of the project. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { clientFromEnv } from "../../client";
import { UsageError, type Command } from "../command";

/** The options of `chainform action`. */
const OPTIONS = { json: { type: "boolean", default: false } } as const satisfies ParseArgsConfig["options"];

const action: Command = {
  name: "action",
  options: OPTIONS,
  summary: "stop a Web3 Action of the project: action stop ID",
  usage: `usage: chainform action stop ID [--json]

Stops the Web3 Action ID of the project (CHAINFORM_ACCOUNT/CHAINFORM_PROJECT). Stopping a stopped action
succeeds too. --json prints the action as the service returns it.
`,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: OPTIONS,
    });
    const [verb, id, ...rest] = positionals;
    if (verb !== "stop") throw new UsageError(`expected \`action stop ID\`, got ${verb === undefined ? "nothing" : `\`action ${verb}\``}`);
    if (!id || rest.length > 0) throw new UsageError("expected exactly one action ID: `chainform action stop ID`");
    const client = clientFromEnv();
    try {
      const stopped = await client.stopAction({ actionId: id });
      process.stdout.write(
        values.json
          ? `${JSON.stringify(stopped, null, 2)}\n`
          : `Action ${stopped.name ?? stopped.id}${stopped.name ? ` (${stopped.id})` : ""} is ${stopped.status}.\n`,
      );
      return 0;
    } finally {
      await client.close();
    }
  },
};
export default action;
