// Compiles the RPC URLs' native hop (lib/service/routes/rpc/native-hop.c, a Node-API addon) into
// dist/native/native-hop-<platform>-<arch>.node with the machine's C compiler ($CC, else cc). Linux only (epoll).
// Node-API is stable across Node.js majors, so one build serves Node 20, 22 and 24. Where it cannot be built (no
// compiler, no Node.js headers, another platform), the step says why and the service answers every RPC call itself.
// Skipped when the addon is newer than its source and this step.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

export default async function buildNativeHop({ root }) {
  const source = join(root, "lib", "service", "routes", "rpc", "native-hop.c");
  const out = join(root, "dist", "native", `native-hop-${process.platform}-${process.arch}.node`);
  if (process.platform !== "linux") return console.error(`build: native hop left out: it runs on Linux only, not ${process.platform}`);
  const newest = Math.max(statSync(source).mtimeMs, statSync(import.meta.filename).mtimeMs);
  if (existsSync(out) && statSync(out).mtimeMs >= newest) return;
  const include = [join(dirname(dirname(process.execPath)), "include", "node"), "/usr/include/node", "/usr/local/include/node"].find(
    (dir) => existsSync(join(dir, "node_api.h")),
  );
  if (include === undefined) return console.error("build: native hop left out: Node.js's headers (node_api.h) were not found");
  mkdirSync(dirname(out), { recursive: true });
  const compiler = process.env.CC || "cc";
  const partial = `${out}.${process.pid}`;
  try {
    execFileSync(
      compiler,
      [
        "-O2",
        "-std=gnu11",
        "-Wall",
        "-Wextra",
        "-shared",
        "-fPIC",
        "-pthread",
        "-fvisibility=hidden",
        "-DNODE_GYP_MODULE_NAME=native_hop",
      ].concat(["-I", include, source, "-o", partial]),
      { stdio: ["ignore", "inherit", "inherit"] },
    );
    // Moved into place whole, so that a service starting meanwhile never loads half a file.
    renameSync(partial, out);
  } catch (error) {
    rmSync(partial, { force: true });
    console.error(`build: native hop left out: ${compiler} did not compile it (${error.message.split("\n")[0]})`);
  }
}
