"use strict";
/**
 * Finding chainform, running its CLI, and the local service, for the action's main and post steps. GitHub runs
 * the action from its checkout at the ref, without `npm ci` and without dist/ (build output is not in git), so
 * chainform comes from, in this order:
 * 1. the workspace's own installation (`node_modules/chainform` in the app's directory, the workspace, or a parent of
 *    either: see `installedFrom`), which is also the one a CDK app's constructs come from, when it is the action's
 *    version (an older CLI may lack what the action asks of it);
 * 2. the action's checkout when it is built (chainform's own repository, or a test);
 * 3. npm: `chainform@<the action's version>` installed into the runner's tool cache (once the package is published);
 * 4. the action's checkout, built with `npm ci` (installs the development dependencies and builds: minutes).
 */
const { spawn, spawnSync } = require("node:child_process");
const { existsSync, mkdirSync, openSync, readFileSync, realpathSync, closeSync } = require("node:fs");
const { dirname, join, resolve } = require("node:path");
const { tmpdir } = require("node:os");
const { error, info } = require("./runner");

/** The action's checkout: the repository root, one level above this file. */
const ACTION_ROOT = resolve(__dirname, "..");

/** The chainform executable script inside a package root, when that package is built. */
function builtBin(root) {
  return existsSync(join(root, "dist", "cli", "index.js")) && existsSync(join(root, "bin", "chainform"))
    ? join(root, "bin", "chainform")
    : undefined;
}

/** An npm command on PATH: the one beside the node running us first (the runner's node has none). */
function npmCommand() {
  const beside = join(process.execPath, "..", process.platform === "win32" ? "npm.cmd" : "npm");
  return existsSync(beside) ? beside : "npm";
}

/**
 * The `node_modules/chainform` directory nearest to `from`, looked up as Node looks up a package (`from`, then each
 * parent), but by hand: `require.resolve("chainform/…", { paths })` run from the action's checkout, whose
 * package.json is named chainform and has `exports`, resolves to the checkout itself (Node's self-reference wins
 * over `paths`), so it never finds the workspace's copy.
 * @param {string} from
 * @returns {string | undefined}
 */
function installedFrom(from) {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const root = join(dir, "node_modules", "chainform");
    if (existsSync(join(root, "package.json"))) return root;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The chainform CLI script to run, installing chainform when neither the workspace nor the action has it built.
 * @param {{ searchFrom: string[], toolCache?: string }} options
 * @returns {{ bin: string, source: string }}
 */
function locateChainform(options) {
  const version = JSON.parse(readFileSync(join(ACTION_ROOT, "package.json"), "utf8")).version;
  for (const from of options.searchFrom) {
    const root = installedFrom(from);
    // A workspace that links the action's own checkout (chainform's repository testing itself) runs the checkout.
    if (!root || realpathSync(root) === realpathSync(ACTION_ROOT)) continue;
    let theirs;
    try {
      theirs = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
    } catch {
      info(`${root} has no readable package.json: skipped`);
      continue;
    }
    const bin = builtBin(root);
    if (bin && theirs === version) return { bin, source: `the workspace's own chainform ${theirs} (${root})` };
    info(
      bin
        ? `The workspace has chainform ${theirs} (${root}), the action is ${version}: the action runs its own version`
        : `The workspace's ${root} has no built CLI (dist/cli/index.js): the action runs its own version`,
    );
  }
  const own = builtBin(ACTION_ROOT);
  if (own) return { bin: own, source: `the action's own build (${ACTION_ROOT})` };

  const cache = join(options.toolCache || tmpdir(), "chainform", version);
  const cached = builtBin(join(cache, "node_modules", "chainform"));
  if (cached) return { bin: cached, source: `chainform ${version} from npm, cached in ${cache}` };
  mkdirSync(cache, { recursive: true });
  info(`Installing chainform ${version} from npm into ${cache}`);
  const installed = spawnSync(
    npmCommand(),
    ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", cache, `chainform@${version}`],
    { stdio: "inherit" },
  );
  const fromNpm = installed.status === 0 ? builtBin(join(cache, "node_modules", "chainform")) : undefined;
  if (fromNpm) return { bin: fromNpm, source: `chainform ${version} from npm` };

  info(`chainform ${version} is not on npm here: building the action's checkout (${ACTION_ROOT}) with npm ci`);
  const built = spawnSync(npmCommand(), ["ci", "--no-audit", "--no-fund"], { cwd: ACTION_ROOT, stdio: "inherit" });
  const fromSource = built.status === 0 ? builtBin(ACTION_ROOT) : undefined;
  if (!fromSource)
    throw new Error(`could not install chainform: npm install chainform@${version} and npm ci in ${ACTION_ROOT} both failed (see above)`);
  return { bin: fromSource, source: `the action's checkout, built with npm ci` };
}

/**
 * The node that runs the CLI: this one when `wanted` is empty, else the `node` on PATH, which must be of the wanted
 * version (`22`, `22.13`, ...): the action does not download Node; actions/setup-node does.
 */
function nodeFor(wanted) {
  if (wanted === "") return process.execPath;
  const found = spawnSync("node", ["-p", "process.versions.node"], { encoding: "utf8" });
  const version = found.status === 0 ? found.stdout.trim() : "";
  const wantedParts = wanted.replace(/^v/, "").replace(/\.x$/, "").split(".");
  if (!version || wantedParts.some((part, i) => version.split(".")[i] !== part)) {
    throw new Error(
      `input node-version asks for Node ${wanted}, but the node on PATH is ${version ? `v${version}` : "missing"}: add actions/setup-node with node-version: ${wanted} before this step, or leave node-version empty to use the action's own Node ${process.versions.node}`,
    );
  }
  return "node";
}

let current;
let signalled = false;

/**
 * Passes SIGINT and SIGTERM on to the CLI child running (see `run`), so that it stops its step; between children,
 * ends this process. The runner cancels a step with SIGINT, then SIGTERM, then kills it.
 */
function forwardSignals() {
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      signalled = true;
      if (!current) {
        error("the chainform action was cancelled: the post step removes what it created");
        process.exit(130);
      }
      current.signals++;
      current.child.kill("SIGINT");
      // The CLI stops after its current step on the first signal and asks terraform to stop on the second: the
      // runner gives a cancelled step seconds, not minutes, so ask for both.
      if (current.signals === 1) setTimeout(() => current && current.child.kill("SIGINT"), 1000).unref();
    });
  }
}

