/**
 * Crafting fixture files for hostile tests: take a good file apart into its header and packed sections, change or
 * add a section (packed and summed as the writer does), and frame it again with a correct checksum, so that what a
 * test changes is the one thing the reader must refuse.
 *
 * @example
 * const bomb = replaceSection(good, "vnets/0/state", Buffer.alloc(1e6), { unpacked_size: 1000 });
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { FIXTURE_MAGIC } from "../../lib/service/environment-files/container";

/** A file's header and its sections' packed bytes, in order. */
export interface FixtureParts {
  readonly header: Record<string, any>;
  readonly bodies: Buffer[];
}

/** A fixture file taken apart (its checksum is dropped; `frame` makes a new one). */
export function fixtureParts(file: Buffer): FixtureParts {
  const headerLength = file.readUInt32BE(FIXTURE_MAGIC.length);
  const start = FIXTURE_MAGIC.length + 4;
  const header = JSON.parse(file.subarray(start, start + headerLength).toString()) as Record<string, any>;
  const bodies: Buffer[] = [];
  let offset = start + headerLength;
  for (const entry of header.sections as { size: number }[]) {
    bodies.push(file.subarray(offset, offset + entry.size));
    offset += entry.size;
  }
  return { header, bodies };
}

/** A file framed around a header and packed sections, with a correct checksum. */
export function frame(header: unknown, bodies: readonly Buffer[]): Buffer {
  const headerBytes = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(headerBytes.length);
  const body = Buffer.concat([FIXTURE_MAGIC, length, headerBytes, ...bodies]);
  return Buffer.concat([body, createHash("sha256").update(body).digest()]);
}

/**
 * The file with section `name` holding `data` (packed at gzip level 1, summed), its header entry changed by `entry`
 * (to declare another size, say).
 */
export function replaceSection(file: Buffer, name: string, data: Buffer, entry: Record<string, unknown> = {}): Buffer {
  const { header, bodies } = fixtureParts(file);
  const index = (header.sections as { name: string }[]).findIndex((s) => s.name === name);
  if (index < 0) throw new Error(`the file has no section ${name}`);
  const body = gzipSync(data, { level: 1 });
  header.sections[index] = {
    name,
    size: body.length,
    unpacked_size: data.length,
    sha256: createHash("sha256").update(data).digest("hex"),
    ...entry,
  };
  bodies[index] = body;
  return frame(header, bodies);
}

/** `depth` nested JSON arrays: `[[[...]]]`. */
export function nestedArrays(depth: number): Buffer {
  const bytes = Buffer.alloc(depth * 2);
  bytes.fill(0x5b, 0, depth);
  bytes.fill(0x5d, depth);
  return bytes;
}
