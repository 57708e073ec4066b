"use strict";
/**
 * The action's main step: deploy a chainform app (the `app` input) or an environment described inline (`networks`
 * and the inputs beside it) against a service (the local one, started here, unless `base-url` is given; with
 * `fixture`, the local service imports that file as it starts, and an app is optional; with `offline-empty-accounts`,
 * it reads accounts its forks never recorded as empty), then hand the RPC settings to later steps as outputs and
 * environment variables, Admin RPC URLs masked. Everything the post step needs to clean up is saved as state before
 * it is created, so that a failed or cancelled step leaves nothing.
 * Node's own modules only: GitHub runs this file from the action's checkout without installing anything.
 */
const { randomBytes } = require("node:crypto");
const { existsSync, mkdirSync, writeFileSync } = require("node:fs");
const { join, resolve } = require("node:path");
const { tmpdir } = require("node:os");
const runner = require("./runner");
const { checkSlugPrefix, inlineConfig } = require("./inline-app");
const { forwardSignals, locateChainform, nodeFor, run, interrupted, startService } = require("./chainform");

/** The run's slug prefix: the input, else gh-<run id>-<attempt>-<random>- (unique per job, matrix jobs included). */
function slugPrefixOf(given) {
  if (given) return checkSlugPrefix(given);
  const run = (process.env.GITHUB_RUN_ID || "local").toLowerCase().replace(/[^a-z0-9]/g, "");
  return checkSlugPrefix(`gh-${run}-${process.env.GITHUB_RUN_ATTEMPT || "1"}-${randomBytes(3).toString("hex")}-`);
}

/** Reports a step of the CLI that did not succeed (or was cancelled); returns the exit code for the step. */
function failed(what, code) {
  runner.error(
    interrupted()
      ? `the chainform action was cancelled during ${what}: the post step removes what it created`
      : `${what} failed (exit ${code}): see its output above; the post step removes what it created`,
  );
  return code || 1;
}

