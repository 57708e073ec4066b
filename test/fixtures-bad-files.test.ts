/**
 * Bad fixture files, over HTTP against a service on a data dir: a truncated, damaged, oversized or unknown-version
 * file, and one whose sections, paths or sizes do not add up, is refused with a 400 whose message is one line naming
 * the file, and nothing is created: no environment, no file in the data dir (nor anywhere else). A file of format
 * version 1 kept in the repository still imports.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { FIXTURE_MAGIC, MAX_FIXTURE_BYTES, unpackFixture } from "../lib/service/environment-files/container";
import { call, adminRpc } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import {
  ENVIRONMENTS,
  chainFacts,
  createEnvironment,
  deployStore,
  exportFixture,
  importFixture,
  type CreatedEnvironment,
} from "./helpers/fixtures";

jest.setTimeout(180_000);

let service: TestService;
let dataDir: string;
let good: Buffer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "chainform-bad-fixtures-"));
  service = await startTestService({ dataDir: join(dataDir, "data") });
  const environment = await createEnvironment(service, "Good", [{ network_id: "10" }]);
  await deployStore(service, environment, 0, 3);
  good = await exportFixture(service, environment.id);
  await call(service, "DELETE", `${ENVIRONMENTS}/${environment.id}`, { as: "alice" });
});

afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every file under the test's directory (the data dir and beside it), with its size, but the database's own. */
function files(dir = dataDir): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => !/chainform\.db/.test(name) && statSync(join(dir, name)).isFile())
    .sort();
}

/** A file framed as a fixture is, around any header and section bytes, with a correct checksum. */
function frame(header: unknown, bodies: readonly Buffer[] = []): Buffer {
  const headerBytes = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(headerBytes.length);
  const body = Buffer.concat([FIXTURE_MAGIC, length, headerBytes, ...bodies]);
  return Buffer.concat([body, createHash("sha256").update(body).digest()]);
}

/** The good file's header and packed sections, to change one thing and frame again. */
function parts(): { header: Record<string, any>; bodies: Buffer[] } {
  const headerLength = good.readUInt32BE(FIXTURE_MAGIC.length);
  const start = FIXTURE_MAGIC.length + 4;
  const header = JSON.parse(good.subarray(start, start + headerLength).toString());
  const bodies: Buffer[] = [];
  let offset = start + headerLength;
  for (const entry of header.sections) {
    bodies.push(good.subarray(offset, offset + entry.size));
    offset += entry.size;
  }
  return { header, bodies };
}

/** A section packed as the writer packs it, with its header entry. */
function section(name: string, data: Buffer): { entry: Record<string, unknown>; body: Buffer } {
  const body = gzipSync(data);
  return { entry: { name, size: body.length, unpacked_size: data.length, sha256: createHash("sha256").update(data).digest("hex") }, body };
}

function withHeader(change: (header: Record<string, any>) => void): Buffer {
  const { header, bodies } = parts();
  change(header);
  return frame(header, bodies);
}

function flipped(at: number): Buffer {
  const copy = Buffer.from(good);
  copy[at] ^= 0xff;
  return copy;
}

const stateIndex = () => parts().header.sections.findIndex((s: { name: string }) => s.name === "vnets/0/state");

const BAD: [string, () => Buffer, RegExp][] = [
  ["an empty body", () => Buffer.alloc(0), /not a chainform fixture/],
  ["a file that is not a fixture", () => Buffer.from('{"environments": []}'), /not a chainform fixture/],
  ["a file cut inside its header", () => good.subarray(0, 40), /cut short/],
  ["a file cut inside a section", () => good.subarray(0, good.length - 100), /cut short/],
  ["a file cut before its checksum", () => good.subarray(0, good.length - 5), /cut short|damaged/],
  ["a file with bytes appended", () => Buffer.concat([good, Buffer.from("more")]), /more than its sections account for|damaged/],
  ["a byte changed in a section", () => flipped(good.length - 60), /damaged: its checksum/],
  ["a byte changed in the header", () => flipped(FIXTURE_MAGIC.length + 30), /damaged/],
  ["a header that is not JSON", () => frameRaw("{not json"), /header is not JSON/],
  ["a header length beyond its limit", () => lengthOf(0x7fffffff), /header, over the/],
  ["another format's name", () => withHeader((h) => (h.format = "something-else")), /names another format/],
  [
    "a newer format version",
    () => withHeader((h) => (h.version = 2)),
    /newer chainform \(fixture format version 2; this one reads versions 1 to 1\)/,
  ],
  ["a version that is not a number", () => withHeader((h) => (h.version = "1")), /format version is not a number/],
  ["a section named as a path", () => withHeader((h) => (h.sections[0].name = "../../etc/passwd")), /section 0 of its header/],
  ["a section named twice", () => withHeader((h) => (h.sections[1].name = h.sections[0].name)), /appears twice/],
  ["declared sizes larger than the file", () => withHeader((h) => (h.sections[0].size += 10)), /cut short/],
  ["declared sizes smaller than the file", () => withHeader((h) => (h.sections[0].size -= 10)), /more than its sections account for/],
  [
    "a section that unpacks larger than declared (a zip bomb)",
    () => {
      const { header, bodies } = parts();
      const bomb = section("vnets/0/state", Buffer.alloc(50_000_000, 32));
      header.sections[stateIndex()] = { ...bomb.entry, unpacked_size: 1000 };
      bodies[stateIndex()] = bomb.body;
      return frame(header, bodies);
    },
    /larger than its declared 1000 bytes/,
  ],
  [
    "sections declared to unpack beyond the limit",
    () => withHeader((h) => (h.sections[0].unpacked_size = 1024 ** 3 + 1)),
    /section 0 of its header|over the/,
  ],
  [
    "a missing section",
    () => {
      const { header, bodies } = parts();
      const i = header.sections.findIndex((s: { name: string }) => s.name === "vnets/0/transactions");
      header.sections.splice(i, 1);
      bodies.splice(i, 1);
      return frame(header, bodies);
    },
    /section vnets\/0\/transactions is missing/,
  ],
  ["a section this version does not define", () => extra("notes/readme", Buffer.from("hi")), /does not define \(notes\/readme\)/],
  ["recordings of a network no vnet forks", () => extra("recordings/1/100", Buffer.from("{}")), /recordings no forked Virtual Environment/],
  [
    "a chain state that is not anvil's",
    () => replaced("vnets/0/state", Buffer.from('{"accounts": {"not-an-address": {}}}')),
    /chain state has an account/,
  ],
  [
    "records that are not transactions",
    () => replaced("vnets/0/transactions", Buffer.from('[{"tx_hash": 1}]')),
    /transactions are not transaction records/,
  ],
  ["a vnet whose network is not its settings'", () => withHeader((h) => (h.vnets[0].network_id = "1")), /Virtual Environment 0 is not/],
  [
    "settings naming a network this service lacks",
    () =>
      withHeader((h) => {
        h.environment.network_configs[0].network_id = "999999";
        h.vnets[0].network_id = "999999";
      }),
    /settings do not fit this service: network_configs\[0\]\.network_id: 999999 is not a supported network/,
  ],
  ["a chain id that is not its settings'", () => withHeader((h) => (h.vnets[0].chain_id = "12345")), /answers chain id 12345/],
];

