/**
 * One rule, one home: the domain's grammars, enums and bounds live in lib/domain and every other part imports them.
 * This test reads the rest of lib/ for literal copies of them (the copies a newcomer would write), so that a new
 * copy fails here instead of drifting apart from its original.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(__dirname, "..");

/** The literal forms each rule had when it was copied by value. */
const COPIES: readonly [string, RegExp][] = [
  ["the slug grammar (lib/domain/slug.ts SLUG_PATTERN)", /\[a-z0-9\]\+\(-\[a-z0-9\]\+\)\*/],
  ["a slug function (lib/domain/slug.ts slugify)", /function\s+slugify\b/],
  ["2^256-1 (lib/domain/amounts.ts MAX_UINT256)", /1n\s*<<\s*256n|2n\s*\*\*\s*256n/],
  ["the ERC-20 amount grammar (lib/domain/amounts.ts parseTokenAmount)", /\[0-9\]\{0,77\}/],
  ["the relay modes (lib/domain/environment-rules.ts RELAY_MODE_VALUES)", /["']autoRelay["']\s*,\s*["']delayedRelay["']/],
  [
    "the visibilities (lib/domain/environment-rules.ts VERIFICATION_VISIBILITY_VALUES)",
    /["']bytecode["']\s*,\s*["']abi["']\s*,\s*["']source["']/,
  ],
  ["the display-name bound (lib/domain/environment-rules.ts MAX_DISPLAY_NAME_LENGTH)", /lengthBetween\(\s*1\s*,\s*255\s*\)/],
];

/** Source files of lib/ outside the domain: no tests, no generated bindings. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("the domain's rules", () => {
  const files = sources(join(ROOT, "lib")).filter((file) => !relative(ROOT, file).startsWith("lib/domain/"));

  test("are read from more than a handful of files (the scan sees lib/)", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  test.each(COPIES)("%s is not copied outside lib/domain", (_name, pattern) => {
    const copies = files.filter((file) => pattern.test(readFileSync(file, "utf8"))).map((file) => relative(ROOT, file));
    expect(copies).toEqual([]);
  });

  test("a planted copy is found", () => {
    const planted = "const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/; const MAX = (1n << 256n) - 1n;";
    expect(COPIES.filter(([, pattern]) => pattern.test(planted)).map(([name]) => name)).toHaveLength(2);
  });
});
