#!/usr/bin/env node
// The solc-js the project ships, behind the command line forge expects of a native solc (`--version`, and
// `--standard-json` on stdin), so that tests run `forge build/create/verify-contract` offline with the one
// compiler the local service verifies with. Other flags (--allow-paths, --base-path...) need no action here.
const solc = require("solc");
if (process.argv.includes("--version")) {
  process.stdout.write(
    `solc, the solidity compiler commandline interface\nVersion: ${solc.version().replace(/\.Emscripten\.clang$/, ".Linux.g++")}\n`,
  );
  process.exit(0);
}
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => process.stdout.write(solc.compile(input)));
