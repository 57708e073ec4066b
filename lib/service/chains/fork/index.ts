/**
 * Forks of real networks: which networks have an upstream, which block a new fork pins, and the local proxies
 * (one per network and block) that forked chains read through, recording what the upstream answers so that a fork
 * can be replayed with no upstream at all (docs/forking.md).
 */
import type { ChainLog, ChainNode } from "../node/backend";
import { ChainRequestError } from "../types";
import { JsonRpcError } from "../wire/json-rpc";
import { BLOCK_INPUTS_MARK, recordBlockInputs, type BlockInputsCost } from "./block-inputs";
import { ImportedRecordings } from "./imported";
import { readPins, writePin } from "./pins";
import { ForkProxy } from "./proxy";
import { ChainIdChecks, chainIdRecorded, WrongNetwork } from "./chain-ids";
import { Recordings, recordedBlocks, recordingsPath, type SharedForkCache } from "./recordings";
import { Upstream, UpstreamError } from "./upstream";

export { ForkProxy, NOT_RECORDED, UPSTREAM_READ_METHODS, type ForkProxyStats } from "./proxy";
export { describeCall } from "./describe";
export { forwardToReplayedFork, unrecordedRead } from "./sends";
export { callKey, recordedBlocks, recordingsPath, type SharedForkCache } from "./recordings";
export { forkUrlsFromEnv, parseForkUrls, secretPartsOf } from "./urls";
export { DEFAULT_MAX_ANSWER_BYTES } from "./upstream";
export { checkResult, wellFormedRecording } from "./answer-checks";
export type { BlockInputsCost } from "./block-inputs";

/** Default bound on one upstream call. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** Options of the forks of a service. */
export interface ForksOptions {
  /** Upstream RPC URLs by network id: secrets. */
  readonly urls: Readonly<Record<string, string>>;
  /** Where recordings are kept (`<dir>/<network>/<block>.json`): what upstreams answered, nothing else. */
  readonly cacheDir: string;
  /** Where the recordings fixtures brought are kept, one file per Virtual Environment (./imported.ts). */
  readonly importedDir: string;
  /** Serve forks from recordings only; nothing leaves the machine. */
  readonly offline: boolean;
  /** Bound on one upstream call. @default 30000 */
  readonly timeoutMs?: number;
  /** Cap on one upstream answer, in bytes. @default DEFAULT_MAX_ANSWER_BYTES (32 MiB) */
  readonly maxAnswerBytes?: number;
  /** Offline, read an account nobody recorded as empty, logged once per account. @default false */
  readonly offlineEmptyAccounts?: boolean;
  /** Where forks report what the operator must hear (recordings not saved, pins chosen). */
  readonly log?: ChainLog;
  /** A fork cache shared with other services (`--fork-cache oci://…`), asked before an upstream. @default none */
  readonly shared?: SharedForkCache | null;
}

/** How a fork point is chosen. */
export interface ForkPointOptions {
  /**
   * Whether the chain will build blocks (a Virtual Environment) and so needs its block inputs recorded, or only runs
   * calls at the fork point (a network replica's simulations). @default true
   */
  readonly mines?: boolean;
}

/** The forks of one service. */
export class Forks {
  private readonly proxies = new Map<string, Promise<ForkProxy>>();
  private readonly upstreams = new Map<string, Upstream>();
  /** Per network, the upstream without the chain-id check, which the check itself and the head's ask use. */
  private readonly unchecked = new Map<string, Upstream>();
  private readonly recordings = new Map<string, Recordings>();
  /** What recording the block inputs cost, by `network@block` (for benchmarks). */
  readonly blockInputCosts = new Map<string, BlockInputsCost>();
  /** Whether each network's upstream answered the right chain id. */
  private readonly chainIds = new ChainIdChecks();
  /** Chains forking a network served from recordings only, whose sends are checked first (./sends.ts). */
  private readonly replayedChains = new WeakSet<ChainNode>();
  /** The recordings fixtures brought, per Virtual Environment. */
  private readonly imported: ImportedRecordings;

  constructor(private readonly options: ForksOptions) {
    this.imported = new ImportedRecordings(options.importedDir);
  }

  /** Whether a network is forked: it has an upstream, or (offline) recordings to replay. */
  forked(networkId: string): boolean {
    if (this.options.urls[networkId] !== undefined) return true;
    return this.options.offline && recordedBlocks(this.options.cacheDir, networkId).length > 0;
  }

