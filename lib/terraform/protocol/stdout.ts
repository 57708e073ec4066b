/**
 * Keeps stdout for the handshake line alone. go-plugin reads the plugin's stdout for the handshake, so a stray
 * console.log from any library would corrupt it (before) or pollute Terraform's log (after): everything written to
 * stdout through Node goes to stderr instead, which Terraform shows under TF_LOG.
 */

let writeToStdout: ((text: string) => void) | undefined;

/**
 * Redirects stdout writes (console.log included) to stderr and returns the only way left to write to stdout.
 * Idempotent: every call returns the same writer.
 * @example
 * const writeStdout = reserveStdout();
 * writeStdout(`${handshakeLine(port, der)}\n`);
 */
export function reserveStdout(): (text: string) => void {
  if (!writeToStdout) {
    const stdout = process.stdout;
    const write = stdout.write.bind(stdout);
    stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
    writeToStdout = (text) => {
      write(text);
    };
  }
  return writeToStdout;
}
