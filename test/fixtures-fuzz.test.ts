/**
 * A property-based fuzz of the fixture reader (issue 47): random and mutated fixture files (cut short, bits flipped,
 * bytes inserted, sections replaced by random JSON, deeply nested arrays or oversized declarations, header fields
 * given wrong versions or objects where strings go, random bytes) are each accepted or refused with one line naming
 * the file, never a crash or a freeze; through the service, a refused file creates nothing.
 *
 * Counts: FUZZ_RUNS (in-process, default 300) and FUZZ_SERVICE_RUNS (over HTTP, default 12); raise them by hand for
 * a longer run, e.g. `FUZZ_RUNS=20000 FUZZ_SERVICE_RUNS=300 npx jest --maxWorkers=1 test/fixtures-fuzz.test.ts`.
 */
import fc from "fast-check";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FixtureError } from "../lib/service/environment-files/container";
import { readFixture, writeFixture, type FixtureContent } from "../lib/service/environment-files/content";
import { call } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import { ENVIRONMENTS, importFixture } from "./helpers/fixtures";
import { fixtureParts, frame, nestedArrays, replaceSection } from "./helpers/fixture-files";

jest.setTimeout(600_000);

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SERVICE_RUNS = Number(process.env.FUZZ_SERVICE_RUNS ?? 12);

const ACCOUNT = `0x${"22".repeat(20)}`;

/** A good file: a fork of network 1 with a deployed account, and a fresh chain of network 10. */
const BASE: FixtureContent = {
  slug: "fuzzed",
  displayName: "Fuzzed",
  networkConfigs: [{ network_id: "1" }, { network_id: "10" }],
  bridgeConfig: { enabled: false, relay_mode: "autoRelay", delay_seconds: 0 },
  vnets: [
    {
      networkId: "1",
      chainId: "1",
      blockNumber: "0x10",
      forked: true,
      state: Buffer.from(JSON.stringify({ accounts: { [ACCOUNT]: { nonce: 1, balance: "0x1", code: "0x", storage: {} } } })),
      transactions: [],
      verifiedContracts: [],
    },
    {
      networkId: "10",
      chainId: "10",
      blockNumber: "0x20",
      forked: false,
      state: Buffer.from('{"accounts":{}}'),
      transactions: [],
      verifiedContracts: [],
    },
  ],
  recordings: [
    {
      networkId: "1",
      block: "16",
      answers: { "eth_chainId []": { result: "0x1" }, [`eth_getBalance ["${ACCOUNT}","0x10"]`]: { result: "0x5" } },
    },
  ],
  exportedAt: "2026-01-01T00:00:00.000Z",
};
const GOOD = writeFixture(BASE);
const SECTIONS = fixtureParts(GOOD).header.sections.map((s: { name: string }) => s.name) as string[];

/** Header fields a hostile file changes, as paths. */
const HEADER_FIELDS = [
  ["version"],
  ["format"],
  ["exported_at"],
  ["environment"],
  ["environment", "slug"],
  ["environment", "display_name"],
  ["environment", "network_configs"],
  ["environment", "bridge_config"],
  ["vnets"],
  ["vnets", 0, "block_number"],
  ["vnets", 0, "chain_id"],
  ["vnets", 0, "forked"],
  ["vnets", 1, "network_id"],
  ["sections", 0, "name"],
  ["sections", 0, "size"],
  ["sections", 1, "unpacked_size"],
  ["sections", 2, "sha256"],
] as const;

/** Values that go where they must not: objects where strings go, wrong versions, huge numbers, other types. */
const wrongValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom<unknown>({}, [], null, 0, -1, 2, 1.5, 2 ** 53, "1", "../../x", { toString: 1 }, "__proto__", 1024 ** 3 + 1),
);