  /**
   * The block a new fork of a network pins: `requested` once the upstream (or a recording of it) shows it exists, else
   * the upstream's head (else, the upstream failing, the block the recordings would replay, with a warning);
   * with a live upstream, what a chain needs to mine past that block is recorded before it returns
   * (./block-inputs.ts). Offline, an omitted block is the one `environmentSlug` pinned last (else the newest
   * recorded), logged. Null for a network that is not forked. Throws `ChainRequestError`: 400 with field
   * `/block_number` for a block beyond the head, 400 for an upstream the `--fork` setting gets wrong (unreachable,
   * refusing, redirecting, another network), 502 for an upstream failing otherwise, 504 for a slow one; each names
   * the network, never the URL.
   */
  async forkPoint(networkId: string, requested?: bigint, environmentSlug?: string, options: ForkPointOptions = {}): Promise<bigint | null> {
    if (!this.forked(networkId)) return null;
    const recorded = recordedBlocks(this.options.cacheDir, networkId);
    const upstream = this.upstream(networkId);
    if (!upstream) return this.recordedForkPoint(networkId, recorded, requested, environmentSlug);
    // What recordings already know is not asked again (docs/oci-store.md): a network's chain id never changes, and a
    // block recorded before exists. Whatever the upstream is asked later waits for the chain-id check (`checkFirst`).
    const known =
      requested !== undefined && (recorded.includes(requested) || (await this.fromShared(networkId, requested, "cold")))
        ? requested
        : undefined;
    const recordedAt = known ?? recorded[0];
    const chainIdKnown =
      this.chainIds.has(networkId) || (recordedAt !== undefined && chainIdRecorded(this.recordingsOf(networkId, recordedAt), networkId));
    let head: bigint | null = null;
    try {
      const [, blockNumber] = await Promise.all([
        chainIdKnown ? null : this.chainIds.check(networkId, this.unchecked.get(networkId)!),
        known !== undefined ? null : this.unchecked.get(networkId)!.request<string>("eth_blockNumber"),
      ]);
      if (blockNumber !== null) head = BigInt(blockNumber);
    } catch (error) {
      // A block recorded before replays without its upstream, like an offline service.
      const replayable = error instanceof UpstreamError && !(error instanceof WrongNetwork);
      if (requested !== undefined && recorded.includes(requested) && replayable) return requested;
      if (requested === undefined && recorded.length > 0 && replayable) {
        this.options.log?.warn(
          { network: networkId, reason: error.message },
          `the head of network ${networkId} cannot be asked; forking from its recordings instead`,
        );
        return this.recordedForkPoint(networkId, recorded, requested, environmentSlug);
      }
      throw this.upstreamFailure(networkId, error);
    }
    if (requested !== undefined && head !== null && requested > head) {
      throw new ChainRequestError(400, `block ${requested} is beyond the head of network ${networkId} (block ${head})`, "/block_number");
    }
    const block = requested ?? head!;
    if (options.mines === false) return block;
    try {
      const recordings = this.recordingsOf(networkId, block);
      if (!recordings.marked(BLOCK_INPUTS_MARK) && !(await this.fromShared(networkId, block, "cold")))
        await this.fromShared(networkId, block);
      const cost = await recordBlockInputs(upstream, recordings, block);
      if (cost.calls > 0) this.blockInputCosts.set(`${networkId}@${block}`, cost);
    } catch (error) {
      throw this.upstreamFailure(networkId, error, `cannot record what forks of network ${networkId} need to mine offline`);
    }
    if (environmentSlug !== undefined) this.pin(networkId, environmentSlug, block);
    return block;
  }

  /**
   * Brings what other services of a shared fork cache recorded of a network at a block (`cold`: before recording it
   * cold, waiting for one recording it now); whether any came (a call that waited for another's look sees its answers
   * merged already, so "came" is not "merged now").
   */
  private async fromShared(networkId: string, block: bigint, cold?: "cold"): Promise<boolean> {
    const { shared } = this.options;
    const answers = await (cold ? shared?.coldStart(networkId, block) : shared?.fetchNew(networkId, block));
    if (!answers) return false;
    this.recordingsOf(networkId, block).merge(answers);
    return true;
  }

