import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import {
  appCommand,
  appStacks,
  loadApp,
  readStacks,
  resolveAppDir,
  selectStacks,
  stackUsesChainform,
  synthFailure,
  type CdktfApp,
} from "./cdktf-app";
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

  it("takes a directory of *.tf files without cdktf.json as a one-stack Terraform configuration", () => {
    writeFileSync(join(dir, "main.tf"), 'resource "chainform_environment" "x" {}\n');
    const app = loadApp(dir, {});
    expect(app).toEqual({ kind: "hcl", dir });
    const stacks = appStacks(app);
    expect(stacks).toEqual([{ name: basename(dir), dir, dependencies: [] }]);
    expect(stackUsesChainform(stacks[0])).toBe(true);
  });

  it("defaults APP_DIR to the working directory when it is an app, and says what to do when it is not", () => {
    expect(() => resolveAppDir(undefined, dir)).toThrow(
      /holds no app \(no cdktf\.json, no \*\.tf file\).*npx --ignore-scripts chainform init/,
    );
    writeFileSync(join(dir, "cdktf.json"), "{}");
    expect(resolveAppDir(undefined, dir)).toBe(dir);
    expect(resolveAppDir("sub", dir)).toBe(join(dir, "sub"));
  });

  it("takes chainform's example app only in chainform's own repository, never from a user's project", () => {
    // GIVEN a user's app that happens to hold a directory named like chainform's example
    writeFileSync(join(dir, "main.tf"), "");
    mkdirSync(join(dir, "examples", "cdktf", "multichain-ci"), { recursive: true });
    // THEN the default is the user's app; only chainform's own root defaults to its example
    expect(resolveAppDir(undefined, dir, join(dir, "elsewhere"))).toBe(dir);
    expect(resolveAppDir(undefined, dir, dir)).toBe(join(dir, "examples", "cdktf", "multichain-ci"));
  });

  it("runs a leading `npx tsx` with an installed tsx, never through npx", () => {
    const app: CdktfApp = { kind: "cdktf", dir, command: "npx tsx main.ts --flag", outDir: join(dir, "cdktf.out"), context: {} };
    const command = appCommand(app);
    expect(command).not.toMatch(/npx/);
    expect(command).toMatch(/tsx[\\/]dist[\\/]cli\.mjs'? main\.ts --flag$/);
    expect(appCommand({ ...app, command: "npx -y tsx@4 main.ts" })).toMatch(/cli\.mjs'? main\.ts$/);
    expect(appCommand({ ...app, command: "node main.js" })).toBe("node main.js");
  });
});

describe("synthFailure", () => {
  it("keeps the construct's message and drops Node's stack trace and the problems dump", () => {
    const output = [
      "/app/node_modules/chainform/dist/constructs/validation.js:40",
      "    throw new ChainformValidationError(path, problems);",
      "    ^",
      "",
      'ChainformValidationError: pr-1/environment: networks[0].accounts[0].address "0x12" must be a 20-byte hex address',
      "    at throwIfProblems (/app/node_modules/chainform/dist/constructs/validation.js:40:11)",
      "    at new Environment (/app/node_modules/chainform/dist/constructs/environment.js:80:9) {",
      "  problems: [",
      "    'networks[0].accounts[0].address \"0x12\" must be a 20-byte hex address'",
      "  ]",
      "}",
      "",
      "Node.js v20.20.2",
    ].join("\n");
    expect(synthFailure(output)).toBe(
      'ChainformValidationError: pr-1/environment: networks[0].accounts[0].address "0x12" must be a 20-byte hex address',
    );
  });

  it("falls back to the output's last lines when no error line is found", () => {
    expect(synthFailure("line 1\nsegfault\n")).toBe("fix the app; it said:\nline 1\nsegfault");
  });
});
