/**
 * `chainform init` into a project that already has a package.json (issue 42, item 5): it adds its files, merges
 * package.json and .gitignore without overwriting anything, and lists what it wrote and what it left. The real CLI.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertCliBuilt, ROOT, runCli } from "./helpers/cli";

const TSC = join(ROOT, "node_modules", ".bin", "tsc");

describe("chainform init", () => {
  let work: string;
  beforeAll(() => {
    assertCliBuilt();
    work = mkdtempSync(join(tmpdir(), "chainform-cli-init-"));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("in an existing project: adds its files, merges package.json and .gitignore, keeps the project's own", async () => {
    const dir = join(work, "existing");
    mkdirSync(dir);
    const own = {
      name: "payments",
      version: "3.1.0",
      description: "the team's repository",
      scripts: { test: "vitest", up: "docker compose up" },
      dependencies: { viem: "^2.0.0" },
    };
    writeFileSync(join(dir, "package.json"), `${JSON.stringify(own, null, 2)}\n`);
    writeFileSync(join(dir, ".gitignore"), "node_modules\n");
    writeFileSync(join(dir, "main.tf"), "# the team's own\n");
    const result = await runCli(["init", dir, "--template", "hcl"]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });

    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, Record<string, unknown>>;
    expect(manifest).toMatchObject({ name: "payments", version: "3.1.0", description: "the team's repository" });
    expect(manifest.scripts).toMatchObject({ test: "vitest", up: "docker compose up", deploy: "chainform deploy" });
    expect(manifest.dependencies).toMatchObject({ viem: "^2.0.0", chainform: expect.any(String) });
    expect(manifest.allowScripts).toEqual({ "@foundry-rs/anvil": false, esbuild: false });
    expect(readFileSync(join(dir, "main.tf"), "utf8")).toBe("# the team's own\n");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toMatch(/^node_modules\n\n# added by chainform init\n.*\.terraform\//s);
    expect(readFileSync(join(dir, ".github", "workflows", "chainform.yml"), "utf8")).toContain("chainform environment");

    expect(result.stdout).toContain(`Added a hcl app to the project in ${dir}.\nWrote: .github/workflows/chainform.yml.\n`);
    expect(result.stdout).toMatch(/^Merged into package\.json and \.gitignore: .*dependencies\.chainform.*scripts\.deploy/m);
    expect(result.stdout).toMatch(
      /^Left as they were: main\.tf \(exists; --force overwrites it\), package\.json scripts\.up \(yours kept\)\.$/m,
    );
    // The project's own `up` script is not chainform's: the next step names chainform itself.
    expect(result.stdout).toMatch(/ {2}npm install\n {2}npx --no-install chainform up\n$/);

    // A second run finds everything there: it writes nothing and says so.
    const again = await runCli(["init", dir, "--template", "hcl"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Wrote: nothing.\nMerged into package.json and .gitignore: nothing.\n");
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toEqual(manifest);
  });

  it("beside the project's own tsconfig.json, a tsconfig of chainform's holds main.ts, and the typecheck script uses it", async () => {
    const dir = join(work, "own-tsconfig");
    mkdirSync(dir);
    const tsconfig = `${JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }, null, 2)}\n`;
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", scripts: {} }));
    writeFileSync(join(dir, "tsconfig.json"), tsconfig);
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "index.ts"), "export const answer = 42;\n");
    const result = await runCli(["init", dir, "--template", "cdktn"]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).toBe(tsconfig);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(manifest.scripts.typecheck).toBe("tsc -p tsconfig.chainform.json");
    expect(result.stdout).toMatch(/^Wrote: .*tsconfig\.chainform\.json/m);
    // tsc's own view of each config: the project's leaves main.ts out, chainform's type-checks it.
    const filesOf = (config: string) =>
      (JSON.parse(execFileSync(TSC, ["--showConfig", "-p", config], { cwd: dir, encoding: "utf8" })) as { files?: string[] }).files ?? [];
    expect(filesOf("tsconfig.json")).toEqual(["./src/index.ts"]);
    expect(filesOf("tsconfig.chainform.json")).toEqual(["./main.ts"]);
  });

  it("a project that already depends on chainform keeps that dependency, and gets no vendored copy", async () => {
    const dir = join(work, "depends");
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", devDependencies: { chainform: "^0.1.0" } }));
    const result = await runCli(["init", dir, "--template", "hcl"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Its chainform dependency stays the project's own: "^0.1.0".\n`);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    expect(manifest.devDependencies).toEqual({ chainform: "^0.1.0" });
    expect(manifest.dependencies).toBeUndefined();
    expect(existsSync(join(dir, "vendor"))).toBe(false);
  });

  it("a package.json that is not JSON: one line naming the file, nothing written", async () => {
    const dir = join(work, "broken");
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), "{ not json");
    const result = await runCli(["init", dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^chainform init: ${join(dir, "package.json")}: package\\.json is not valid JSON .*fix it, then run init again\\n`),
    );
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe("{ not json");
    expect(() => readFileSync(join(dir, "main.ts"))).toThrow();
  });
});
