/**
 * Forks of real networks: which networks have an upstream, which block a new fork pins, and the local proxies
 * (one per network and block) that forked chains read through, recording what the upstream answers so that a fork
 * can be replayed with no upstream at all (docs/forking.md).
 */
import { ChainRequestError } from "../types";
import { JsonRpcError } from "../json-rpc";
import { ForkProxy } from "./proxy";
import { Recordings, recordedBlocks, recordingsPath } from "./recordings";
import { Upstream, UpstreamError } from "./upstream";

export { ForkProxy, NOT_RECORDED, UPSTREAM_READ_METHODS, describeCall, type ForkProxyStats } from "./proxy";
export { callKey, recordedBlocks, recordingsPath } from "./recordings";
export { forkUrlsFromEnv, parseForkUrls } from "./urls";

/** Default bound on one upstream call. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** Options of the forks of a service. */
export interface ForksOptions {
  /** Upstream RPC URLs by network id: secrets. */
  readonly urls: Readonly<Record<string, string>>;
  /** Where recordings are kept (`<dir>/<network>/<block>.json`). */
  readonly cacheDir: string;
  /** Serve forks from recordings only; nothing leaves the machine. */
  readonly offline: boolean;
  /** Bound on one upstream call. @default 30000 */
  readonly timeoutMs?: number;
}

/** The forks of one service. */
export class Forks {
  private readonly proxies = new Map<string, Promise<ForkProxy>>();
  private readonly upstreams = new Map<string, Upstream>();
  /** Networks whose upstream answered the right chain id once. */
  private readonly verified = new Set<string>();

  constructor(private readonly options: ForksOptions) {}

  /** Whether a network is forked: it has an upstream, or (offline) recordings to replay. */
  forked(networkId: string): boolean {
    if (this.options.urls[networkId] !== undefined) return true;
    return this.options.offline && recordedBlocks(this.options.cacheDir, networkId).length > 0;
  }

  /**
   * The block a new fork of a network pins: `requested` once the upstream shows it exists, else the upstream's head
   * (offline: the newest recorded block). Null for a network that is not forked. Throws `ChainRequestError`: 400
   * with field `/block_number` for a block beyond the head, 502 for an unreachable or wrong upstream, 504 for a slow
   * one; each names the network, never the URL.
   */
  async forkPoint(networkId: string, requested?: bigint): Promise<bigint | null> {
    if (!this.forked(networkId)) return null;
    const recorded = recordedBlocks(this.options.cacheDir, networkId);
    const upstream = this.upstream(networkId);
    if (!upstream) {
      if (requested === undefined && recorded.length > 0) return recorded[0]!;
      if (requested !== undefined && recorded.includes(requested)) return requested;
      throw new ChainRequestError(
        502,
        `network ${networkId} has no recordings${requested === undefined ? "" : ` at block ${requested}`} and the service is offline: run once with its upstream to record them`,
      );
    }
    let head: bigint;
    try {
      const [chainId, blockNumber] = await Promise.all([
        this.verified.has(networkId) ? Promise.resolve(null) : upstream.request<string>("eth_chainId"),
        upstream.request<string>("eth_blockNumber"),
      ]);
      if (chainId !== null) {
        if (BigInt(chainId) !== BigInt(networkId)) {
          throw new ChainRequestError(
            502,
            `the upstream of network ${networkId} answers chain id ${BigInt(chainId)}, not ${networkId}: it is another network's RPC`,
          );
        }
        this.verified.add(networkId);
      }
      head = BigInt(blockNumber);
    } catch (error) {
      if (error instanceof ChainRequestError) throw error;
      // A block recorded before replays without its upstream, like an offline service.
      if (requested !== undefined && recorded.includes(requested) && error instanceof UpstreamError) return requested;
      if (error instanceof UpstreamError)
        throw new ChainRequestError(error.failure === "timeout" ? 504 : 502, `cannot fork network ${networkId}: ${error.message}`);
      if (error instanceof JsonRpcError)
        throw new ChainRequestError(502, `cannot fork network ${networkId}: its upstream answered an error (${error.message})`);
      throw new ChainRequestError(502, `cannot fork network ${networkId}: its upstream answered something unusable`);
    }
    if (requested === undefined) return head;
    if (requested > head) {
      throw new ChainRequestError(400, `block ${requested} is beyond the head of network ${networkId} (block ${head})`, "/block_number");
    }
    return requested;
  }

  /** The URL of the local proxy a fork of `networkId` at `block` reads through (started on first use). */
  async proxyUrl(networkId: string, block: bigint): Promise<string> {
    return (await this.proxy(networkId, block)).url;
  }

  /** The proxy of a network at a block (started on first use). */
  proxy(networkId: string, block: bigint): Promise<ForkProxy> {
    const key = `${networkId}@${block}`;
    let proxy = this.proxies.get(key);
    if (!proxy) {
      const recordings = new Recordings(recordingsPath(this.options.cacheDir, networkId, block), networkId, block);
      const upstream = this.upstream(networkId);
      const replayOnly = this.options.offline
        ? "the service is offline (--offline), so only recordings are served"
        : `no upstream is configured for network ${networkId} (--fork ${networkId}=URL), so only recordings are served`;
      proxy = ForkProxy.start({ networkId, block, recordings, upstream, replayOnly });
      proxy.catch(() => this.proxies.delete(key));
      this.proxies.set(key, proxy);
    }
    return proxy;
  }

  /** Stops the proxies and saves every recording (a recording that cannot be written is lost, not fatal). */
  async close(): Promise<void> {
    const proxies = [...this.proxies.values()];
    this.proxies.clear();
    await Promise.all(proxies.map(async (proxy) => (await proxy.catch(() => null))?.close().catch(() => undefined)));
  }

  /**
   * Fixtures: the recordings of a network at a block as they stand (a running proxy's are saved first), or null when
   * there are none.
   */
  async savedRecordings(networkId: string, block: bigint): Promise<Record<string, unknown> | null> {
    const live = this.proxies.get(`${networkId}@${block}`);
    if (live) (await live.catch(() => null))?.recordings.flush();
    return new Recordings(recordingsPath(this.options.cacheDir, networkId, block), networkId, block).entries();
  }

  /**
   * Fixtures: adds an imported fixture's recordings of a network at a block to this service's, keeping the answers
   * recorded already (a running proxy serves the new ones at once).
   */
  async addRecordings(networkId: string, block: bigint, answers: Readonly<Record<string, unknown>>): Promise<void> {
    const live = this.proxies.get(`${networkId}@${block}`);
    const recordings =
      (live && (await live.catch(() => null))?.recordings) ??
      new Recordings(recordingsPath(this.options.cacheDir, networkId, block), networkId, block);
    for (const [key, answer] of Object.entries(answers)) if (!recordings.has(key)) recordings.put(key, answer);
    recordings.flush();
  }

  private upstream(networkId: string): Upstream | null {
    const url = this.options.urls[networkId];
    if (this.options.offline || url === undefined) return null;
    let upstream = this.upstreams.get(networkId);
    if (!upstream) {
      upstream = new Upstream(networkId, url, this.options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS);
      this.upstreams.set(networkId, upstream);
    }
    return upstream;
  }
}
