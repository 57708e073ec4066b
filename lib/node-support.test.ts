import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { SUPPORTED_NODE_RANGE, unsupportedNodeMessage } from "./node-support";

test("package.json engines is the supported range", () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as { engines: { node: string } };
  expect(pkg.engines.node).toBe(SUPPORTED_NODE_RANGE);
});

test.each(["20.18.1", "20.20.2", "22.13.0", "22.23.3", "24.0.0", "24.21.0", "26.1.0"])("Node.js %s is supported", (version) => {
  expect(unsupportedNodeMessage(version)).toBeUndefined();
});

test.each(["18.20.4", "20.18.0", "21.7.3", "22.12.0", "23.11.0"])("Node.js %s gets one line naming what to use", (version) => {
  expect(unsupportedNodeMessage(version)).toBe(
    `chainform does not run on Node.js ${version}: use Node.js 20 (20.18.1 or later), 22 (22.13 or later) or 24 and later.`,
  );
});

test("an unsupported version exits 1 with that one line on stderr and nothing else", () => {
  const script = `require(${JSON.stringify(join(__dirname, "node-support.ts"))}).exitIfUnsupportedNode("23.11.0"); console.log("went on")`;
  const result = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { encoding: "utf8" });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toBe(`${unsupportedNodeMessage("23.11.0")}\n`);
});

test("this Node.js runs the CLI: the check passes before anything loads", () => {
  const result = spawnSync(process.execPath, [join(__dirname, "..", "bin", "chainform"), "--version"], { encoding: "utf8" });
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(/^chainform \d+\.\d+\.\d+/);
});
