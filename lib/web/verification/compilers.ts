/**
 * The Solidity compilers verification can use, one worker per version, found offline: the `solc` package chainform is
 * built with; any version installed from npm under an alias named for it (`npm install -D
 * solc-0.5.16@npm:solc@0.5.16`); and soljson files (`soljson-v0.5.16+commit.9c3226ce.js`, as binaries.soliditylang.org
 * names them) in the directory `CHAINFORM_SOLC_DIR` names. Nothing is downloaded. At most `MAX_LOADED_COMPILERS`
 * versions stay loaded (each holds tens of MB); the least recently used is stopped first.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { COMPILE_TIME_LIMIT_MS, MAX_PENDING_COMPILES, resolvePackage, SolcWorker, type CompilerSource } from "./compiler";

/** Most compiler versions loaded at once. */
export const MAX_LOADED_COMPILERS = 3;
/** The environment variable naming a directory of soljson files. */
export const SOLC_DIR_VARIABLE = "CHAINFORM_SOLC_DIR";

/** `v0.5.16+commit.9c3226ce` or `0.5.16+commit.9c3226ce`: the release, and the full version. */
const VERSION = /^v?(\d{1,3}\.\d{1,3}\.\d{1,3})\+commit\.[0-9a-f]{8}$/;
/** A release alone (`0.5.16`), as Hardhat plugins name it: `forRelease` finds the installed compiler of it. */
const RELEASE = /^v?(\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** A compiler version that is not installed, with the command that installs it. */
export class CompilerMissing extends Error {}

/** The compilers, by version. */
export class Compilers {
  private readonly loaded = new Map<string, SolcWorker>();

  constructor(
    private readonly timeLimitMs: number = COMPILE_TIME_LIMIT_MS,
    private readonly maxPending: number = MAX_PENDING_COMPILES,
    private readonly soljsonDir: string | undefined = process.env[SOLC_DIR_VARIABLE],
  ) {}

  /**
   * The compiler of an exact version (`v0.5.16+commit.9c3226ce`); throws `CompilerMissing` naming the command that
   * installs it. The worker itself checks the commit once loaded (`compilerVersion()`).
   *
   * @example
   * const worker = compilers.forVersion("v0.5.16+commit.9c3226ce"); await worker.compile(input);
   */
  forVersion(version: string): SolcWorker {
    const match = VERSION.exec(version);
    if (!match) throw new CompilerMissing("compilerversion must be an exact solc version such as v0.8.37+commit.f401782d");
    return this.load(match[1]!, version.startsWith("v") ? version : `v${version}`);
  }

  /**
   * The installed compiler of a release named without its commit (`0.5.16`); throws `CompilerMissing` naming the
   * command that installs it. Its worker's `compilerVersion()` names the commit.
   */
  forRelease(release: string): SolcWorker {
    const match = RELEASE.exec(release);
    if (!match) throw new CompilerMissing(`${release.slice(0, 40)} is not a solc release such as 0.8.37`);
    return this.load(match[1]!, `v${match[1]}`);
  }

  private load(release: string, full: string): SolcWorker {
    // One worker per release: a submission naming another commit of it is told the one installed.
    const found = this.loaded.get(release);
    if (found) {
      this.loaded.delete(release);
      this.loaded.set(release, found);
      return found;
    }
    const source = this.sourceOf(release, full);
    if (!source) throw new CompilerMissing(missingMessage(release, full));
    const worker = new SolcWorker(this.timeLimitMs, this.maxPending, source);
    this.loaded.set(release, worker);
    if (this.loaded.size > MAX_LOADED_COMPILERS) {
      const [oldest, stopped] = this.loaded.entries().next().value as [string, SolcWorker];
      this.loaded.delete(oldest);
      void stopped.close();
    }
    return worker;
  }

  /** Stops every loaded compiler. */
  async close(): Promise<void> {
    const workers = [...this.loaded.values()];
    this.loaded.clear();
    await Promise.all(workers.map((w) => w.close()));
  }

  /** Where a release is installed: an alias package, the `solc` package itself, or a soljson file. */
  private sourceOf(release: string, full: string): CompilerSource | undefined {
    for (const name of [`solc-${release}`, "solc"]) {
      const manifest = resolvePackage(`${name}/package.json`);
      if (!manifest) continue;
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
      if (pkg.version === release && pkg.name === "solc") return { solcPath: dirname(manifest) };
    }
    if (!this.soljsonDir) return undefined;
    const name = full.includes("+commit.")
      ? `soljson-${full}.js`
      : (existsSync(this.soljsonDir) ? readdirSync(this.soljsonDir) : []).find(
          (file) => file.startsWith(`soljson-v${release}+commit.`) && file.endsWith(".js"),
        );
    if (!name) return undefined;
    const soljsonPath = resolve(join(this.soljsonDir, name));
    const wrapper = resolvePackage("solc/wrapper");
    return existsSync(soljsonPath) && wrapper ? { soljsonPath, wrapperPath: wrapper } : undefined;
  }
}

/** What to do when a version is missing: the exact command, or the soljson file to put where. */
function missingMessage(release: string, full: string): string {
  return (
    `compiler ${full} is not installed here: run npm install -D solc-${release}@npm:solc@${release} in the project ` +
    `the service runs from, or put soljson-${full}.js in a directory and name it in ${SOLC_DIR_VARIABLE}`
  );
}
