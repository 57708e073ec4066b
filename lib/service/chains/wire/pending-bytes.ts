/** Bytes of an answer that came in parts (./socket-pool.ts, ./coalescing-ipc.ts). */

/**
 * The bytes of an answer (or a line) that came in parts, kept until the chunk that may end it: then joined once, so a
 * large answer in many chunks is copied once, not on every chunk.
 */
export class PendingBytes {
  private readonly parts: Buffer[] = [];
  private size = 0;

  /** Keeps bytes until the next chunk. */
  keep(bytes: Buffer): void {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  /** The bytes kept and `chunk` after them, as one buffer (`chunk` itself when none are kept); none are kept after. */
  with(chunk: Buffer): Buffer {
    if (this.parts.length === 0) return chunk;
    this.parts.push(chunk);
    const joined = Buffer.concat(this.parts, this.size + chunk.length);
    this.clear();
    return joined;
  }

  clear(): void {
    this.parts.length = 0;
    this.size = 0;
  }
}
