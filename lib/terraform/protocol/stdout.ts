/**
 * Keeps stdout for the handshake line alone. go-plugin reads the plugin's stdout for the handshake, so a stray
 * console.log from any library would corrupt it (before) or pollute Terraform's log (after): everything written to
 * stdout through Node goes to stderr instead, which Terraform shows under TF_LOG.
 */
import { writeSync } from "node:fs";

let writeToStdout: ((text: string) => void) | undefined;

/**
 * Redirects stdout (`process.stdout`, and so console.log) to stderr and returns the only way left to write to
 * stdout. Idempotent: every call returns the same writer.
 *
 * The writer writes to file descriptor 1 synchronously. Node's own stdout stream is never made: for a pipe, as
 * Terraform gives, making it costs a provider process ~1 ms of start-up (a socket, and the stream machinery).
 * @example
 * const writeStdout = reserveStdout();
 * writeStdout(`${handshakeLine(address, der)}\n`);
 */
export function reserveStdout(): (text: string) => void {
  if (!writeToStdout) {
    // process.stdout is a lazy getter; until something reads it, fd 1 is the blocking descriptor we inherited.
    Object.defineProperty(process, "stdout", { configurable: true, enumerable: true, get: () => process.stderr });
    writeToStdout = (text) => {
      const bytes = Buffer.from(text);
      for (let written = 0; written < bytes.length;) written += writeSync(1, bytes, written);
    };
  }
  return writeToStdout;
}
