/**
 * Every option a command's parser accepts is described by its `--help` (issue 42, item 6: `serve --help` left out
 * four flags that worked, `token --help` all three), and every command has a help text of its own.
 */
import { COMMAND_NAMES, loadCommand, usageOf } from "./index";

describe.each(COMMAND_NAMES)("chainform %s --help", (name) => {
  const command = loadCommand(name)!;

  it("is a usage text of its own, not the summary standing in", () => {
    expect(command.usage).toMatch(new RegExp(`^usage: chainform ${name}\\b`));
  });

  it("names every option the command accepts, on its usage line and in its option list", () => {
    const [usageLine, ...rest] = usageOf(command).split("\n\n");
    const flags = (text: string) => new Set(text.match(/--[a-z][a-z-]*/g) ?? []);
    const onUsageLine = flags(usageLine);
    const described = flags(rest.join("\n\n"));
    const missing = Object.keys(command.options)
      .map((option) => `--${option}`)
      .filter((flag) => !onUsageLine.has(flag) || !described.has(flag));
    expect(missing).toEqual([]);
  });
});
