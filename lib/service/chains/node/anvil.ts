/**
 * The anvil backend: one `anvil` process per chain, on a loopback port anvil picks itself (`--port 0`, read back
 * from its "Listening on" line), behind a tiny `sh` supervisor that holds a pipe from the service on its stdin.
 * When that pipe closes (the service stopped the chain, exited or was SIGKILLed) the supervisor sends anvil
 * SIGTERM, anvil dumps its state and exits: no orphan process, ever.
 *
 * anvil loads the saved state (`--load-state`) but dumps to a temporary file (`--dump-state`), which replaces the
 * saved state only when it is complete (./state-files.ts): on a full disk anvil writes an empty file and still
 * exits 0, and the previous state must survive that.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { gunzipSync } from "node:zlib";
import { resolveAnvilPath } from "./anvil-binary";
import type { ChainBackend, ChainLog, ChainNode, ChainNodeOptions } from "./backend";
import { ipcSocketPath } from "../wire/ipc-path";
import { JsonRpcClient } from "../wire/json-rpc";
import { commitDump, temporaryStatePath, unloadableState } from "./state-files";

/**
 * Runs "$@" in the background and waits for EOF on stdin, then stops it. SIGINT is ignored (a terminal's ^C
 * reaches the service, whose exit closes the pipe); the supervisor closes its stdout so that the service sees
 * the pipe end when anvil itself exits.
 */
const SUPERVISOR = `trap '' INT
"$@" </dev/null &
p=$!
echo "supervised-pid $p"
exec >/dev/null 2>&1
trap 'kill -TERM "$p" 2>/dev/null' TERM HUP
while read -r _; do :; done
kill -TERM "$p" 2>/dev/null
wait "$p"`;

/** Options of the anvil backend. */
export interface AnvilBackendOptions {
  /** Path of the anvil binary. @default `resolveAnvilPath()` (./anvil-binary.ts) */
  readonly anvilPath?: string;
  /** How long a start may take before it fails. @default 15 s (60 s when forking) */
  readonly startTimeoutMs?: number;
  /** How long a stop may take (state dump) before anvil is killed. @default 10 s */
  readonly stopTimeoutMs?: number;
  /** Where the backend reports what the operator must hear (a state dump that failed); default: nowhere. */
  readonly log?: ChainLog;
}

/**
 * Command-line arguments of one chain: its state is loaded from `options.statePath` when that exists and dumped to
 * `dumpPath` on exit.
 */
export function anvilArguments(options: ChainNodeOptions, dumpPath?: string, loadState = false): string[] {
  const args = ["--host", "127.0.0.1", "--port", "0", "--accounts", "0", "--chain-id", String(options.chainId)];
  args.push("--auto-impersonate", "--no-request-size-limit", "--disable-console-log");
  if (options.statePath && loadState) args.push("--load-state", options.statePath);
  if (dumpPath) args.push("--dump-state", dumpPath);
  if (options.fork) {
    // The fork URL is chainform's recording proxy (lib/service/chains/fork): it is the only cache, and local.
    args.push("--fork-url", options.fork.url, "--no-storage-caching", "--no-rate-limit");
    if (options.fork.blockNumber !== undefined) args.push("--fork-block-number", options.fork.blockNumber.toString());
  } else {
    if (options.genesisBlockNumber !== undefined && options.genesisBlockNumber > 0n)
      args.push("--number", options.genesisBlockNumber.toString());
    if (options.genesisTimestamp !== undefined) args.push("--timestamp", String(options.genesisTimestamp));
  }
  return args;
}

/** Creates the anvil backend. */
export function createAnvilBackend(options: AnvilBackendOptions = {}): ChainBackend {
  const anvilPath = options.anvilPath ?? resolveAnvilPath();
  return {
    name: "anvil",
    cheats: { setBalance: "anvil_setBalance", setCode: "anvil_setCode" },
    start: (nodeOptions) =>
      startAnvil(anvilPath, nodeOptions, {
        startTimeoutMs: options.startTimeoutMs ?? (nodeOptions.fork ? 60_000 : 15_000),
        stopTimeoutMs: options.stopTimeoutMs ?? 10_000,
        log: options.log,
      }),
  };
}

