/**
 * Fork recordings shared through an OCI registry (`--fork-cache oci://HOST/REPOSITORY[:PREFIX]`, docs/oci-store.md):
 * a fleet of CI jobs forks warm from what any job of it already asked an upstream.
 *
 * The service keeps its recordings in a directory, one file per network and pinned block (`<network>/<block>.json`,
 * `{network_id, block_number, answers}`). A shared cache is that directory, mirrored: before the service starts, every
 * artifact of the repository's recordings is pulled and merged into a private directory; while it runs and when it
 * stops, the answers it added are pushed as a new artifact whose tag is the content's digest. No artifact is ever
 * rewritten, so jobs publishing at once never lose each other's answers: a reader merges them all. An answer is what
 * the upstream said about a read at a pinned block, so two jobs cannot disagree about one unless an upstream lied; if
 * they do, the artifact whose tag sorts first wins and the disagreement is logged once.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ArtifactKind } from "./artifact";
import { pullArtifact, pushArtifact } from "./artifact";
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
const BLOCK = /^[0-9]{1,20}$/;

/** A local directory that mirrors the shared recordings; `publish` pushes what was added since the last publish. */
export interface SharedRecordings {
  /** The directory to give the service as its fork cache. */
  readonly dir: string;
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
 * one warning and skipped.
 * @example
 * const shared = await openSharedRecordings("oci://127.0.0.1:5000/acme/fork-cache", (line) => console.error(line));
 * startServer({ forkCacheDir: shared.dir, ... });  // then, when it stopped: await shared.close();
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
  const mirror: Mirror = { place, prefix, dir, known: new Map(), warn, options };
  let available = true;
  let pulled = 0;
  try {
    pulled = await pullAll(mirror);
  } catch (error) {
    if (!(error instanceof OciError)) throw error;
    available = false;
    warn(`fork cache ${url}: ${error.message}; forks start cold and nothing is published`);
  }
  let publishing: Promise<number> = Promise.resolve(0);
  const publish = (): Promise<number> => {
    publishing = publishing.then(async () => (available ? pushAdded(mirror) : 0));
    return publishing;
  };
  return {
    dir,
    pulled,
    publish,
    async close() {
      await publish();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A shared cache and its local mirror, as the pull and the publishes see them. */
interface Mirror {
  readonly place: OciReference;
  /** The first part of the artifacts' tags. */
  readonly prefix: string;
  /** The local directory the service reads. */
  readonly dir: string;
  /** What the registry is known to hold: "<network>/<block>" → call key → the answer as JSON. */
  readonly known: Map<string, Map<string, string>>;
  readonly warn: (line: string) => void;
  readonly options: RegistryClientOptions;
}

async function pullAll(mirror: Mirror): Promise<number> {
  const { place, prefix, dir, known, warn, options } = mirror;
  const registry = new RegistryClient(place.registry, options);
  let tags: string[];
  try {
    tags = (await registry.listTags(place.repository)).filter((tag) => parseTag(prefix, tag) !== null).sort();
  } finally {
    await registry.close();
  }
  if (tags.length > MAX_ARTIFACTS) {
    warn(
      `fork cache ${formatOciReference(place)}: ${tags.length} artifacts, only the first ${MAX_ARTIFACTS} by tag are read: prune the repository`,
    );
    tags = tags.slice(0, MAX_ARTIFACTS);
  }
  const merged = new Map<string, RecordingsFile & { answers: Record<string, unknown> }>();
  let disagreements = 0;
  for (const tag of tags) {
    const [network, block] = parseTag(prefix, tag)!;
    let file: RecordingsFile;
    try {
      file = readRecordings(await pullArtifact({ ...place, reference: tag }, RECORDINGS_ARTIFACT, options), network, block);
    } catch (error) {
      if (!(error instanceof OciError) || error.unavailable) throw error;
      warn(`fork cache: ${error.message}; skipped`);
      continue;
    }
    const slot = `${network}/${block}`;
    const into = merged.get(slot) ?? { network_id: network, block_number: block, answers: {} };
    merged.set(slot, into);
    const seen = known.get(slot) ?? new Map<string, string>();
    known.set(slot, seen);
    for (const [key, answer] of Object.entries(file.answers)) {
      const text = JSON.stringify(answer);
      const before = seen.get(key);
      if (before === undefined) {
        seen.set(key, text);
        into.answers[key] = answer;
      } else if (before !== text) disagreements++;
    }
  }
  if (disagreements > 0) {
    warn(
      `fork cache ${formatOciReference(place)}: ${disagreements} answers differ between artifacts of one block; the artifact whose tag sorts first was kept`,
    );
  }
  let count = 0;
  for (const file of merged.values()) {
    writeRecordings(dir, file);
    count += Object.keys(file.answers).length;
  }
  return count;
}

async function pushAdded(mirror: Mirror): Promise<number> {
  const { place, prefix, dir, known, warn, options } = mirror;
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
      await pushArtifact({ ...place, reference: tag }, RECORDINGS_ARTIFACT, bytes, { title: `${network}-${block}.json` }, options);
    } catch (error) {
      if (!(error instanceof OciError)) throw error;
      warn(`fork cache ${formatOciReference(place)}: ${error.message}; ${added.length} recorded answers not published`);
      return pushed;
    }
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
