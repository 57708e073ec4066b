/**
 * The fork recordings a fixture brought, kept for the one Virtual Environment its import created
 * (`<dir>/<vnet id>.json`, the recordings file's shape): persisted with it, exported and cloned with it, deleted with
 * it. They never join the service-wide recordings (`<fork cache>/<network>/<block>.json`), which hold only what an
 * upstream answered: a fixture's answers are the fixture's claims, and no other environment reads them
 * (docs/forking.md "Recordings a fixture brings").
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { wellFormedRecording } from "./answer-checks";
import { Recordings } from "./recordings";

const FILE = /^([0-9a-f-]{36})\.json$/;

/** The imported recordings of a service's Virtual Environments, one file each. */
export class ImportedRecordings {
  constructor(private readonly dir: string) {}

  private pathOf(vnetId: string): string {
    return join(this.dir, `${vnetId}.json`);
  }

  /** Whether a Virtual Environment has recordings of its own (it was imported from a fixture that carried some). */
  has(vnetId: string): boolean {
    return existsSync(this.pathOf(vnetId));
  }

  /** A Virtual Environment's recordings, loaded from its file (empty when it has none). */
  open(vnetId: string, networkId: string, block: bigint): Recordings {
    return new Recordings(this.pathOf(vnetId), networkId, block);
  }

  /**
   * Keeps a fixture's answers for the Virtual Environment it creates, now (synchronous: inside the transaction that
   * creates it). Answers an upstream's would not be kept as (./answer-checks.ts) are left out. Returns how many were kept.
   */
  write(vnetId: string, networkId: string, block: bigint, answers: Readonly<Record<string, unknown>>): number {
    mkdirSync(this.dir, { recursive: true });
    const recordings = this.open(vnetId, networkId, block);
    let kept = 0;
    for (const [key, answer] of Object.entries(answers)) {
      if (!wellFormedRecording(key, answer)) continue;
      recordings.put(key, answer);
      kept += 1;
    }
    recordings.flush();
    return kept;
  }

  /** Forgets a Virtual Environment's recordings (it is deleted, or was never created). */
  remove(vnetId: string): void {
    rmSync(this.pathOf(vnetId), { force: true });
  }

  /** Removes the files of Virtual Environments that no longer exist (a kill -9 during a delete leaves them). */
  sweep(exists: (vnetId: string) => boolean): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const id = FILE.exec(name)?.[1];
      if (id !== undefined && !exists(id)) this.remove(id);
      else if (name.endsWith(".tmp")) rmSync(join(this.dir, name), { force: true });
    }
  }
}
