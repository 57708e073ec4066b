/**
 * The build's TypeScript step removes what earlier builds left in dist/ and no source makes any more (tsc never
 * deletes an output), and nothing else: a package packed from a working copy must not carry stale modules or
 * binaries, and the outputs of the other steps must survive.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { ROOT } from "./helpers/cli";

let root: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), "chainform-prune-"))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

function files(paths: readonly string[]): void {
  for (const path of paths) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), "x");
  }
}

function tree(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tree(path) : [relative(root, path)];
  });
}

function prune(): string[] {
  const script = `import(${JSON.stringify(join(ROOT, "scripts", "build", "50-typescript.mjs"))}).then((m) => process.stdout.write(JSON.stringify(m.pruneStaleOutputs(${JSON.stringify(root)}))))`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as string[];
}

test("removes compiled files whose source is gone, directories no source or step makes, and nothing else", () => {
  // GIVEN lib/ today, and a dist/ from builds of earlier sources and of a step that is gone
  files(["lib/service/a.ts", "lib/service/seed.json", "lib/terraform/mirror.ts", "lib/top.ts"]);
  const kept = [
    "dist/service/a.js",
    "dist/service/a.js.map",
    "dist/service/a.d.ts",
    "dist/service/seed.json",
    "dist/terraform/mirror.js",
    "dist/terraform/terraformrc",
    "dist/terraform/mirror/registry/0.1.0/linux_amd64/terraform-provider-chainform_v0.1.0",
    "dist/top.js",
    "dist/contracts/Bridge.json",
    "dist/provider/terraform-provider-chainform.js",
    "dist/cdktn/index.js",
    "dist/.provider-abc/partial.js",
  ];
  const stale = [
    "dist/service/gone.js",
    "dist/service/gone.js.map",
    "dist/service/gone.d.ts",
    "dist/service/gone.d.ts.map",
    "dist/service/routes/rpc/old.js",
    "dist/service/routes/rpc/old.d.ts",
    "dist/native/native-hop-linux-x64.node",
    "dist/old-top.js",
  ];
  files([...kept, ...stale]);
  // WHEN the step prunes
  const removed = prune();
  // THEN exactly the stale outputs are gone, and it said which
  expect(tree(join(root, "dist")).sort()).toEqual([...kept].sort());
  expect(removed.sort()).toEqual(
    [
      "native/",
      "old-top.js",
      "service/gone.d.ts",
      "service/gone.d.ts.map",
      "service/gone.js",
      "service/gone.js.map",
      "service/routes/",
    ].sort(),
  );
  // AND a second run finds nothing more
  expect(prune()).toEqual([]);
});

test("does nothing before the first build", () => {
  files(["lib/a.ts"]);
  expect(prune()).toEqual([]);
});
