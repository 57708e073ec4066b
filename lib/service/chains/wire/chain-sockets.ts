/**
 * The RPC proxy's ways to a chain for the calls it passes through, without undici:
 * - ./socket-pool.ts `ChainSocketPool`: kept-alive sockets to one node, one call at a time per socket, the answer
 *   handed back as bytes, framed by ./socket-framing.ts (anvil's IPC socket, or HTTP/1.1 for a node with a URL only).
 * - ./coalescing-ipc.ts `CoalescingIpc`: single calls of many callers in one write to a node's IPC socket.
 * - ./ipc-path.ts: where a node's IPC socket lives.
 * Every call has a deadline (./chain-timeout.ts).
 */
export { ChainSocketPool } from "./socket-pool";
export { CoalescingIpc, type CallDone } from "./coalescing-ipc";
export { ipcSocketPath } from "./ipc-path";
export type { ChainAddress, RawAnswer } from "./socket-framing";