/** Whether a signal asked this process to stop (the runner cancels a step with SIGINT, then SIGTERM). */
function interrupted() {
  return signalled;
}

/**
 * Runs the CLI with `args`; resolves with its exit code (and its stdout when `capture`). Its output goes to the
 * job's log otherwise (stdout too, so that the runner sees its ::add-mask:: lines).
 * @param {{ node: string, bin: string, env: NodeJS.ProcessEnv, capture?: boolean }} cli
 * @param {string[]} args
 * @returns {Promise<{ code: number, stdout: string }>}
 */
function run(cli, args, capture = false) {
  return new Promise((done, fail) => {
    const child = spawn(cli.node, [cli.bin, ...args], { env: cli.env, stdio: ["ignore", capture ? "pipe" : "inherit", "inherit"] });
    const chunks = [];
    if (capture) child.stdout.on("data", (chunk) => chunks.push(chunk));
    current = { child, signals: 0 };
    child.on("error", fail);
    child.on("close", (code, signal) => {
      current = undefined;
      done({ code: code === null ? (signal ? 128 : 1) : code, stdout: Buffer.concat(chunks).toString("utf8") });
    });
  });
}

/**
 * Starts the local service (`chainform serve`) detached, so that it outlives this step for the later steps and the
 * post step, which stops it. `onStarted(pid)` is called at once (the post step must be able to stop it whatever
 * happens next). `extraArgs` go to `chainform serve` (`--import FILE`). Resolves with its ready line.
 * @returns {Promise<{ pid: number, baseUrl: string, accessKey: string, accountSlug: string, projectSlug: string }>}
 */
async function startService(cli, dir, onStarted, extraArgs = []) {
  mkdirSync(dir, { recursive: true });
  const readyFile = join(dir, "ready.jsonl");
  const logFile = join(dir, "serve.log");
  const out = openSync(readyFile, "w");
  const err = openSync(logFile, "w");
  const child = spawn(cli.node, [cli.bin, "serve", "--port", "0", "--data-dir", join(dir, "data"), ...extraArgs], {
    env: cli.env,
    detached: true,
    stdio: ["ignore", out, err],
  });
  closeSync(out);
  closeSync(err);
  let exited = false;
  child.on("exit", () => (exited = true));
  child.unref();
  onStarted(child.pid);
  // The ready line comes once the service listens (a few seconds; longer on a busy runner).
  for (let waited = 0; waited < 180_000; waited += 200) {
    const line = readFileSync(readyFile, "utf8").split("\n")[0];
    if (line && readFileSync(readyFile, "utf8").includes("\n")) {
      const ready = JSON.parse(line);
      return {
        pid: child.pid,
        baseUrl: ready.baseUrl,
        accessKey: ready.accessKey,
        accountSlug: ready.accountSlug,
        projectSlug: ready.projectSlug,
      };
    }
    if (exited || interrupted()) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (!exited) process.kill(child.pid, "SIGTERM");
  throw new Error(
    `the local chainform service did not start; it said:\n${readFileSync(logFile, "utf8").split("\n").slice(-20).join("\n")}`,
  );
}

/** Stops the local service and waits (up to a minute) until it is gone, with its chains. */
async function stopService(pid) {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return; // already gone
  }
  for (let waited = 0; waited < 60_000; waited += 200) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  process.kill(pid, "SIGKILL");
}

module.exports = { ACTION_ROOT, locateChainform, nodeFor, forwardSignals, run, interrupted, startService, stopService };