/** A change to the good file: each is something a damaged or hostile file does. */
const mutation: fc.Arbitrary<(file: Buffer) => Buffer> = fc.oneof(
  fc.nat().map((at) => (file: Buffer) => file.subarray(0, at % file.length)),
  fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 8 }).map((flips) => (file: Buffer) => {
    const copy = Buffer.from(file);
    for (const [at, bit] of flips) copy[at % copy.length] ^= 1 << bit;
    return copy;
  }),
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 64 })).map(([at, bytes]) => (file: Buffer) => {
    const i = at % file.length;
    return Buffer.concat([file.subarray(0, i), bytes, file.subarray(i)]);
  }),
  fc.tuple(fc.constantFrom(...SECTIONS), fc.jsonValue({ maxDepth: 4 })).map(
    ([name, value]) =>
      (file: Buffer) =>
        replaceSection(file, name, Buffer.from(JSON.stringify(value) ?? "null")),
  ),
  fc.tuple(fc.constantFrom(...SECTIONS), fc.integer({ min: 10, max: 200_000 })).map(
    ([name, depth]) =>
      (file: Buffer) =>
        replaceSection(file, name, nestedArrays(depth)),
  ),
  fc.tuple(fc.constantFrom(...SECTIONS), fc.integer({ min: 0, max: 2 ** 40 })).map(([name, size]) => (file: Buffer) => {
    const { header, bodies } = fixtureParts(file);
    const entry = header.sections.find((s: { name: string }) => s.name === name);
    entry.unpacked_size = size;
    return frame(header, bodies);
  }),
  fc.tuple(fc.constantFrom(...HEADER_FIELDS), wrongValue).map(([path, value]) => (file: Buffer) => {
    const { header, bodies } = fixtureParts(file);
    let at: any = header;
    for (const key of path.slice(0, -1)) at = at?.[key];
    if (at && typeof at === "object") at[path[path.length - 1]!] = value;
    return frame(header, bodies);
  }),
  fc.uint8Array({ maxLength: 512 }).map((bytes) => () => Buffer.from(bytes)),
);

/** One to three changes in a row (a change that needs a legible file leaves one it cannot take apart as it is). */
const mutatedFile = fc.array(mutation, { minLength: 1, maxLength: 3 }).map((changes) =>
  changes.reduce((file, change) => {
    try {
      return change(file);
    } catch {
      return file;
    }
  }, GOOD),
);

test(`the reader accepts or refuses in one line naming the file, never anything else (${RUNS} files)`, () => {
  const verdicts = { accepted: 0, refused: 0 };
  let slowestMs = 0;
  fc.assert(
    fc.property(mutatedFile, (file) => {
      const started = performance.now();
      try {
        readFixture(file, "fuzzed.chainform");
        verdicts.accepted += 1;
      } catch (error) {
        if (!(error instanceof FixtureError)) throw error;
        expect(error.message).toMatch(/^fuzzed\.chainform: \S/);
        expect(error.message).not.toContain("\n");
        verdicts.refused += 1;
      }
      slowestMs = Math.max(slowestMs, performance.now() - started);
      expect(performance.now() - started).toBeLessThan(10_000);
    }),
    { numRuns: RUNS },
  );
  expect(verdicts.refused).toBeGreaterThan(0);
  console.log(JSON.stringify({ fuzz: "fixture reader", runs: RUNS, ...verdicts, slowestMs: Math.round(slowestMs) }));
});

describe("through the service", () => {
  let service: TestService;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "chainform-fixtures-fuzz-"));
    service = await startTestService({ dataDir: join(root, "data") });
  });

  afterAll(async () => {
    await service?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const files = () =>
    readdirSync(join(root, "data"), { recursive: true, encoding: "utf8" })
      .filter((name) => !/chainform\.db/.test(name) && statSync(join(root, "data", name)).isFile())
      .sort();
  const environments = async () =>
    ((await call(service, "GET", `${ENVIRONMENTS}?perPage=100`, { as: "alice" })).body as { environments: { id: string }[] }).environments;

  // Each import starts a reader process (about a second under the TypeScript test runner on a loaded machine).
  test(
    `an import is created or refused in one line, and a refusal creates nothing (${SERVICE_RUNS} files)`,
    async () => {
      const verdicts = { created: 0, refused: 0 };
      let slowestMs = 0;
      await fc.assert(
        fc.asyncProperty(mutatedFile, async (file) => {
          const before = files();
          const count = (await environments()).length;
          const started = performance.now();
          const answer = await importFixture(service, file, { slug: "fuzzed" });
          slowestMs = Math.max(slowestMs, performance.now() - started);
          if (answer.status === 201) {
            verdicts.created += 1;
            await call(service, "DELETE", `${ENVIRONMENTS}/${answer.body.id}`, { as: "alice" });
            return;
          }
          expect(answer.status).toBe(400);
          expect(answer.body.error.message).toMatch(/^(the uploaded fixture: |the fixture's )\S/);
          expect(answer.body.error.message).not.toContain("\n");
          expect((await environments()).length).toBe(count);
          expect(files()).toEqual(before);
          verdicts.refused += 1;
        }),
        { numRuns: SERVICE_RUNS },
      );
      console.log(JSON.stringify({ fuzz: "import route", runs: SERVICE_RUNS, ...verdicts, slowestMs: Math.round(slowestMs) }));
    },
    60_000 + SERVICE_RUNS * 15_000,
  );
});
