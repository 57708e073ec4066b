/**
 * `chainform up examples/cdktf/fork-mainnet --fork 1=URL` end to end: the real CLI with its embedded service forks
 * an upstream that stands in for mainnet (test/helpers/fork-upstream.ts) at the example's pinned block, writes a
 * holder's balance into the upstream's real token, reads the token, checks the RPC URLs and destroys it all; the
 * upstream's URL (an API key) shows nowhere in the output. Then `up --offline` replays the run from the recordings
 * alone, with the upstream gone. Needs `npm run build`.
 */
import { once } from "node:events";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Environment } from "../lib/api";
import { assertCliBuilt, assertProviderBuilt, ROOT, runCli, startCli, watchServe } from "./helpers/cli";
import { UPSTREAM_SECRET, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";

const APP = join(ROOT, "examples", "cdktf", "fork-mainnet");

describe("chainform up with the fork-mainnet app", () => {
  beforeAll(assertProviderBuilt);
  const root = mkdtempSync(join(tmpdir(), "chainform-fork-up-"));
  const name = `t${process.pid}`;
  let upstream: ForkUpstream;
  beforeAll(async () => {
    assertCliBuilt();
    upstream = await startForkUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
    rmSync(root, { recursive: true, force: true });
    for (const file of readdirSync(APP))
      if (file.startsWith(`terraform.fork-mainnet-${name}.tfstate`)) rmSync(join(APP, file), { force: true });
  });

  it("chainform serve takes CHAINFORM_FORK_URLS and --fork-cache: its environments fork the upstream", async () => {
    const cache = join(root, "serve-cache");
    const serve = startCli(["serve", "--in-memory", "--port", "0", "--fork-cache", cache], {
      env: { CHAINFORM_FORK_URLS: `1=${upstream.url}` },
    });
    const watched = watchServe(serve);
    try {
      const ready = await watched.ready;
      const response = await fetch(`${ready.baseUrl}/public/v1/account/${ready.accountSlug}/project/${ready.projectSlug}/environments`, {
        method: "POST",
        headers: { "x-access-key": ready.accessKey, "content-type": "application/json" },
        body: JSON.stringify({ display_name: "served", network_configs: [{ network_id: "1" }] }),
      });
      const environment = (await response.json()) as Environment;
      expect(environment.networks[0].block_number).toBe(`0x${upstream.history.head.toString(16)}`);
      const url = environment.active_instance.vnets[0].rpcs.find((r) => r.name === "Public RPC")!.url;
      const code = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getCode", params: [upstream.history.token, "latest"] }),
      });
      expect(((await code.json()) as { result: string }).result.length).toBeGreaterThan(100);
    } finally {
      serve.kill("SIGTERM");
      if (serve.exitCode === null) await once(serve, "exit");
    }
    expect(readdirSync(join(cache, "1")).sort()).toEqual([`${upstream.history.head}.json`, "pins.json"]);
    expect(watched.output()).not.toContain(UPSTREAM_SECRET);
  }, 120_000);

  it("forks the upstream at the pinned block, funds a holder with its token, checks and destroys; then replays offline", async () => {
    const env = { FORK_NAME: name, FORK_BLOCK: `0x${upstream.history.aliceTopped.toString(16)}`, TOKEN_ADDRESS: upstream.history.token };
    const cache = join(root, "fork-cache");
    const live = await runCli(["up", APP, "--fork", `1=${upstream.url}`, "--fork-cache", cache], {
      env: { ...env, CDKTF_OUTDIR: join(root, "live") },
      timeoutMs: 300_000,
    });
    if (live.code !== 0) throw new Error(`up exited ${live.code}:\n${live.stderr}\n${live.stdout}`);
    expect(live.stdout).toMatch(/chainform_erc20_balance\.\S+ will be created/);
    expect(live.stdout).toMatch(
      new RegExp(`^fork-mainnet-${name} +Mainnet \\(1\\) +73571 +http://127\\.0\\.0\\.1:\\d+/rpc/public/\\S+$`, "m"),
    );
    expect(live.stderr).toMatch(/✓ up: applied, checked and destroyed in/);
    // The fork read the upstream's token storage: it is the upstream's state, not a fresh chain.
    expect(upstream.methods).toContain("eth_getStorageAt");
    expect(readdirSync(join(cache, "1")).sort()).toEqual([`${upstream.history.aliceTopped}.json`, "pins.json"]);
    expect(live.stdout + live.stderr).not.toContain(UPSTREAM_SECRET);

    await upstream.close();
    const replayed = await runCli(["up", APP, "--offline", "--fork-cache", cache], {
      env: { ...env, CDKTF_OUTDIR: join(root, "offline") },
      timeoutMs: 300_000,
    });
    if (replayed.code !== 0) throw new Error(`up --offline exited ${replayed.code}:\n${replayed.stderr}\n${replayed.stdout}`);
    expect(replayed.stderr).toMatch(/✓ up: applied, checked and destroyed in/);
  }, 620_000);

  it("a malformed --fork is a usage error that does not echo the URL", async () => {
    const result = await runCli(["up", APP, "--fork", `mainnet=https://rpc.example/${UPSTREAM_SECRET}`], { timeoutMs: 60_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--fork entry 1 must be NETWORK_ID=URL/);
    expect(result.stderr).not.toContain(UPSTREAM_SECRET);
  });
});