  /** The fork point of a network served from recordings only; throws 502 when there is none to serve. */
  private recordedForkPoint(networkId: string, recorded: bigint[], requested?: bigint, environmentSlug?: string): bigint {
    if (requested !== undefined && recorded.includes(requested)) return requested;
    if (requested === undefined && recorded.length > 0) {
      const pinned = environmentSlug === undefined ? undefined : readPins(this.options.cacheDir, networkId)[environmentSlug];
      const block = pinned !== undefined && recorded.includes(pinned) ? pinned : recorded[0]!;
      this.options.log?.info(
        { network: networkId, block: block.toString(), environment: environmentSlug },
        pinned === block
          ? `no block_number given: forking network ${networkId} at block ${block}, the block this environment pinned when it last ran with its upstream`
          : `no block_number given: forking network ${networkId} at block ${block}, its newest recorded block (this environment pinned none)`,
      );
      return block;
    }
    throw new ChainRequestError(
      502,
      `network ${networkId} has no recordings${requested === undefined ? "" : ` at block ${requested}`} and the service is offline: run once with its upstream to record them`,
    );
  }

  /** An upstream failure at creation as the API reports it: the user's setting (400) or the upstream's state. */
  private upstreamFailure(networkId: string, error: unknown, prefix = `cannot fork network ${networkId}`): ChainRequestError {
    if (error instanceof ChainRequestError) return error;
    if (error instanceof UpstreamError) {
      if (error.misconfigured) {
        return new ChainRequestError(
          400,
          `${prefix}: ${error.message}; check --fork ${networkId}=URL (or CHAINFORM_FORK_URLS) of the service`,
        );
      }
      return new ChainRequestError(error.failure === "timeout" ? 504 : 502, `${prefix}: ${error.message}`);
    }
    if (error instanceof JsonRpcError) return new ChainRequestError(502, `${prefix}: its upstream answered an error (${error.message})`);
    return new ChainRequestError(502, `${prefix}: its upstream answered something unusable`);
  }

  /** Remembers the block an environment pinned; a pin that cannot be saved is logged, not fatal. */
  private pin(networkId: string, environmentSlug: string, block: bigint): void {
    try {
      writePin(this.options.cacheDir, networkId, environmentSlug, block);
    } catch (error) {
      this.options.log?.warn(
        { network: networkId, environment: environmentSlug, reason: (error as { code?: string }).code ?? String(error) },
        "the fork point of an environment could not be remembered for offline runs",
      );
    }
  }

  /** Notes a chain started on a fork of `networkId`: when that fork is served from recordings only, its sends are checked. */
  chainStarted(node: ChainNode, networkId: string): void {
    if (this.upstream(networkId) === null) this.replayedChains.add(node);
  }

  /**
   * Whether a chain forks a network served from recordings only (offline, or with no upstream): its sends must be
   * executed as calls first (./sends.ts), or one reading what was never recorded would stay in its pool unmined.
   */
  replaysOnly(node: ChainNode): boolean {
    return this.replayedChains.has(node);
  }

  /**
   * The URL of the local proxy a fork of `networkId` at `block` reads through (started on first use). A Virtual
   * Environment imported with recordings of its own (`vnetId`) reads through a proxy of its own that adds them.
   */
  async proxyUrl(networkId: string, block: bigint, vnetId?: string): Promise<string> {
    return (await this.proxy(networkId, block, vnetId)).url;
  }

  /** The proxy of a network at a block (started on first use), or of one imported Virtual Environment's fork. */
  proxy(networkId: string, block: bigint, vnetId?: string): Promise<ForkProxy> {
    const own = vnetId !== undefined && this.imported.has(vnetId);
    const key = own ? `vnet:${vnetId}` : `${networkId}@${block}`;
    let proxy = this.proxies.get(key);
    if (!proxy) {
      const recordings = this.recordingsOf(networkId, block);
      const imported = own ? this.imported.open(vnetId, networkId, block) : null;
      const upstream = this.upstream(networkId);
      const replayOnly = this.options.offline
        ? "the service is offline (--offline), so only recordings are served"
        : `no upstream is configured for network ${networkId} (--fork ${networkId}=URL), so only recordings are served`;
      const { log, offlineEmptyAccounts } = this.options;
      proxy = ForkProxy.start({
        networkId,
        block,
        recordings,
        imported,
        upstream,
        replayOnly,
        log,
        emptyAccounts: offlineEmptyAccounts === true,
        refresh: upstream && this.options.shared ? () => this.fromShared(networkId, block) : undefined,
      });
      // A fork made before block inputs were recorded (its recordings hold answers but not the mark), restarted with its
      // upstream: record them now, for offline runs. (A replica's new recordings are empty: it never mines.)
      if (upstream && recordings.size > 0 && !recordings.marked(BLOCK_INPUTS_MARK)) {
        recordBlockInputs(upstream, recordings, block).catch((error: Error) =>
          log?.warn(
            { network: networkId, block: block.toString(), reason: error.message },
            "could not record what this fork needs to mine offline",
          ),
        );
      }
      proxy.catch(() => this.proxies.delete(key));
      this.proxies.set(key, proxy);
    }
    return proxy;
  }

