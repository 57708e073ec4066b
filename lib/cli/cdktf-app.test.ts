import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadApp, readStacks, selectStacks } from "./cdktf-app";
import { CliError } from "./errors";

describe("cdktf apps", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "chainform-cdktf-app-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reads cdktf.json: the app command, the output dir (CDKTF_OUTDIR wins) and the context", () => {
    writeFileSync(join(dir, "cdktf.json"), JSON.stringify({ app: "npx tsx main.ts", output: "out", context: { a: 1 } }));
    expect(loadApp(dir, {})).toEqual({ kind: "cdktf", dir, command: "npx tsx main.ts", outDir: join(dir, "out"), context: { a: 1 } });
    expect(loadApp(dir, { CDKTF_OUTDIR: "/tmp/elsewhere" })).toMatchObject({ outDir: "/tmp/elsewhere" });
  });

  it("rejects what is not a cdktf app with a line saying what to pass", () => {
    expect(() => loadApp(join(dir, "missing"), {})).toThrow(/does not exist: pass the directory of a cdktf app/);
    expect(() => loadApp(dir, {})).toThrow(/is not an app \(it has no cdktf\.json and no \*\.tf file\)/);
    writeFileSync(join(dir, "cdktf.json"), "{ nope");
    expect(() => loadApp(dir, {})).toThrow(CliError);
    writeFileSync(join(dir, "cdktf.json"), "{}");
    expect(() => loadApp(dir, {})).toThrow(/has no "app" command/);
  });

  it("orders stacks dependencies first and selects by name", () => {
    mkdirSync(join(dir, "out"));
    writeFileSync(
      join(dir, "out", "manifest.json"),
      JSON.stringify({
        stacks: {
          app: { name: "app", workingDirectory: "stacks/app", dependencies: ["network"] },
          network: { name: "network", workingDirectory: "stacks/network", dependencies: [] },
        },
      }),
    );
    const stacks = readStacks(join(dir, "out"));
    expect(stacks.map((s) => s.name)).toEqual(["network", "app"]);
    expect(stacks[0].dir).toBe(join(dir, "out", "stacks", "network"));
    expect(selectStacks(stacks, "app").map((s) => s.name)).toEqual(["app"]);
    expect(() => selectStacks(stacks, "nope")).toThrow(/no stack named "nope": pick one of network, app/);
  });
});
