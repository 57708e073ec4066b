/**
 * Fork recordings shared through an OCI registry (`--fork-cache oci://HOST/REPOSITORY[:PREFIX]`, docs/oci-store.md):
 * a fleet of CI jobs forks warm from what any job of it already asked an upstream.
 *
 * The service keeps its recordings in a directory, one file per network and pinned block (`<network>/<block>.json`,
 * `{network_id, block_number, answers}`). A shared cache is that directory, mirrored: before the service starts, every
 * artifact of the repository's recordings is pulled and merged into a private directory; while it runs and when it
 * stops, the answers it added are pushed as a new artifact whose tag is the content's digest (soon after the service
 * saved them, so that jobs of one wave share; a fork that misses looks for them before it asks its upstream). No artifact is ever
 * rewritten, so jobs publishing at once never lose each other's answers: a reader merges them all. An answer is what
 * the upstream said about a read at a pinned block, so two jobs cannot disagree about one unless an upstream lied; if
 * they do, the artifact whose tag sorts first wins and the disagreement is logged once.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ArtifactKind } from "./artifact";
import { pullArtifactFrom, pushArtifactTo } from "./artifact";
import { CLAIM_POLL_MS, CLAIM_SETTLE_MS, CLAIM_WAIT_MS, claimTag, earliestClaim, pushClaim, type Claim } from "./claims";
import { OciError } from "./errors";
import { DEFAULT_TAG, formatOciReference, parseOciReference, type OciReference } from "./reference";
import { RegistryClient, type RegistryClientOptions } from "./registry";

/** One network's recordings at one pinned block, as the service's recordings file holds them. */
export interface RecordingsFile {
  readonly network_id: string;
  /** The pinned block, decimal. */
  readonly block_number: string;
  /** `"<method> <params as JSON>"` → the upstream's result. */
  readonly answers: Record<string, unknown>;
}

/** A recordings artifact: one network at one block, the answers one job added. */
export const RECORDINGS_ARTIFACT: ArtifactKind = {
  name: "fork recordings",
  configMediaType: "application/vnd.chainform.fork-recordings.config.v1+json",
  layerMediaType: "application/vnd.chainform.fork-recordings.v1+json",
  maxBytes: 64 * 1024 * 1024,
};

/** Most artifacts a start pulls: past it, the newest are skipped with a warning (a fleet's cache wants pruning). */
const MAX_ARTIFACTS = 2_000;
const NETWORK = /^[0-9]{1,20}$/;
const BLOCK = NETWORK;
const MAX_TAG_LENGTH = 128;

/** The least time between two looks of one job at the registry for one network and block (docs/oci-store.md). */
export const REFRESH_EVERY_MS = 250;
/** How soon after the service saved new answers they are published, and the least time between two publishes. */
export const PUBLISH_DELAY_MS = 100;
export const PUBLISH_EVERY_MS = 250;
const PULLS_AT_ONCE = 4; // artifacts pulled at once

/** A local directory that mirrors the shared recordings, kept in step with the registry while the service runs. */
export interface SharedRecordings {
  /** The directory to give the service as its fork cache. */
  readonly dir: string;
  /**
   * Answers of a network at a block that other jobs published since this one last looked, or null (none, or it looked
   * less than {@link REFRESH_EVERY_MS} ago, or the registry failed: one warning). The service's `SharedForkCache`.
   */
  fetchNew(networkId: string, block: bigint): Promise<Record<string, unknown> | null>;
  /** The service saved new answers of a network at a block: they are published soon. */
  saved(networkId: string, block: bigint): void;
  /**
   * A fork of a network at a block is about to be recorded cold: what was published of it, else, when another job
   * claimed it lately, its recordings once it publishes them (waiting at most {@link CLAIM_WAIT_MS}), else null after
   * claiming it for this job (./claims.ts). Once per network and block; never throws.
   */
  coldStart(networkId: string, block: bigint): Promise<Record<string, unknown> | null>;
  /** Answers pulled at the start, per network and block. */
  readonly pulled: number;
  /** Pushes the answers added since the start (or the last publish); never throws: a failure is one warning. */
  publish(): Promise<number>;
  /** Publishes, then removes the local directory. */
  close(): Promise<void>;
}

