import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleProvider } from "./bundle";

// A provider as small as it gets: started without Terraform's magic cookie, it prints why and exits 1, which is
// when the loader saves the V8 code cache it did not find.
const TINY_PROVIDER = `
import { servePlugin } from ${JSON.stringify(join(__dirname, "serve"))};
servePlugin({ async getProviderSchema() { return {}; } });
`;

const DAY_MS = 24 * 3600 * 1000;

describe("the provider's loader and its V8 code cache", () => {
  let dir: string;
  let launcher: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "chainform-bundle-"));
    writeFileSync(join(dir, "main.ts"), TINY_PROVIDER);
    ({ launcher } = await bundleProvider({ entry: join(dir, "main.ts"), outDir: join(dir, "out"), type: "tiny" }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (cacheHome: string) =>
    new Promise<number | null>((resolve, reject) => {
      const child = spawn(launcher, [], { env: { PATH: process.env.PATH, XDG_CACHE_HOME: cacheHome }, stdio: "ignore" });
      child.once("error", reject);
      child.once("exit", resolve);
    });

  test("keys the cache by the digest the build wrote into the loader, and reuses it", async () => {
    const loader = readFileSync(join(dir, "out", "terraform-provider-tiny.js"), "utf8");
    const digest = /"terraform-provider-tiny\.bundle\.js":"([0-9a-f]{32})"/.exec(loader)?.[1];
    expect(digest).toBeDefined();
    const cacheHome = join(dir, "cache-a");
    expect(await run(cacheHome)).toBe(1);
    const files = readdirSync(join(cacheHome, "chainform", "v8"));
    expect(files).toEqual([`${digest}-${process.version}-${process.arch}.bin`]);
    const written = readFileSync(join(cacheHome, "chainform", "v8", files[0]!));
    expect(await run(cacheHome)).toBe(1);
    // A hit is not written again.
    expect(readFileSync(join(cacheHome, "chainform", "v8", files[0]!)).equals(written)).toBe(true);
  });

  test("writing a cache file removes the cache files nobody has written for 30 days, and nothing else", async () => {
    const cacheHome = join(dir, "cache-b");
    const v8 = join(cacheHome, "chainform", "v8");
    mkdirSync(v8, { recursive: true });
    const age = (name: string, days: number) => {
      writeFileSync(join(v8, name), "old");
      const when = new Date(Date.now() - days * DAY_MS);
      utimesSync(join(v8, name), when, when);
    };
    age("0123456789abcdef0123456789abcdef-v20.0.0-x64.bin", 31); // an old build's
    age("fedcba9876543210fedcba9876543210-v22.0.0-x64.bin.4242", 40); // a write that never finished
    age("00000000000000000000000000000000-v24.0.0-x64.bin", 29); // still recent
    age("notes.txt", 400); // not ours
    expect(await run(cacheHome)).toBe(1);
    const left = readdirSync(v8).sort();
    expect(left).toContain("00000000000000000000000000000000-v24.0.0-x64.bin");
    expect(left).toContain("notes.txt");
    expect(existsSync(join(v8, "0123456789abcdef0123456789abcdef-v20.0.0-x64.bin"))).toBe(false);
    expect(existsSync(join(v8, "fedcba9876543210fedcba9876543210-v22.0.0-x64.bin.4242"))).toBe(false);
    expect(left.filter((name) => name.endsWith(`-${process.version}-${process.arch}.bin`))).toHaveLength(1);
  });

  test("a lazy bundle's own lazy imports become bundles of their own, read only when required", async () => {
    const src = join(dir, "nested");
    mkdirSync(src);
    writeFileSync(join(src, "main.ts"), 'const { run } = require("./outer"); process.stdout.write(run(process.argv[2] === "inner"));');
    writeFileSync(
      join(src, "outer.ts"),
      'export function run(deep: boolean): string { return deep ? require("./inner").hello() : "outer only"; }',
    );
    writeFileSync(join(src, "inner.ts"), 'export function hello(): string { return "INNER-" + "MARKER"; }');
    const out = join(src, "out");
    const { launcher: nested } = await bundleProvider({
      entry: join(src, "main.ts"),
      outDir: out,
      type: "nested",
      lazyImports: { "./outer": join(src, "outer.ts"), "./inner": join(src, "inner.ts") },
    });
    expect(readFileSync(join(out, "terraform-provider-nested.lazy-0.js"), "utf8")).not.toContain("INNER-");
    expect(readFileSync(join(out, "terraform-provider-nested.lazy-1.js"), "utf8")).toContain("INNER-");
    const runNested = (arg: string) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(nested, [arg], { env: { PATH: process.env.PATH, XDG_CACHE_HOME: join(src, "cache") } });
        let stdout = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.once("error", reject);
        child.once("exit", () => resolve(stdout));
      });
    expect(await runNested("outer")).toBe("outer only");
    expect(await runNested("inner")).toBe("INNER-MARKER");
    // Both lazy bundles went through the loader's code cache: one file for each bundle that ran.
    expect(readdirSync(join(src, "cache", "chainform", "v8"))).toHaveLength(3);
  });
});
