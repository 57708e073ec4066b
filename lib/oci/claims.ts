/**
 * Claims of a shared fork cache (docs/oci-store.md): jobs of a CI fleet that start together would each record the
 * same fork cold, since none has published yet. A job about to record a network at a block says so with a tiny
 * artifact whose tag holds the time and a random id of the job (`PREFIX.NETWORK.BLOCK.claim-MS-ID`), then lists the
 * claims: the earliest fresh one records, and the others wait (a bounded time) for the recordings of that slot to be
 * published instead of asking the upstream the same questions.
 *
 * A registry has no "create unless it exists". Two jobs that each list before the other's claim landed both record
 * (a claim saves upstream calls; it never guards correctness); a job never waits for nobody, since a waiter waits for
 * any recordings of the slot, and of the claims it saw the earliest's own list shows no earlier one, so it records.
 * A claim's tag is not a recordings tag (`parseTag` refuses it), so readers never take it for recordings.
 */
import type { ArtifactKind } from "./artifact";
import { pushArtifactTo } from "./artifact";
import type { OciReference } from "./reference";
import type { RegistryClient } from "./registry";

/** A claim artifact: its tag says it all; its one layer is `{}`. */
export const CLAIM_ARTIFACT: ArtifactKind = {
  name: "fork recordings claim",
  configMediaType: "application/vnd.chainform.fork-recordings-claim.config.v1+json",
  layerMediaType: "application/vnd.chainform.fork-recordings-claim.v1+json",
  maxBytes: 4096,
};

/** A claim older than this is a job that died or failed: it is not waited for. */
export const CLAIM_FRESH_MS = 60_000;
/** The longest a job waits for a claimant's recordings before it asks its upstream itself. */
export const CLAIM_WAIT_MS = 20_000;
/**
 * How long a claimant lets claims made at the same moment land before it lists them: jobs of a wave start within
 * milliseconds of each other, and a push takes longer than that on a loaded machine.
 */
export const CLAIM_SETTLE_MS = 300;
/** How often a waiting job looks for the claimant's recordings. */
export const CLAIM_POLL_MS = 250;

/** A claim: when (ms since the epoch), and by which job. */
export interface Claim {
  readonly at: number;
  readonly by: string;
}

/** The tag of a claim on a network at a block. */
export function claimTag(prefix: string, networkId: string, block: string, claim: Claim): string {
  return `${prefix}.${networkId}.${block}.claim-${claim.at}-${claim.by}`;
}

/** The claim a tag holds on a network at a block, or null for any other tag. */
export function parseClaimTag(prefix: string, networkId: string, block: string, tag: string): Claim | null {
  const head = `${prefix}.${networkId}.${block}.claim-`;
  if (!tag.startsWith(head)) return null;
  const match = /^([0-9]{1,15})-([a-z0-9]{1,32})$/.exec(tag.slice(head.length));
  return match ? { at: Number(match[1]), by: match[2]! } : null;
}

/**
 * The earliest fresh claim among `tags` on a network at a block, or null. A claim from the future (a skewed clock) is
 * taken as made now, so that it still expires.
 */
export function earliestClaim(prefix: string, networkId: string, block: string, tags: readonly string[], now = Date.now()): Claim | null {
  let earliest: Claim | null = null;
  for (const tag of tags) {
    const found = parseClaimTag(prefix, networkId, block, tag);
    if (!found) continue;
    const claim = { at: Math.min(found.at, now), by: found.by };
    if (now - claim.at >= CLAIM_FRESH_MS) continue;
    if (!earliest || claim.at < earliest.at || (claim.at === earliest.at && claim.by < earliest.by)) earliest = claim;
  }
  return earliest;
}

/** Stores a claim. */
export async function pushClaim(registry: RegistryClient, place: OciReference, tag: string): Promise<void> {
  await pushArtifactTo(registry, { ...place, reference: tag }, CLAIM_ARTIFACT, Buffer.from("{}"), { title: "claim.json" });
}
