/** Where a node's IPC socket lives: a fresh path per node in the temp directory, stale ones swept. */
import { randomBytes } from "node:crypto";
import { readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const IPC_PREFIX = "chainform-anvil-";
let staleSwept = false;

/**
 * A fresh path for a node's IPC socket in the temp directory, named after this process. anvil leaves its socket
 * file behind and a SIGKILLed service removes nothing, so the first call also removes the sockets of processes
 * that no longer exist.
 */
export function ipcSocketPath(): string {
  const dir = tmpdir();
  if (!staleSwept) {
    staleSwept = true;
    for (const name of readdirSync(dir).filter((n) => n.startsWith(IPC_PREFIX) && n.endsWith(".ipc"))) {
      const pid = Number(name.slice(IPC_PREFIX.length).split("-")[0]);
      if (pid > 0 && pid !== process.pid && !processExists(pid)) rmSync(join(dir, name), { force: true });
    }
  }
  return join(dir, `${IPC_PREFIX}${process.pid}-${randomBytes(6).toString("hex")}.ipc`);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
