/**
 * `chainform serve` as a child process, for the tests of the service's process, storage and chains
 * (test/service-*.test.ts). Needs `npm run build` first (`npm test` builds).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { CLI_BIN, cleanEnv } from "./helpers/cli";

/** The ready line of `chainform serve`. */
export interface Ready {
  readonly event: "ready";
  readonly baseUrl: string;
  readonly accountSlug: string;
  readonly projectSlug: string;
  readonly accessKey: string;
  readonly dashboardUrl: string;
}

/** A started `chainform serve`. */
export interface Served {
  readonly child: ChildProcess;
  /** Resolves with the ready line, or rejects when the process exits first (with its exit code and stderr). */
  readonly ready: Promise<Ready>;
  /** Resolves when the process exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
}

const running = new Set<ChildProcess>();

/** Starts `chainform serve --port 0` with these extra arguments. */
export function startServe(args: readonly string[], env: Record<string, string | undefined> = {}): Served {
  const child = spawn(process.execPath, [CLI_BIN, "serve", "--port", "0", ...args], {
    env: cleanEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<Ready>((resolve, reject) => {
    lines.once("line", (line) => resolve(JSON.parse(line) as Ready));
    void exited.then(({ code }) => reject(Object.assign(new Error(`serve exited with ${code} before ready: ${stderr}`), { code, stderr })));
  });
  ready.catch(() => undefined);
  return { child, ready, exited, stderr: () => stderr };
}

/** Stops a served process with SIGTERM and waits for it. */
export async function stopServe(served: Served): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (served.child.exitCode === null && served.child.signalCode === null) served.child.kill("SIGTERM");
  return served.exited;
}

/** SIGKILLs every served process still running (after a failed test). */
export function killAllServed(): void {
  for (const child of running) child.kill("SIGKILL");
}

/** Calls the API of a served process with its first user's key. */
export async function api(ready: Ready, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${ready.baseUrl}${path}`, {
    method,
    headers: { "x-access-key": ready.accessKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The environments path of the served default project. */
export function environmentsPath(ready: Ready): string {
  return `/public/v1/account/${ready.accountSlug}/project/${ready.projectSlug}/environments`;
}

/** One JSON-RPC call on an RPC URL; answers the JSON-RPC answer. */
export async function rpc(
  url: string,
  method: string,
  params: unknown[] = [],
): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}