  /** The recordings of a network at a block, one object per file for the service's life. */
  private recordingsOf(networkId: string, block: bigint): Recordings {
    const key = `${networkId}@${block}`;
    let recordings = this.recordings.get(key);
    if (!recordings) {
      const { shared, log } = this.options;
      recordings = new Recordings(recordingsPath(this.options.cacheDir, networkId, block), networkId, block, log, () =>
        shared?.saved(networkId, block),
      );
      this.recordings.set(key, recordings);
    }
    return recordings;
  }

  /** Stops the proxies and saves every recording (one that cannot be written is logged, once, not fatal). */
  async close(): Promise<void> {
    const proxies = [...this.proxies.entries()];
    this.proxies.clear();
    // A proxy saves its recordings as it closes, and logs a save that fails.
    const saved = new Set<string>();
    await Promise.all(
      proxies.map(async ([key, proxy]) => {
        const running = await proxy.catch(() => null);
        if (running) saved.add(key);
        await running?.close().catch(() => undefined);
      }),
    );
    for (const [key, recordings] of this.recordings) {
      if (saved.has(key)) continue;
      try {
        recordings.flush();
      } catch (error) {
        this.options.log?.error(
          { reason: (error as { code?: string }).code ?? String(error) },
          "fork recordings could not be saved at shutdown",
        );
      }
    }
  }

  /**
   * Fixtures: the recordings a Virtual Environment's fork reads, as they stand (a running proxy's are saved first), or
   * null when there are none: the recordings a fixture brought it, and with `shared` (an export: the file must replay
   * on its own) the service's of its network and block, which are upstream answers and win where both answer a call.
   */
  async savedRecordings(vnetId: string, networkId: string, block: bigint, shared: boolean): Promise<Record<string, unknown> | null> {
    const answers: Record<string, unknown> = { ...this.imported.open(vnetId, networkId, block).entries() };
    if (shared) {
      // What a running fork recorded lately is saved first (the proxies of one network and block share this object).
      this.recordings.get(`${networkId}@${block}`)?.flush();
      Object.assign(answers, new Recordings(recordingsPath(this.options.cacheDir, networkId, block), networkId, block).entries());
    }
    return Object.keys(answers).length === 0 ? null : answers;
  }

  /**
   * Fixtures: keeps an imported fixture's recordings for the one Virtual Environment its import creates, now
   * (synchronous: inside the creating transaction), never in the service-wide recordings. Returns how many answers
   * were kept (ill-formed ones are left out, ./answer-checks.ts).
   */
  installRecordings(vnetId: string, networkId: string, block: bigint, answers: Readonly<Record<string, unknown>>): number {
    return this.imported.write(vnetId, networkId, block, answers);
  }

  /** A Virtual Environment is deleted (or was never created): its proxy stops and its imported recordings go. */
  async forgetVnet(vnetId: string): Promise<void> {
    this.imported.remove(vnetId);
    const proxy = this.proxies.get(`vnet:${vnetId}`);
    this.proxies.delete(`vnet:${vnetId}`);
    await (await proxy?.catch(() => null))?.close().catch(() => undefined);
  }

  /** Removes the imported recordings of Virtual Environments that no longer exist (a kill -9 during a delete). */
  sweepImported(exists: (vnetId: string) => boolean): void {
    this.imported.sweep(exists);
  }

  private upstream(networkId: string): Upstream | null {
    const url = this.options.urls[networkId];
    if (this.options.offline || url === undefined) return null;
    let upstream = this.upstreams.get(networkId);
    if (!upstream) {
      const timeoutMs = this.options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
      upstream = new Upstream(networkId, url, timeoutMs, this.options.maxAnswerBytes);
      // No answer is used, nor recorded, before the upstream showed it serves this network.
      const unchecked = new Upstream(networkId, url, timeoutMs, this.options.maxAnswerBytes);
      upstream.checkFirst(() => this.chainIds.check(networkId, unchecked));
      this.upstreams.set(networkId, upstream);
      this.unchecked.set(networkId, unchecked);
    }
    return upstream;
  }
}
