/**
 * A chain that dies under a call (a crash, `kill -9`, the OOM killer) is invisible to the caller: the call waits for
 * the chain to start again (from its saved state and journal, ./vnet-launch.ts) and is then answered. The work of a
 * call runs under the chain's lock (./chain-pool.ts); when the chain is lost during it (a call found no socket, or the
 * connection closed under it, and the chain does not answer a check), the node is killed while the lock is still held,
 * so that whatever it ran and the journal does not have is undone, and the whole work runs again on the chain started
 * again, which holds exactly the journaled writes: a write whose answer was lost is not journaled (it is journaled
 * only after the chain acknowledged it, before the caller hears back), so sending it again runs it once. This repeats
 * within the call's deadline.
 */
import { ChainTimeoutError } from "../wire/chain-timeout";
import { JsonRpcError, type JsonRpcClient } from "../wire/json-rpc";
import { ChainRequestError, type JsonRpcResponse } from "../types";

/** The chain a call was running on was lost; the call runs again once the chain is back. */
export class ChainLostError extends Error {
  constructor(reason: string) {
    super(`the chain stopped during the call (${reason})`);
    this.name = "ChainLostError";
  }
}

/** Answers made for calls that never got one because the connection to the chain failed (./rpc-proxy.ts). */
const lostAnswers = new WeakSet<object>();

/** Marks an answer as made for a call the chain never answered (the connection failed). */
export function markLost(answer: JsonRpcResponse): JsonRpcResponse {
  lostAnswers.add(answer);
  return answer;
}

/** Whether an answer was made for a call the chain never answered. */
export function isLostAnswer(answer: JsonRpcResponse): boolean {
  return lostAnswers.has(answer);
}

/** Longest the check of a chain whose connection failed waits for its answer. */
const CHECK_MS = 2_000;
/** Most runs of one call's work: a chain that dies again and again is reported, not chased. */
const MAX_RUNS = 4;

/** Whether an error is a failure to reach the chain (not an answer of the chain's, not a missed deadline, not ours). */
function isConnectionFailure(error: unknown): boolean {
  // Not `instanceof Error`: Node's own errors may come from another realm (a test runner's sandbox).
  return (
    typeof error === "object" &&
    error !== null &&
    !(
      error instanceof JsonRpcError ||
      error instanceof ChainTimeoutError ||
      error instanceof ChainRequestError ||
      error instanceof ChainLostError
    )
  );
}

/** What of a chain's node the guard needs: its wire, its end, and a way to end it (./node/backend.ts `ChainNode`). */
export interface LosableNode {
  readonly rpc: Pick<JsonRpcClient, "request">;
  readonly exited: Promise<unknown>;
  kill(): Promise<unknown>;
}

/** Whether a node still answers: false once it exited, or when a cheap call fails. */
async function stillAnswers(node: LosableNode): Promise<boolean> {
  const exited = node.exited.then(() => false);
  const check = node.rpc
    .request("eth_chainId", [], CHECK_MS)
    .then(() => true)
    .catch(() => false);
  return Promise.race([exited, check]);
}

/**
 * Runs a call's work on a node (the lock held); when the chain was lost during it (`ChainLostError` thrown by the
 * work, or a connection failure and the chain no longer answers), kills the node before the lock is let go and throws
 * `ChainLostError` for `untilAnswered` to run the work again.
 */
export async function guardLoss<N extends LosableNode, T>(node: N, work: (node: N) => Promise<T>): Promise<T> {
  try {
    return await work(node);
  } catch (error) {
    const lost = error instanceof ChainLostError || (isConnectionFailure(error) && !(await stillAnswers(node)));
    if (!lost) throw error;
    await node.kill();
    throw error instanceof ChainLostError ? error : new ChainLostError(connectionReason(error as Error));
  }
}

/**
 * Runs `attempt` (one `use` of the chain with `guardLoss` inside) again while it throws `ChainLostError`, within
 * `deadlineMs` of the first run; then the caller hears that the chain did not come back in time (503).
 */
export async function untilAnswered<T>(deadlineMs: number, attempt: () => Promise<T>): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (let run = 1; ; run++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ChainLostError)) throw error;
      if (run >= MAX_RUNS || Date.now() >= until)
        throw new ChainRequestError(503, `the chain stopped and did not come back in time; try again (${error.message})`);
    }
  }
}

/**
 * Why a connection to a chain failed, without what it names on the server (a socket path, a port): its system code
 * when it has one.
 */
export function connectionReason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code ?? (error.cause as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === "string" && /^[A-Z_]{2,32}$/.test(code)) return `its connection failed: ${code}`;
  return error.message.replace(/(?:\/[^\s/:'"]+)+/g, "(the chain's socket)").replace(/127\.0\.0\.1:\d+/g, "(the chain)");
}
