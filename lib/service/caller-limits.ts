/**
 * What one caller may hold of the service through the RPC URLs and the connections under them, in one table
 * (docs/service.md "Limits per caller"). Each bound is far above what a test suite or a dapp uses, and far below
 * what once stopped the service: each comment says what broke without it.
 */

/** The RPC URLs' and the server's bounds; tests may lower them (`ServiceOptions.rpcLimits`). */
export interface RpcLimits {
  /**
   * Bytes queued for a WebSocket client that has not read them; past this the connection is closed with 1013 (an
   * unread client once grew the service by 16 MB a second, to 2.6 GB).
   */
  readonly bufferedBytes: number;
  /**
   * Messages of one WebSocket connection being answered at once; past this the connection is not read until one is
   * answered (a client that sends without waiting could otherwise have hundreds of large answers made at once).
   */
  readonly messagesInFlight: number;
  /** Open subscriptions on one WebSocket connection (5,000 unread `newHeads` took 891 MB). */
  readonly subscriptionsPerConnection: number;
  /** Open subscriptions on one RPC URL, over all its connections. */
  readonly subscriptionsPerUrl: number;
  /** Live filters (`eth_new*Filter`) on one RPC URL (200,000 took a chain to 2.7 GB and slowed its writes 3.5 times). */
  readonly filtersPerUrl: number;
  /** How often an idle WebSocket is pinged; one that has not answered the previous ping by then is dropped. */
  readonly heartbeatMs: number;
  /** Open connections (HTTP and WebSocket) from one address: 20,000 idle ones once used every descriptor. */
  readonly connectionsPerAddress: number;
  /** Longest a request may take to arrive, head and body (a body dripped a byte every 10 s stayed open for good). */
  readonly requestTimeoutMs: number;
  /** Longest a request's head may take to arrive. */
  readonly headersTimeoutMs: number;
  /**
   * Bytes of an oversized body read and thrown away so that its caller gets the 400 (a connection closed while the
   * caller still sends loses the answer); past this the connection is closed after the answer.
   */
  readonly discardBytes: number;
}

/** The bounds the service runs with. */
export const DEFAULT_RPC_LIMITS: RpcLimits = {
  bufferedBytes: 4 * 1024 * 1024,
  messagesInFlight: 64,
  subscriptionsPerConnection: 100,
  subscriptionsPerUrl: 1_000,
  filtersPerUrl: 1_000,
  heartbeatMs: 30_000,
  connectionsPerAddress: 1_024,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 20_000,
  discardBytes: 16 * 1024 * 1024,
};

/** The table with a caller's overrides. */
export function rpcLimits(overrides: Partial<RpcLimits> = {}): RpcLimits {
  return { ...DEFAULT_RPC_LIMITS, ...overrides };
}