interface StartSettings {
  readonly startTimeoutMs: number;
  readonly stopTimeoutMs: number;
  readonly log: ChainLog | undefined;
}

async function startAnvil(anvilPath: string, options: ChainNodeOptions, settings: StartSettings): Promise<ChainNode> {
  const { startTimeoutMs, stopTimeoutMs, log } = settings;
  const { statePath } = options;
  // What anvil says can name server paths and the upstream URL (its API key): callers get neither.
  const scrub = (text: string) => {
    let out = text;
    if (options.fork) out = out.split(options.fork.url).join("(the upstream RPC URL)");
    if (statePath) out = out.split(statePath).join(`(the state file ${basename(statePath)})`);
    return out.replace(/"?\/[^\s"':]*\/chains\/[^\s"':]*"?/g, "(a state file)");
  };
  const unloadable = statePath ? unloadableState(statePath) : undefined;
  if (unloadable) {
    log?.error({ statePath, reason: unloadable }, "a chain's saved state cannot be loaded: restore the file or delete its environment");
    throw new Error(`its saved state is damaged (${unloadable}); the service log names the file`);
  }
  const dumpPath = statePath ? temporaryStatePath(statePath) : undefined;
  const args = anvilArguments(options, dumpPath, statePath !== null && existsSync(statePath));
  // anvil's JSON-RPC also on a Unix socket: the RPC proxy's pass-through calls take it (../wire/chain-sockets.ts).
  const ipcPath = ipcSocketPath();
  const child = spawn("/bin/sh", ["-c", SUPERVISOR, "chainform-anvil", anvilPath, ...args, "--ipc", ipcPath], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let discardDump = false;
  // Only a dump at a stop the service asked for (the chain held alone) is kept: anvil ending on its own (a crash, a
  // SIGTERM from elsewhere) may dump a write whose journal row comes after the generation read here, which a start
  // would then apply twice; the saved state and the journal have everything it acknowledged.
  let stopAsked = false;
  const exited = new Promise<void>((resolve) =>
    child.once("close", (code: number | null) => {
      rmSync(ipcPath, { force: true }); // anvil leaves the socket file behind
      if (statePath && dumpPath) {
        if (discardDump || !stopAsked) rmSync(dumpPath, { force: true });
        else {
          const dumped = existsSync(dumpPath);
          const generation = generationOrReason(options);
          const failure = typeof generation === "string" ? generation : commitDump(dumpPath, statePath, generation);
          if (failure) {
            rmSync(dumpPath, { force: true });
            // anvil killed or crashed as it was being stopped writes no dump: nothing is lost (its saved state and the
            // journal have every acknowledged write) and its next start recovers; a dump that failed is the operator's.
            if (code !== 0 && !dumped)
              log?.warn(
                { statePath, code },
                "a chain ended before it could save its state; it starts again from its saved state and journal",
              );
            else log?.error({ statePath, reason: failure }, "a chain's state could not be saved; its previous state is kept");
          } else options.onStateSaved?.(generation as number);
        }
      }
      resolve();
    }),
  );
  child.on("error", () => undefined);
  child.stdin.on("error", () => undefined);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  const { port, anvilPid } = await readListeningLine(child, startTimeoutMs, () => scrub(stderr)).catch(async (error: Error) => {
    discardDump = true;
    child.stdin.end();
    child.kill("SIGKILL");
    if (statePath) log?.error({ statePath, detail: stderr.trim().split("\n").slice(-3).join(" ") }, "a chain did not start");
    throw error;
  });
  const rpc = new JsonRpcClient(`http://127.0.0.1:${port}`, ipcPath, options.rpcTimeoutMs);
  // anvil prints each call's method on its stdout, which only the service reads, to drop it: a write for anvil and a
  // wake-up for the service per call, a third of a core at 50,000 calls a second. Its node log goes off; what it
  // still says is drained as before. A chain that cannot take the call still starts, only slower to call.
  await rpc.request("anvil_setLoggingEnabled", [false]).catch(() => undefined);
  // anvil may exit on its own (crash); the supervisor then sees no EOF, so end its stdin to let it go.
  child.stdout.once("end", () => child.stdin.end());

  const stopWith = async (signalAnvil: boolean): Promise<void> => {
    stopAsked = true;
    if (signalAnvil) {
      discardDump = true;
      killQuietly(anvilPid, "SIGKILL");
    }
    child.stdin.end();
    // A stopped anvil (SIGSTOP, a debugger) would hold the supervisor's SIGTERM until the kill below: let it go on, to
    // save its state and exit now.
    if (!signalAnvil) killQuietly(anvilPid, "SIGCONT");
    const timer = setTimeout(() => {
      if (statePath && !discardDump)
        log?.error({ statePath, stopTimeoutMs }, "a chain did not stop in time and was killed: its state since it started is lost");
      killQuietly(anvilPid, "SIGKILL");
      child.kill("SIGKILL");
    }, stopTimeoutMs);
    await exited;
    clearTimeout(timer);
    await rpc.close();
  };
  return {
    rpc,
    pids: [child.pid!, anvilPid],
    exited,
    stop: () => stopWith(false),
    kill: () => stopWith(true),
    currentState: () => currentState(rpc),
    ...(statePath ? { saveState: (generation: number) => saveRunningState(rpc, statePath, generation) } : {}),
  };
}

/**
 * Saves a running anvil's state without stopping it: `anvil_dumpState` answers the state as it would dump it at exit,
 * gzipped, which is unzipped to the JSON `--load-state` reads and moved into place as a dump at stop is.
 */
async function saveRunningState(rpc: JsonRpcClient, statePath: string, generation: number): Promise<string | undefined> {
  let state: Buffer;
  try {
    state = await currentState(rpc);
  } catch (error) {
    return `the chain did not hand its state over: ${(error as Error).message}`;
  }
  const temporaryPath = temporaryStatePath(statePath);
  try {
    writeFileSync(temporaryPath, state);
  } catch (error) {
    rmSync(temporaryPath, { force: true });
    return `the state could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  return commitDump(temporaryPath, statePath, generation);
}

/** A running anvil's state as `--load-state` reads it (JSON): `anvil_dumpState`'s answer, unzipped. */
async function currentState(rpc: JsonRpcClient): Promise<Buffer> {
  const dumped = await rpc.request<string>("anvil_dumpState");
  return gunzipSync(Buffer.from(dumped.slice(2), "hex"));
}

/** The generation a dump at stop holds, or why it is not known (then the dump is not kept: it would be unstamped). */
function generationOrReason(options: ChainNodeOptions): number | string {
  try {
    return options.stateGeneration?.() ?? 0;
  } catch (error) {
    return `its journal generation could not be read: ${(error as Error).message}`;
  }
}

function readListeningLine(
  child: ChildProcessWithoutNullStreams,
  timeoutMs: number,
  stderr: () => string,
): Promise<{ port: number; anvilPid: number }> {
  return new Promise((resolve, reject) => {
    let output = "";
    let anvilPid = 0;
    const fail = (reason: string) => {
      cleanup();
      const detail = stderr().trim().split("\n").slice(-3).join(" ");
      reject(new Error(`anvil ${reason}${detail ? `: ${detail}` : ""}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      anvilPid ||= Number(/supervised-pid (\d+)/.exec(output)?.[1] ?? 0);
      const port = Number(/Listening on [\d.]+:(\d+)/.exec(output)?.[1] ?? 0);
      if (port && anvilPid) {
        cleanup();
        child.stdout.resume(); // drained and dropped: anvil's log of calls, until it is turned off
        resolve({ port, anvilPid });
      } else if (output.length > 64_000) {
        output = output.slice(-1000);
      }
    };
    const onEnd = () => fail("exited before listening");
    const timer = setTimeout(() => fail(`did not listen within ${timeoutMs} ms`), timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout.off("data", onData);
      child.stdout.off("end", onEnd);
    };
    child.stdout.on("data", onData);
    child.stdout.once("end", onEnd);
  });
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}
