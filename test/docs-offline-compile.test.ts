/**
 * docs/installing.md's "Compiling contracts offline" works as written (issue 26, item 13): its `solc.cjs` (solc-js
 * behind solc's command line) lets `forge build --offline --use ./solc.cjs` compile with no compiler download (HOME
 * is a fresh directory, so forge has no compiler of its own), and the artifact it writes deploys with
 * chainform_contract's loader.
 */
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { loadArtifact } from "../lib/terraform/provider/artifact";
import { ROOT } from "./helpers/cli";
import { FORGE } from "./helpers/forge";

const run = promisify(execFile);

/** The JavaScript block of the section, as a user copies it. */
function documentedWrapper(): string {
  const doc = readFileSync(join(ROOT, "docs", "installing.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Compiling contracts offline"));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("docs/installing.md has no js block under Compiling contracts offline");
  return block[1].replace(/^ {2}/gm, "");
}

test("forge build --offline --use ./solc.cjs compiles a contract with npm's solc, as docs/installing.md says", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chainform-offline-compile-"));
  try {
    mkdirSync(join(dir, "src"));
    mkdirSync(join(dir, "home"));
    writeFileSync(join(dir, "foundry.toml"), '[profile.default]\nsrc = "src"\nout = "out"\n');
    writeFileSync(
      join(dir, "src", "Counter.sol"),
      "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Counter { uint256 public count; function bump() external { count++; } }\n",
    );
    writeFileSync(join(dir, "solc.cjs"), documentedWrapper());
    chmodSync(join(dir, "solc.cjs"), 0o755);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules")); // `npm install --save-dev solc`, already here
    await run(FORGE, ["build", "--offline", "--use", "./solc.cjs"], {
      cwd: dir,
      env: { ...process.env, HOME: join(dir, "home") },
      timeout: 240_000,
    });
    const artifact = join(dir, "out", "Counter.sol", "Counter.json");
    expect(existsSync(artifact)).toBe(true);
    const loaded = loadArtifact(artifact);
    expect("error" in loaded ? loaded.error : loaded.abi.map((item) => ("name" in item ? item.name : item.type)).sort()).toEqual([
      "bump",
      "count",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);
