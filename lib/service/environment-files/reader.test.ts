/**
 * The child process that reads fixture files runs into its limits, not the service: a file that needs more heap than allowed,
 * or more time, is refused in one line naming it; a good file reads the same as in-process.
 */
import { writeFixture, type FixtureContent } from "./content";
import { readFixture } from "./content";
import { FixtureReader, ImportBusyError } from "./reader";

jest.setTimeout(120_000);

/** A fixture of one fresh chain whose state holds `accounts` accounts (about 200 bytes of JSON each). */
function fixtureWith(accounts: number): Buffer {
  const state: Record<string, unknown> = {};
  for (let i = 0; i < accounts; i++) {
    state[`0x${i.toString(16).padStart(40, "0")}`] = { nonce: 0, balance: "0x1", code: "0x", storage: { "0x0": `0x${"ab".repeat(32)}` } };
  }
  const content: FixtureContent = {
    slug: "limits",
    displayName: "Limits",
    networkConfigs: [{ network_id: "10" }],
    bridgeConfig: { enabled: false, relay_mode: "autoRelay", delay_seconds: 0 },
    vnets: [
      {
        networkId: "10",
        chainId: "10",
        blockNumber: "0x1",
        forked: false,
        state: Buffer.from(JSON.stringify({ accounts: state })),
        transactions: [],
        verifiedContracts: [],
      },
    ],
    recordings: [],
    exportedAt: "2026-01-01T00:00:00.000Z",
  };
  return writeFixture(content);
}

test("a good file reads in the reader's process as it reads in-process", async () => {
  const file = fixtureWith(10);
  const content = await new FixtureReader().read(file, "limits.chainform");
  const inProcess = readFixture(file, "limits.chainform");
  expect(content.slug).toBe(inProcess.slug);
  expect(Buffer.from(content.vnets[0]!.state).equals(inProcess.vnets[0]!.state)).toBe(true);
});

test("a file needing more heap than the reader may use is refused, naming it", async () => {
  const file = fixtureWith(300_000); // about 60 MB of state JSON
  await expect(new FixtureReader({ heapLimitMb: 16 }).read(file, "big.chainform")).rejects.toThrow(
    /^big\.chainform: needs more than the 16 MiB of memory an import may use to read$/,
  );
});

test("a read past the time limit is stopped and refused, naming the file", async () => {
  await expect(new FixtureReader({ timeLimitMs: 1 }).read(fixtureWith(10), "slow.chainform")).rejects.toThrow(
    /^slow\.chainform: took longer than 0\.001 s to read, the limit of an import$/,
  );
});

test("one import at a time: a second is refused at once while the first runs", async () => {
  const reader = new FixtureReader();
  let release!: () => void;
  const first = reader.exclusive(() => new Promise<void>((resolve) => (release = resolve)));
  await expect(reader.exclusive(async () => "second")).rejects.toBeInstanceOf(ImportBusyError);
  release();
  await first;
  await expect(reader.exclusive(async () => "third")).resolves.toBe("third");
});
