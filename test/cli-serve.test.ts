/**
 * `chainform serve` as a user starts it: after its JSON ready line (still stdout's first line), at a terminal, a
 * copyable `export CHAINFORM_…` line on stderr that another shell pastes to reach it (never in a log that is not a
 * terminal: it holds the access key); `--idle-stop` stops an unused chain
 * (state kept), the log saying so at info level, and the next call starts it again with its state; a bad
 * `--idle-stop` is a usage error naming the flag. The real CLI, real anvil.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { promisify } from "node:util";
import { createClient } from "../lib/client";
import { assertCliBuilt, cleanEnv, CLI_BIN, ROOT, runCli, startCli, watchServe, type ServeReady } from "./helpers/cli";
import { adminRpc, rpc } from "./helpers/http";

const run = promisify(execFile);

/** Resolves once `output()` matches `pattern`; fails naming it after `ms`. */
async function until(output: () => string, pattern: RegExp, ms = 120_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = output().match(pattern);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${ms} ms in:\n${output().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Stops a serve and waits for its exit. */
async function stop(serve: ChildProcessWithoutNullStreams): Promise<void> {
  if (serve.exitCode !== null) return;
  const exited = new Promise((resolve) => serve.once("exit", resolve));
  serve.kill("SIGTERM");
  await exited;
}

describe("chainform serve", () => {
  let serve: ChildProcessWithoutNullStreams;
  let watch: ReturnType<typeof watchServe>;
  let ready: ServeReady;
  let stdout = "";

  beforeAll(async () => {
    assertCliBuilt();
    serve = startCli(["serve", "--in-memory", "--port", "0", "--idle-stop", "3s"]);
    serve.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    watch = watchServe(serve);
    ready = await watch.ready;
  }, 120_000);
  afterAll(() => stop(serve));

  it("at a terminal, prints an export line after its ready line that another shell pastes to reach it", async () => {
    // A pseudo-terminal (script(1)), as a person's shell gives it: stdout and stderr arrive mixed, in order.
    const command = `"${process.execPath}" "${CLI_BIN}" serve --in-memory --port 0`;
    const terminal = spawn("script", ["-qfec", command, "/dev/null"], { cwd: ROOT, env: cleanEnv(), detached: true });
    let shown = "";
    terminal.stdout.on("data", (chunk: Buffer) => (shown += chunk.toString("utf8")));
    try {
      const [, line] = await until(() => shown, /^( {2}export CHAINFORM_BASE_URL=[^\r\n]*)/m);
      const readyLine = JSON.parse(shown.split(/\r?\n/).find((l) => l.includes('"event":"ready"'))!) as ServeReady;
      expect(shown.indexOf('"event":"ready"')).toBeLessThan(shown.indexOf("export CHAINFORM_BASE_URL"));
      expect(line).toBe(
        `  export CHAINFORM_BASE_URL='${readyLine.baseUrl}' CHAINFORM_ACCESS_KEY='${readyLine.accessKey}' CHAINFORM_ACCOUNT='${readyLine.accountSlug}' CHAINFORM_PROJECT='${readyLine.projectSlug}'`,
      );
      // A shell with none of the settings, as another terminal is: the pasted line is all it needs.
      const pasted = await run("sh", ["-c", `${line}\n"${process.execPath}" "${CLI_BIN}" projects`], { cwd: ROOT, env: cleanEnv() });
      expect(pasted.stdout).toContain(readyLine.projectSlug);
    } finally {
      const exited = new Promise((resolve) => terminal.once("exit", resolve));
      process.kill(-terminal.pid!, "SIGTERM");
      await exited;
    }
  }, 120_000);

  it("prints no export line where stderr is not a terminal (a log must never hold the access key)", async () => {
    expect(stdout.split("\n")[0]).toMatch(/^\{"event":"ready",/);
    expect(watch.output()).not.toContain("export CHAINFORM_");
    const stderr = watch
      .output()
      .split("\n")
      .filter((l) => !l.includes('"event":"ready"'))
      .join("\n");
    expect(stderr).not.toContain(ready.accessKey);
  });

  it("--idle-stop stops an unused chain with its state, logs it, and the next call starts it again", async () => {
    const client = createClient({
      baseUrl: ready.baseUrl,
      accessKey: ready.accessKey,
      accountSlug: ready.accountSlug,
      projectSlug: ready.projectSlug,
    });
    let url: string;
    try {
      url = adminRpc((await client.createEnvironment({ display_name: "idle", network_configs: [{ network_id: "8453" }] })) as never);
    } finally {
      await client.close();
    }
    await rpc(url, "evm_mine", []);
    const block = await rpc<string>(url, "eth_blockNumber", []);
    const starts = () => watch.output().match(/a chain is started/g)?.length ?? 0;
    const before = starts();
    await until(
      watch.output,
      /"level":30[^\n]*an idle chain is stopped, its state kept|an idle chain is stopped, its state kept[^\n]*"level":30/,
    );
    expect(await rpc<string>(url, "eth_blockNumber", [])).toBe(block);
    expect(starts()).toBe(before + 1);
  }, 180_000);
});

test("a bad --idle-stop is a usage error naming the flag; off is accepted", async () => {
  assertCliBuilt();
  const bad = await runCli(["serve", "--in-memory", "--port", "0", "--idle-stop", "soon"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/--idle-stop must be a duration or off: "soon" is not a duration/);
  const off = startCli(["serve", "--in-memory", "--port", "0", "--idle-stop", "off"]);
  try {
    await watchServe(off).ready;
  } finally {
    await stop(off);
  }
}, 120_000);
