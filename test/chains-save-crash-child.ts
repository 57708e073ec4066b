/**
 * Child process of chains-exactly-once.test.ts: the real service (HTTP, the store, anvil chains) on a data dir, its
 * chains saved every few writes, that SIGKILLs itself at one exact step of a save (./state-files.ts `SaveStep`): the
 * Nth time the step is reached, counted from the start ("running") or from its SIGTERM ("stop", the saves at shutdown).
 * Prints one JSON line (the base URL, the access key, the default account and project) once it listens.
 *
 * Usage: chains-save-crash-child.ts DATA_DIR SAVE_AFTER_WRITES [STEP running|stop N]
 */
import { createAnvilEngine } from "../lib/service/chains";
import { observeSaveSteps, type SaveStep } from "../lib/service/chains/node/state-files";
import { startServer } from "../lib/service/listen";

async function main(): Promise<void> {
  const [dataDir, saveAfterWrites, step, counted, nth] = process.argv.slice(2);
  let armed = counted === "running";
  let reached = 0;
  if (step) {
    observeSaveSteps((at: SaveStep) => {
      if (armed && at === step && ++reached === Number(nth)) process.kill(process.pid, "SIGKILL");
    });
  }
  const limits = { rateLimit: 1e9, burstLimit: 1e9, unauthenticatedLimit: 1e9, rpcLimit: 1e9 };
  const service = await startServer({
    dataDir,
    port: 0,
    rateLimits: limits,
    createChainEngine: (host) => createAnvilEngine(host, { saveAfterWrites: Number(saveAfterWrites) }),
  });
  process.once("SIGTERM", () => {
    armed = counted === "stop" || armed;
    void service.close().then(() => process.exit(0));
  });
  const { baseUrl, accessKey, accountSlug, projectSlug } = service;
  process.stdout.write(`${JSON.stringify({ baseUrl, accessKey, accountSlug, projectSlug })}\n`);
}

void main();
