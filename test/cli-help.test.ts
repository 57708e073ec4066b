/**
 * `chainform <command> --help` says what the command takes: the usage line and the option list name the same
 * flags, the flags shown are the ones accepted, and no help text sends a user into chainform's own repository
 * (issue 26, item 13). The real CLI, as a child process.
 */
import { assertCliBuilt, runCli } from "./helpers/cli";

/** The flags of a usage text: those of its first paragraph (the usage line) and those its option list describes. */
function flagsOf(usage: string): { line: string[]; listed: string[] } {
  const [head, ...rest] = usage.split("\n\n");
  const flags = (text: string) => [...new Set(text.match(/--[a-z][a-z-]*/g) ?? [])].sort();
  const optionLines = rest
    .join("\n")
    .split("\n")
    .filter((line) => /^ {2}(--|[A-Z_]+ )/.test(line));
  return { line: flags(head), listed: flags(optionLines.map((line) => line.trim().split(/\s{2,}/)[0]).join(" ")) };
}

const APP_COMMANDS = ["up", "deploy", "plan", "destroy"] as const;

describe("chainform --help", () => {
  beforeAll(assertCliBuilt);

  for (const command of APP_COMMANDS) {
    it(`${command}: the usage line names every flag the option list describes, and the other way round`, async () => {
      const help = await runCli([command, "--help"]);
      expect(help.code).toBe(0);
      const { line, listed } = flagsOf(help.stdout);
      expect(line).toEqual(listed);
    });
  }

  it("plan and destroy, which print no RPC URLs, refuse --show-secrets with a line saying why", async () => {
    for (const command of ["plan", "destroy"]) {
      const result = await runCli([command, "--show-secrets", "/nonexistent"]);
      expect({ code: result.code, stderr: result.stderr.trim() }).toEqual({
        code: 2,
        stderr: `chainform ${command}: --show-secrets is for deploy and up, which print RPC URLs; ${command} prints none`,
      });
    }
  });

  it("no help text points into chainform's own repository (examples/...)", async () => {
    const texts = [await runCli(["--help"])];
    const names = [...texts[0].stdout.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]);
    for (const name of names) texts.push(await runCli([name, "--help"]));
    expect(names.length).toBeGreaterThan(10);
    for (const text of texts) expect(text.stdout).not.toMatch(/examples\//);
  });
});
