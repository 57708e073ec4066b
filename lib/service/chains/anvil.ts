/**
 * The anvil backend: one `anvil` process per chain, on a loopback port anvil picks itself (`--port 0`, read back
 * from its "Listening on" line), behind a tiny `sh` supervisor that holds a pipe from the service on its stdin.
 * When that pipe closes (the service stopped the chain, exited or was SIGKILLed) the supervisor sends anvil
 * SIGTERM, anvil dumps its state and exits: no orphan process, ever.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ChainBackend, ChainNode, ChainNodeOptions } from "./backend";
import { ipcSocketPath } from "./chain-sockets";
import { JsonRpcClient } from "./json-rpc";

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

const PLATFORM_PACKAGES: Record<string, string> = {
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
};

/** Options of the anvil backend. */
export interface AnvilBackendOptions {
  /** Path of the anvil binary. @default the `@foundry-rs/anvil` platform package's binary, or `$CHAINFORM_ANVIL` */
  readonly anvilPath?: string;
  /** How long a start may take before it fails. @default 15 s (60 s when forking) */
  readonly startTimeoutMs?: number;
  /** How long a stop may take (state dump) before anvil is killed. @default 10 s */
  readonly stopTimeoutMs?: number;
}

/** Finds the anvil binary shipped by the `@foundry-rs/anvil` npm package for this platform. */
export function resolveAnvilPath(): string {
  if (process.env.CHAINFORM_ANVIL) return process.env.CHAINFORM_ANVIL;
  const pkg = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!pkg) throw new Error(`anvil: no @foundry-rs/anvil binary for ${process.platform}-${process.arch}; set CHAINFORM_ANVIL`);
  const require = createRequire(__filename);
  return join(require.resolve(`${pkg}/package.json`), "..", "bin", "anvil");
}

/** Command-line arguments of one chain. */
export function anvilArguments(options: ChainNodeOptions): string[] {
  const args = ["--host", "127.0.0.1", "--port", "0", "--accounts", "0", "--chain-id", String(options.chainId)];
  args.push("--auto-impersonate", "--no-request-size-limit", "--disable-console-log");
  if (options.statePath) args.push("--state", options.statePath);
  if (options.fork) {
    args.push("--fork-url", options.fork.url);
    if (options.fork.blockNumber !== undefined) args.push("--fork-block-number", options.fork.blockNumber.toString());
  } else if (options.genesisBlockNumber !== undefined && options.genesisBlockNumber > 0n) {
    args.push("--number", options.genesisBlockNumber.toString());
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
      startAnvil(anvilPath, nodeOptions, options.startTimeoutMs ?? (nodeOptions.fork ? 60_000 : 15_000), options.stopTimeoutMs ?? 10_000),
  };
}

async function startAnvil(anvilPath: string, options: ChainNodeOptions, startTimeoutMs: number, stopTimeoutMs: number): Promise<ChainNode> {
  // anvil's JSON-RPC also on a Unix socket: the RPC proxy's pass-through calls take it (chain-sockets.ts).
  const ipcPath = ipcSocketPath();
  const child = spawn("/bin/sh", ["-c", SUPERVISOR, "chainform-anvil", anvilPath, ...anvilArguments(options), "--ipc", ipcPath], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.once("close", () => rmSync(ipcPath, { force: true })); // anvil leaves the socket file behind
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  child.on("error", () => undefined);
  child.stdin.on("error", () => undefined);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  const { port, anvilPid } = await readListeningLine(child, startTimeoutMs, () => stderr).catch(async (error: Error) => {
    child.stdin.end();
    child.kill("SIGKILL");
    throw error;
  });
  const rpc = new JsonRpcClient(`http://127.0.0.1:${port}`, ipcPath);
  // anvil may exit on its own (crash); the supervisor then sees no EOF, so end its stdin to let it go.
  child.stdout.once("end", () => child.stdin.end());

  const stopWith = async (signalAnvil: boolean): Promise<void> => {
    if (signalAnvil) killQuietly(anvilPid, "SIGKILL");
    child.stdin.end();
    const timer = setTimeout(() => {
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
  };
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
        child.stdout.resume(); // anvil logs each request: drain and drop
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
