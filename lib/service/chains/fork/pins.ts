/**
 * Which block each environment last forked of a network, by environment slug, in the fork cache
 * (`<dir>/<network>/pins.json`): offline, an environment created without `block_number` forks the block it pinned
 * when it last ran live, not whatever block another environment recorded last.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

function pinsPath(dir: string, networkId: string): string {
  return join(dir, networkId, "pins.json");
}

/** The pins of a network: environment slug → block. */
export function readPins(dir: string, networkId: string): Record<string, bigint> {
  try {
    const parsed = JSON.parse(readFileSync(pinsPath(dir, networkId), "utf8")) as { pins?: Record<string, unknown> };
    return Object.fromEntries(
      Object.entries(parsed.pins ?? {}).flatMap(([slug, block]) =>
        typeof block === "string" && /^\d+$/.test(block) ? [[slug, BigInt(block)]] : [],
      ),
    );
  } catch {
    return {};
  }
}

/** Remembers that an environment forked a network at a block (atomically; a failure is the caller's to log). */
export function writePin(dir: string, networkId: string, slug: string, block: bigint): void {
  const pins = { ...readPins(dir, networkId), [slug]: block };
  const path = pinsPath(dir, networkId);
  mkdirSync(join(path, ".."), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const sorted = Object.fromEntries(
    Object.keys(pins)
      .sort()
      .map((key) => [key, pins[key]!.toString()]),
  );
  try {
    writeFileSync(temporary, `${JSON.stringify({ network_id: networkId, pins: sorted }, null, 1)}\n`);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