/**
 * Pulls the shared recordings into a new private directory. A registry that cannot be reached or refuses the
 * credentials is one warning, and the cache then starts empty (today's behaviour, a cold fork); a damaged artifact is
 * one warning and skipped. While the service runs, a fork that misses looks at the registry again (`fetchNew`, at
 * most every {@link REFRESH_EVERY_MS} per network and block) before it asks its upstream, and what the service saves
 * is published soon after (`saved`), so that jobs of one wave share with each other.
 * @example
 * const shared = await openSharedRecordings("oci://127.0.0.1:5000/acme/fork-cache", (line) => console.error(line));
 * startServer({ forkCacheDir: shared.dir, sharedForkCache: shared, ... });  // then, when it stopped: await shared.close();
 */
export async function openSharedRecordings(
  url: string,
  warn: (line: string) => void,
  options: RegistryClientOptions = {},
): Promise<SharedRecordings> {
  const place = parseOciReference(url);
  const prefix = place.reference === DEFAULT_TAG ? "fork" : place.reference;
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(prefix)) {
    throw new OciError(
      `${url}: a fork cache's tag is the prefix of its artifacts' tags: 1 to 64 letters, digits, '_' or '-' (no '.', no digest)`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "chainform-fork-cache-"));
  const registry = new RegistryClient(place.registry, options);
  const mirror: Mirror = { place, prefix, dir, registry, known: new Map(), tags: new Set(), warn };
  let available = true;
  let pulled = 0;
  try {
    pulled = await pullAll(mirror);
  } catch (error) {
    if (!(error instanceof OciError)) {
      await registry.close();
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    available = false;
    warn(`fork cache ${url}: ${error.message}; forks start cold and nothing is published`);
  }
  let publishing: Promise<number> = Promise.resolve(0);
  let lastPublish = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const publish = (): Promise<number> => {
    publishing = publishing.then(async () => {
      if (!available) return 0;
      const pushed = await pushAdded(mirror);
      lastPublish = Date.now();
      return pushed;
    });
    return publishing;
  };
  const looks = new Map<string, { last: number; running: Promise<Record<string, unknown> | null> | null }>();
  const coldStarted = new Set<string>();
  const jobId = randomBytes(8).toString("hex");
  let lookFailed = false;
  const lookFailure = (error: unknown): null => {
    if (!(error instanceof OciError)) throw error;
    // Said once: a registry that went away mid-run costs upstream calls, not a failed job.
    if (!lookFailed) warn(`fork cache ${url}: ${error.message}; forks ask their upstream until it answers again`);
    lookFailed = true;
    return null;
  };
  /** A look at the registry for one slot, now (one at a time per slot: a second caller shares the first's). */
  const look = (networkId: string, block: bigint, force: boolean): Promise<Record<string, unknown> | null> => {
    if (!available || closed) return Promise.resolve(null);
    const slot = `${networkId}/${block}`;
    const state = looks.get(slot) ?? { last: 0, running: null };
    looks.set(slot, state);
    if (state.running) return state.running;
    if (!force && Date.now() - state.last < REFRESH_EVERY_MS) return Promise.resolve(null);
    state.running = pullSlot(mirror, networkId, block.toString())
      .catch(lookFailure)
      .finally(() => {
        state.running = null;
        state.last = Date.now();
      });
    return state.running;
  };
  return {
    dir,
    pulled,
    publish,
    saved() {
      if (!available || closed || timer) return;
      timer = setTimeout(
        () => {
          timer = null;
          void publish();
        },
        Math.max(PUBLISH_DELAY_MS, lastPublish + PUBLISH_EVERY_MS - Date.now()),
      );
      timer.unref();
    },
    fetchNew: (networkId, block) => look(networkId, block, false),
    async coldStart(networkId, block) {
      const slot = `${networkId}/${block}`;
      if (!available || closed || coldStarted.has(slot)) return null;
      coldStarted.add(slot);
      const at = block.toString();
      let claimed: Claim | null;
      try {
        let tags = await registry.listTags(place.repository);
        const found = await pullSlot(mirror, networkId, at, tags);
        if (found) return found;
        claimed = earliestClaim(prefix, networkId, at, tags);
        if (claimed === null) {
          const mine = { at: Date.now(), by: jobId };
          const tag = claimTag(prefix, networkId, at, mine);
          // A long prefix with a long network id and block makes no valid tag (128 at most): this job just records.
          if (tag.length > MAX_TAG_LENGTH) return null;
          await pushClaim(registry, place, tag);
          await new Promise((resolve) => setTimeout(resolve, CLAIM_SETTLE_MS));
          tags = await registry.listTags(place.repository);
          const published = await pullSlot(mirror, networkId, at, tags);
          if (published) return published;
          claimed = earliestClaim(prefix, networkId, at, tags);
          if (claimed === null || claimed.by === jobId) return null;
        }
      } catch (error) {
        return lookFailure(error);
      }
      // Another job records this slot: its first publish is waited for, a bounded time.
      const until = Math.min(claimed.at, Date.now()) + CLAIM_WAIT_MS;
      while (Date.now() < until && !closed && !lookFailed) {
        await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
        const answers = await look(networkId, block, true);
        if (answers) return answers;
      }
      return null;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await publish();
      await registry.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A shared cache and its local mirror, as the pulls and the publishes see them. */
interface Mirror {
  readonly place: OciReference;
  /** The first part of the artifacts' tags. */
  readonly prefix: string;
  /** The local directory the service reads. */
  readonly dir: string;
  /** One client for the service's life: one token handshake per scope, connections kept. */
  readonly registry: RegistryClient;
  /** What the registry is known to hold: "<network>/<block>" → call key → the answer as JSON. */
  readonly known: Map<string, Map<string, string>>;
  /** The tags read or pushed already. */
  readonly tags: Set<string>;
  readonly warn: (line: string) => void;
}

async function pullAll(mirror: Mirror): Promise<number> {
  const { place, prefix, dir, warn } = mirror;
  let tags = (await mirror.registry.listTags(place.repository)).filter((tag) => parseTag(prefix, tag) !== null).sort();
  if (tags.length > MAX_ARTIFACTS) {
    warn(
      `fork cache ${formatOciReference(place)}: ${tags.length} artifacts, only the first ${MAX_ARTIFACTS} by tag are read: prune the repository`,
    );
    tags = tags.slice(0, MAX_ARTIFACTS);
  }
  const merged = await pullTags(mirror, tags);
  let count = 0;
  for (const [slot, answers] of merged) {
    const [network, block] = slot.split("/") as [string, string];
    writeRecordings(dir, { network_id: network, block_number: block, answers });
    count += Object.keys(answers).length;
  }
  return count;
}

/** The answers of one network at one block that artifacts published since the last look add (`tags`: listed now). */
async function pullSlot(
  mirror: Mirror,
  network: string,
  block: string,
  listed?: readonly string[],
): Promise<Record<string, unknown> | null> {
  const tags = (listed ?? (await mirror.registry.listTags(mirror.place.repository))).filter((tag) => {
    const parsed = parseTag(mirror.prefix, tag);
    return parsed !== null && parsed[0] === network && parsed[1] === block && !mirror.tags.has(tag);
  });
  const answers = (await pullTags(mirror, [...tags].sort())).get(`${network}/${block}`);
  return answers && Object.keys(answers).length > 0 ? answers : null;
}

/**
 * Pulls artifacts (a few at once) and merges them in tag order into what is known: per slot, the answers new to this
 * job. Throws `OciError` when the registry is unavailable; a damaged artifact is one warning and skipped.
 */
async function pullTags(mirror: Mirror, tags: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const { place, known, warn } = mirror;
  const files: (RecordingsFile | null)[] = new Array(tags.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < tags.length) {
      const i = next++;
      const [network, block] = parseTag(mirror.prefix, tags[i]!)!;
      try {
        files[i] = readRecordings(
          await pullArtifactFrom(mirror.registry, { ...place, reference: tags[i]! }, RECORDINGS_ARTIFACT),
          network,
          block,
        );
      } catch (error) {
        if (!(error instanceof OciError) || error.unavailable) throw error;
        warn(`fork cache: ${error.message}; skipped`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PULLS_AT_ONCE, tags.length) }, worker));
  const added = new Map<string, Record<string, unknown>>();
  let disagreements = 0;
  tags.forEach((tag, i) => {
    mirror.tags.add(tag);
    const file = files[i];
    if (!file) return;
    const slot = `${file.network_id}/${file.block_number}`;
    const seen = known.get(slot) ?? new Map<string, string>();
    known.set(slot, seen);
    const into = added.get(slot) ?? {};
    added.set(slot, into);
    for (const [key, answer] of Object.entries(file.answers)) {
      const text = JSON.stringify(answer);
      const before = seen.get(key);
      if (before === undefined) {
        seen.set(key, text);
        into[key] = answer;
      } else if (before !== text) disagreements++;
    }
  });
  if (disagreements > 0) {
    warn(
      `fork cache ${formatOciReference(place)}: ${disagreements} answers differ between artifacts of one block; the one read first (by tag, or this job's own) was kept`,
    );
  }
  return added;
}

async function pushAdded(mirror: Mirror): Promise<number> {
  const { place, prefix, dir, known, warn } = mirror;
  let pushed = 0;
  for (const { network, block } of listRecordings(dir)) {
    const slot = `${network}/${block}`;
    let file: RecordingsFile;
    try {
      file = readRecordings(readFileSync(join(dir, network, `${block}.json`)), network, block);
    } catch {
      continue; // being written by the service right now: the next publish takes it
    }
    const seen = known.get(slot) ?? new Map<string, string>();
    const added = Object.entries(file.answers).filter(([key]) => !seen.has(key));
    if (added.length === 0) continue;
    const answers = Object.fromEntries(added.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const bytes = Buffer.from(JSON.stringify({ network_id: network, block_number: block, answers }));
    const tag = `${prefix}.${network}.${block}.${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}`;
    try {
      await pushArtifactTo(mirror.registry, { ...place, reference: tag }, RECORDINGS_ARTIFACT, bytes, {
        title: `${network}-${block}.json`,
      });
    } catch (error) {
      if (!(error instanceof OciError)) throw error;
      warn(`fork cache ${formatOciReference(place)}: ${error.message}; ${added.length} recorded answers not published`);
      return pushed;
    }
    mirror.tags.add(tag);
    known.set(slot, seen);
    for (const [key, answer] of added) seen.set(key, JSON.stringify(answer));
    pushed += added.length;
  }
  return pushed;
}

/** `[network, block]` of a recordings tag under `prefix`, or null for any other tag. */
export function parseTag(prefix: string, tag: string): [string, string] | null {
  const parts = tag.split(".");
  if (parts.length !== 4 || parts[0] !== prefix || !NETWORK.test(parts[1]) || !BLOCK.test(parts[2]) || !/^[a-f0-9]{16}$/.test(parts[3]))
    return null;
  return [parts[1], parts[2]];
}

/** A recordings file's content, checked: the network and block its tag says, and answers keyed `method params`. */
export function readRecordings(bytes: Buffer, network: string, block: string): RecordingsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new OciError(`the recordings of network ${network} at block ${block} are not JSON`);
  }
  const file = parsed as Partial<RecordingsFile>;
  if (typeof parsed !== "object" || parsed === null || file.network_id !== network || file.block_number !== block) {
    throw new OciError(`the recordings of network ${network} at block ${block} name another network or block`);
  }
  const answers = file.answers;
  if (typeof answers !== "object" || answers === null || Array.isArray(answers)) {
    throw new OciError(`the recordings of network ${network} at block ${block} hold no answers`);
  }
  return { network_id: network, block_number: block, answers: answers as Record<string, unknown> };
}

function writeRecordings(dir: string, file: RecordingsFile): void {
  mkdirSync(join(dir, file.network_id), { recursive: true });
  const path = join(dir, file.network_id, `${file.block_number}.json`);
  writeFileSync(`${path}.tmp`, JSON.stringify(file));
  renameSync(`${path}.tmp`, path);
}

function listRecordings(dir: string): { network: string; block: string }[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && NETWORK.test(entry.name))
    .flatMap((entry) =>
      readdirSync(join(dir, entry.name))
        .filter((name) => /^[0-9]{1,20}\.json$/.test(name))
        .map((name) => ({ network: entry.name, block: name.slice(0, -5) })),
    );
}