function frameRaw(headerText: string): Buffer {
  const headerBytes = Buffer.from(headerText);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(headerBytes.length);
  const body = Buffer.concat([FIXTURE_MAGIC, length, headerBytes]);
  return Buffer.concat([body, createHash("sha256").update(body).digest()]);
}

function lengthOf(headerLength: number): Buffer {
  const copy = Buffer.from(good);
  copy.writeUInt32BE(headerLength, FIXTURE_MAGIC.length);
  return copy;
}

function extra(name: string, data: Buffer): Buffer {
  const { header, bodies } = parts();
  const added = section(name, data);
  header.sections.push(added.entry);
  return frame(header, [...bodies, added.body]);
}

function replaced(name: string, data: Buffer): Buffer {
  const { header, bodies } = parts();
  const i = header.sections.findIndex((s: { name: string }) => s.name === name);
  const changed = section(name, data);
  header.sections[i] = changed.entry;
  bodies[i] = changed.body;
  return frame(header, bodies);
}

test.each(BAD)("%s is refused in one line naming the file, and nothing is created", async (_name, make, message) => {
  const before = files();
  const count = (await call(service, "GET", `${ENVIRONMENTS}?perPage=100`, { as: "alice" })).body.environments.length;
  const answer = await importFixture(service, make());
  expect(answer.status).toBe(400);
  expect(answer.body.error.message).toMatch(/^(the uploaded fixture: |the fixture's )/);
  expect(answer.body.error.message).toMatch(message);
  expect(answer.body.error.message).not.toContain("\n");
  expect((await call(service, "GET", `${ENVIRONMENTS}?perPage=100`, { as: "alice" })).body.environments).toHaveLength(count);
  expect(files()).toEqual(before);
});

test("a body over the size limit is refused before it is read whole", async () => {
  const before = files();
  let sent = 0;
  const chunk = Buffer.alloc(1024 * 1024);
  const body = new ReadableStream({
    pull(controller) {
      if (sent > MAX_FIXTURE_BYTES) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
  const response = await fetch(`${service.baseUrl}${ENVIRONMENTS}/import`, {
    method: "POST",
    headers: { ...service.headersOf("alice"), "content-type": "application/octet-stream" },
    body,
    duplex: "half",
  } as RequestInit).catch(() => null);
  // The service answers as soon as the limit is passed (the client may see the connection closed under it instead).
  if (response) {
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /^the uploaded fixture is over the \d+-byte limit/,
    );
  }
  expect(files()).toEqual(before);
});

test("a body that is not sent as a file is refused, saying how to send it", async () => {
  const answer = await call(service, "POST", `${ENVIRONMENTS}/import`, { as: "alice", body: { fixture: "x" } });
  expect(answer.status).toBe(400);
  expect(answer.body.error.message).toContain("application/octet-stream");
});

test("a file of format version 1, as chainform wrote it, still imports", async () => {
  // test/data/fixture-v1.chainform: network 10 with the Store contract (tests/helpers/fixtures.ts) deployed and set to 1.
  const file = readFileSync(join(__dirname, "data", "fixture-v1.chainform"));
  expect(unpackFixture(file, "v1").header.version).toBe(1);
  const imported = await importFixture(service, file, { slug: "from-version-1" });
  expect(imported.status).toBe(201);
  const admin = adminRpc(imported.body as CreatedEnvironment, 0);
  const address = "0x6b182f1488e8efeb2eb298155ed5bd7ff8a14042";
  const facts = (await chainFacts(admin, [address])) as Record<string, any>;
  expect([facts.chainId, facts.blockNumber, facts.nonce]).toEqual(["0xa", "0x7b06242", "0x2"]);
  expect(facts[address].slot0).toBe(`0x${"0".repeat(63)}1`);
  expect(facts[address].code).toMatch(/^0x6080/);
});
