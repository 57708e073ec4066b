/**
 * What every shape of `npm run bench -- rpc` shares: the service under test in a child process of its own
 * (./rpc-service.mjs), medians, and runs in turns against anvil and the Public RPC URL, alternating which goes first,
 * so that a shared machine's drift slows both sides of each ratio alike.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { median } from "./stats";

/** A service to measure: this checkout's, or an older one's (its dist/ and, for "oldNoHop", its hop turned off). */
export interface Variant {
  readonly name: "new" | "old" | "oldNoHop";
  readonly root?: string;
  readonly env?: Record<string, string>;
}

/** A running service: its URLs, the CPU it and its anvil have used, and a way to stop it. */
export interface Service {
  readonly anvil: string;
  readonly public: string;
  readonly pid: number;
  cpu(): Promise<{ serviceUs: number; anvilUs: number; hop: unknown }>;
  /** Starts a CPU profile of the service (no file), or stops it and writes it to `file`. */
  profile(file?: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a variant's service in its own process; `rpcLimit` undefined keeps the service's default; `env` adds
 * rpc-service.mjs's settings (`BENCH_RPC_FORK_URL`, `BENCH_RPC_DATA_DIR`).
 */
export async function startService(variant: Variant, rpcLimit?: number, env: Record<string, string> = {}): Promise<Service> {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_RPC_NODE_FLAGS?.split(" ").filter(Boolean) ?? []), "bench/support/rpc-service.mjs"],
    {
      stdio: ["pipe", "pipe", "inherit"],
      env: {
        ...process.env,
        ...variant.env,
        ...env,
        ...(variant.root && { BENCH_RPC_ROOT: variant.root }),
        ...(rpcLimit !== undefined && { BENCH_RPC_LIMIT: String(rpcLimit) }),
      },
    },
  );
  const lines = createInterface({ input: child.stdout! });
  let exited: Error | null = null;
  const waiting = new Set<(error: Error) => void>();
  child.once("exit", (code) => {
    exited = new Error(`the ${variant.name} service exited (${code})`);
    for (const reject of waiting) reject(exited);
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      if (exited) return reject(exited);
      waiting.add(reject);
      lines.once("line", (line) => {
        waiting.delete(reject);
        resolve(line);
      });
    });
  const ready = JSON.parse(await nextLine()) as { publicUrl: string; anvilUrl: string; pid: number };
  const exit = new Promise((resolve) => child.once("exit", resolve));
  return {
    anvil: ready.anvilUrl,
    public: ready.publicUrl,
    pid: ready.pid,
    async cpu() {
      const answer = nextLine();
      child.stdin!.write("cpu\n");
      return JSON.parse(await answer);
    },
    async profile(file) {
      const answer = nextLine();
      child.stdin!.write(`profile${file ? ` ${file}` : ""}\n`);
      await answer;
    },
    stop: async () => {
      if (exited) return;
      child.stdin!.end();
      await exit;
    },
  };
}

/** Rounded to two decimals. */
export const round2 = (n: number) => Number(n.toFixed(2));

/** Two URLs measured in turns: "anvil" (the chain directly) and "public" (the Public RPC URL). */
export interface Targets {
  readonly anvil: string;
  readonly public: string;
}

/** Runs `measure` on anvil and on the Public RPC URL in turns (alternating which goes first): each's results in order. */
export async function inTurns<T>(
  targets: Targets,
  turns: number,
  measure: (url: string) => Promise<T>,
): Promise<{ anvil: T[]; public: T[] }> {
  const results = { anvil: [] as T[], public: [] as T[] };
  for (let turn = 0; turn < turns; turn += 1) {
    const order = turn % 2 === 0 ? (["anvil", "public"] as const) : (["public", "anvil"] as const);
    for (const target of order) results[target].push(await measure(targets[target]));
  }
  return results;
}

/** Times in ms of both sides, taken in turns: their medians and the median of the ratios within a turn. */
export function timeRatio(times: { anvil: number[]; public: number[] }): {
  anvilMs: number;
  publicMs: number;
  ratio: number;
  ratios: number[];
} {
  const ratios = times.public.map((ms, i) => round2(ms / times.anvil[i]));
  return { anvilMs: Math.round(median(times.anvil)), publicMs: Math.round(median(times.public)), ratio: round2(median(ratios)), ratios };
}
