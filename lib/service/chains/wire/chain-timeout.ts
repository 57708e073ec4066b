/**
 * The deadline of every call to a chain (`serve --rpc-timeout SECONDS`, `ServiceOptions.rpcTimeoutMs`): the error a
 * call past it fails with, whichever way it went (the undici pool, the pass-through sockets, the shared IPC socket).
 * The engine answers it as a JSON-RPC error (the RPC URLs) or a 504 (the API), and then checks whether the chain
 * still answers (../pool/chain-pool.ts). docs/chain-state.md "Deadlines" says what a user sees.
 */

/** Default deadline of one call to a chain: 30 s. */
export const DEFAULT_RPC_TIMEOUT_MS = 30_000;

/** A call to a chain that was not answered within the deadline. */
export class ChainTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(timeoutMessage(timeoutMs));
    this.name = "ChainTimeoutError";
  }
}

/**
 * Why the chain did not answer: the deadline and the setting that changes it. Callers hear it after "the chain did not
 * answer: " (../calls/deadline-answers.ts, and ../calls/rpc-proxy.ts `forward` for the calls it sends).
 */
export function timeoutMessage(timeoutMs: number): string {
  const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
  return `it took longer than the service's RPC timeout of ${seconds} (chainform serve --rpc-timeout SECONDS)`;
}