async function main() {
  const appInput = runner.input("app");
  const networksInput = runner.input("networks");
  const fixtureInput = runner.input("fixture");
  if (appInput !== "" && networksInput !== "") {
    throw new runner.InputError("app", "and networks exclude each other: give app (a chainform app's directory) or networks, not both");
  }
  if (appInput === "" && networksInput === "" && fixtureInput === "") {
    throw new runner.InputError(
      "app",
      "is needed, or networks, or fixture: give app (a chainform app's directory), networks (network ids to fork, e.g. `1, 8453`) or fixture (a file of `chainform export`)",
    );
  }
  const baseUrl = runner.input("base-url");
  const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
  // An oci:// URL is pulled from a registry by `serve --import` (docs/oci-store.md); anything else is a workspace file.
  const fixture = fixtureInput === "" ? null : fixtureInput.startsWith("oci://") ? fixtureInput : resolve(workspace, fixtureInput);
  if (fixture !== null && baseUrl) {
    throw new runner.InputError(
      "fixture",
      "is imported into the local service as it starts; with base-url, run `npx chainform import FILE` in a step instead",
    );
  }
  if (fixture !== null && !fixture.startsWith("oci://") && !existsSync(fixture)) {
    throw new runner.InputError(
      "fixture",
      `names ${fixtureInput}, which is not in the workspace: build it with \`chainform export\` (a cached file: check the cache step's key)`,
    );
  }
  const emptyAccounts = runner.booleanInput("offline-empty-accounts", false);
  const forkCache = runner.input("fork-cache");
  if (emptyAccounts && baseUrl) {
    throw new runner.InputError(
      "offline-empty-accounts",
      "is a setting of the local service; the service at base-url has its own (chainform serve --offline-empty-accounts)",
    );
  }
  if (forkCache !== "" && baseUrl) {
    throw new runner.InputError(
      "fork-cache",
      "is a setting of the local service; the service at base-url has its own (chainform serve --fork-cache)",
    );
  }
  const remote = { accessKey: runner.input("access-key"), account: runner.input("account"), project: runner.input("project") };
  if (baseUrl && (!remote.accessKey || !remote.account || !remote.project)) {
    throw new runner.InputError(
      "base-url",
      "needs access-key, account and project too (from secrets and variables), or leave all four empty for the local service",
    );
  }
  if (!baseUrl && (remote.accessKey || remote.account || remote.project)) {
    throw new runner.InputError(
      "access-key",
      "(or account, project) is given without base-url: give base-url too, or none of them for the local service",
    );
  }
  const keep = runner.booleanInput("keep", false);
  const slugPrefix = slugPrefixOf(runner.input("slug-prefix"));
  const workDir = join(process.env.RUNNER_TEMP || tmpdir(), `chainform-${slugPrefix.replace(/-$/, "")}`);
  mkdirSync(workDir, { recursive: true });
  runner.saveState("keep", String(keep));
  runner.saveState("slug_prefix", slugPrefix);
  runner.setOutput("slug-prefix", slugPrefix);

  let app = null;
  if (appInput) {
    app = resolve(workspace, appInput);
  } else if (networksInput) {
    // Checked before anything is started: a typo costs seconds, not a service start.
    const config = inlineConfig({
      networks: networksInput,
      chainIdPrefix: runner.input("chain-id-prefix"),
      blockNumber: runner.input("block-number"),
      accounts: runner.input("accounts"),
      bridge: runner.input("bridge"),
      slugPrefix,
      displayName:
        `GitHub ${process.env.GITHUB_REPOSITORY || "run"} run ${process.env.GITHUB_RUN_ID || "local"} ${process.env.GITHUB_JOB || ""}`.trim(),
    });
    app = join(workDir, "app");
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, "main.tf.json"), `${JSON.stringify(config, null, 2)}\n`);
  }

  const node = nodeFor(runner.input("node-version"));
  const located = locateChainform({ searchFrom: [...(app ? [app] : []), workspace], toolCache: process.env.RUNNER_TOOL_CACHE });
  runner.info(`chainform: ${located.source}, run by Node ${node === process.execPath ? process.versions.node : "on PATH"}`);
  runner.saveState("node", node);
  runner.saveState("bin", located.bin);
  const env = { ...process.env, CHAINFORM_SLUG_PREFIX: slugPrefix };
  // The job's token reaches GitHub's registry (ghcr.io) for an oci:// fixture; masked like every secret.
  const registryToken = runner.input("registry-token");
  if (registryToken !== "") {
    runner.mask(registryToken);
    env.GITHUB_TOKEN ??= registryToken;
  }
  const cli = { node, bin: located.bin, env };

  let service;
  if (baseUrl) {
    service = { baseUrl, accessKey: remote.accessKey, accountSlug: remote.account, projectSlug: remote.project };
  } else {
    runner.info("No base-url: starting the local chainform service on the runner");
    // A fixture is imported as the service starts (`serve --import`): its environments are there at the ready line.
    service = await startService(cli, join(workDir, "service"), (pid) => runner.saveState("service_pid", String(pid)), [
      ...(fixture === null ? [] : ["--import", fixture]),
      ...(emptyAccounts ? ["--offline-empty-accounts"] : []),
      ...(forkCache === "" ? [] : ["--fork-cache", forkCache.startsWith("oci://") ? forkCache : resolve(workspace, forkCache)]),
    ]);
    // A throw-away key, but a key: masked, and kept for the post step (inputs hold no key for this service).
    runner.mask(service.accessKey);
    runner.saveState("local_access_key", service.accessKey);
    runner.saveState("local_base_url", service.baseUrl);
    runner.saveState("local_account", service.accountSlug);
    runner.saveState("local_project", service.projectSlug);
  }
  Object.assign(env, {
    CHAINFORM_BASE_URL: service.baseUrl,
    CHAINFORM_ACCESS_KEY: service.accessKey,
    CHAINFORM_ACCOUNT: service.accountSlug,
    CHAINFORM_PROJECT: service.projectSlug,
  });
  if (fixture !== null) {
    // The imported environments (no Admin RPC URLs: later steps reach them with CHAINFORM_* and the API).
    const listed = await run(cli, ["environments", "--json"], true);
    if (listed.code !== 0) return failed("chainform environments", listed.code);
    const environments = JSON.parse(listed.stdout);
    runner.setOutput("fixture-environments", JSON.stringify(environments));
    const first = environments[0] && environments[0].active_instance.vnets[0];
    const publicRpc = first && first.rpcs.find((rpc) => rpc.name === "Public RPC");
    if (!app && publicRpc) runner.setOutput("eth_rpc_url", publicRpc.url);
  }
  exportService(service, baseUrl);
  if (app === null) return 0;
  runner.saveState("app", app);
  if (interrupted()) return 130;

  const deployed = await run(cli, ["deploy", app]);
  if (deployed.code !== 0) return failed("chainform deploy", deployed.code);
  // Outputs and environment variables of later steps; Admin RPC URLs only masked (the CLI prints ::add-mask::).
  const written = await run(cli, ["outputs", app, "--format", "github", "--include-sensitive", "--export"]);
  if (written.code !== 0) return failed("chainform outputs", written.code);
  for (const format of ["foundry", "hardhat"]) {
    const result = await run(cli, ["outputs", app, "--format", format], true);
    if (result.code !== 0) return failed(`chainform outputs --format ${format}`, result.code);
    runner.setOutput(format, result.stdout);
  }
  runner.info(
    keep
      ? "keep: true, so the post step leaves the environments in place"
      : `The post step removes the environments (slug prefix ${slugPrefix}) when the job ends, whatever its result`,
  );
  return 0;
}

/** Hands the service to later steps: they may run `npx chainform ...` against it; a given key stays in the inputs. */
function exportService(service, baseUrl) {
  runner.setOutput("base-url", service.baseUrl);
  runner.exportVariable("CHAINFORM_BASE_URL", service.baseUrl);
  runner.exportVariable("CHAINFORM_ACCOUNT", service.accountSlug);
  runner.exportVariable("CHAINFORM_PROJECT", service.projectSlug);
  if (!baseUrl) runner.exportVariable("CHAINFORM_ACCESS_KEY", service.accessKey);
}

forwardSignals();
main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    runner.error(error instanceof runner.InputError ? error.message : `chainform action: ${error.message}`);
    process.exitCode = 1;
  },
);
