"use strict";
/**
 * The action's post step, which GitHub runs when the job ends, whether it succeeded, failed or was cancelled
 * (`post-if: always()`): destroy the app, then delete whatever is left with the run's slug prefix (what a cancelled
 * apply created before Terraform could record it), then stop the local service. An environment that is already
 * gone is not an error; an environment that could not be deleted fails the step, so that someone looks.
 */
const runner = require("./runner");
const { forwardSignals, run, stopService } = require("./chainform");

/** teardown's exit codes: 3 = nothing to delete, 4 = some deletions failed. */
const NOTHING_TO_DELETE = 3;

async function post() {
  if (runner.state("keep") === "true") {
    runner.info(`keep: true: leaving the environments (slug prefix ${runner.state("slug_prefix")}) in place`);
    return 0;
  }
  const bin = runner.state("bin");
  const servicePid = Number(runner.state("service_pid") || 0);
  if (!bin) {
    runner.info("chainform never ran in this job: nothing to clean up");
    if (servicePid) await stopService(servicePid);
    return 0;
  }
  const local = Boolean(runner.state("local_base_url"));
  const env = {
    ...process.env,
    CHAINFORM_SLUG_PREFIX: runner.state("slug_prefix"),
    CHAINFORM_BASE_URL: local ? runner.state("local_base_url") : runner.input("base-url"),
    CHAINFORM_ACCESS_KEY: local ? runner.state("local_access_key") : runner.input("access-key"),
    CHAINFORM_ACCOUNT: local ? runner.state("local_account") : runner.input("account"),
    CHAINFORM_PROJECT: local ? runner.state("local_project") : runner.input("project"),
  };
  if (!env.CHAINFORM_BASE_URL) {
    runner.info("the service never started: nothing to clean up");
    if (servicePid) await stopService(servicePid);
    return 0;
  }
  const cli = { node: runner.state("node") || process.execPath, bin, env };
  let code = 0;
  const app = runner.state("app");
  if (app) {
    const destroyed = await run(cli, ["destroy", app]);
    if (destroyed.code !== 0) runner.warning(`chainform destroy exited ${destroyed.code}: deleting by slug prefix instead`);
  }
  const prefix = runner.state("slug_prefix");
  const teardown = await run(cli, ["teardown", "--prefix", prefix, "--yes"]);
  if (teardown.code === 0) runner.info(`Deleted what was left with slug prefix ${prefix}`);
  else if (teardown.code === NOTHING_TO_DELETE) runner.info(`Nothing left with slug prefix ${prefix}`);
  else if (local) runner.warning(`chainform teardown exited ${teardown.code}; the local service's chains end with it`);
  else {
    runner.error(
      `chainform teardown --prefix ${prefix} exited ${teardown.code}: some environments may be left; delete them with the same command`,
    );
    code = 1;
  }
  if (servicePid) await stopService(servicePid);
  return code;
}

forwardSignals();
post().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    runner.error(`chainform action (post): ${error.message}`);
    process.exitCode = 1;
  },
);
