/** Saved chain state: a dump replaces it only when complete; orphans and half-written dumps are removed at start. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import {
  commitDump,
  observeSaveSteps,
  removeOrphanedStates,
  stampGeneration,
  stateGeneration,
  statePathOf,
  temporaryStatePath,
  type SaveStep,
} from "./state-files";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chainform-state-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ID = "5b1e7a0c-0000-4000-8000-000000000001";

test.each([
  ["empty (a full disk)", "", /empty/],
  ["cut short", '{"block":{"number":"0x1"},"accounts":{"0xab":{"balance":"0x1"}', /cut short/],
  ["cut right after a brace", '{"block":{"number":"0x1"}', /cut short/],
  ["not an object", "[]", /not a JSON object/],
])("a dump that is %s is removed and the previous state kept", (_name, dump, reason) => {
  const statePath = statePathOf(dir, ID);
  writeFileSync(statePath, '{"previous":true}');
  const temporary = temporaryStatePath(statePath);
  writeFileSync(temporary, dump);
  expect(commitDump(temporary, statePath, 7)).toMatch(reason);
  expect(readFileSync(statePath, "utf8")).toBe('{"previous":true}');
  expect(existsSync(temporary)).toBe(false);
});

test("a complete dump replaces the previous state, stamped with its generation, step by step", () => {
  const statePath = statePathOf(dir, ID);
  writeFileSync(statePath, '{"previous":true}');
  expect(stateGeneration(statePath)).toBe(0);
  const temporary = temporaryStatePath(statePath);
  writeFileSync(temporary, '{"next":true}\n');
  const steps: [SaveStep, number][] = [];
  observeSaveSteps((step) => steps.push([step, stateGeneration(statePath)]));
  try {
    expect(commitDump(temporary, statePath, 42)).toBeUndefined();
  } finally {
    observeSaveSteps(undefined);
  }
  // the old state and its generation stay until the rename; the new one comes with its generation in one step
  expect(steps).toEqual([
    ["state-written", 0],
    ["state-renamed", 42],
  ]);
  expect(JSON.parse(readFileSync(statePath, "utf8"))).toEqual({ next: true, chainform_journal_seq: 42 });
  expect(readdirSync(dir)).toEqual([`${ID}.json`]);
});

test("a stamp replaces one already there (an import's number decides nothing), in an empty object too", () => {
  const path = join(dir, "state.json");
  for (const [text, expected] of [
    ['{"a":1,"chainform_journal_seq":99999}', { a: 1, chainform_journal_seq: 3 }],
    ['{"a":1 , "chainform_journal_seq" : 5 }  \n', { a: 1, chainform_journal_seq: 3 }],
    ['{"chainform_journal_seq":5}', { chainform_journal_seq: 3 }],
    ["{ }", { chainform_journal_seq: 3 }],
  ] as const) {
    writeFileSync(path, text);
    stampGeneration(path, 3);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(expected);
    expect(stateGeneration(path)).toBe(3);
  }
  expect(() => stampGeneration(path, -1)).toThrow(/generation/);
});

test("any JSON object stamped stays the same object with the generation as its last member", () => {
  const path = join(dir, "state.json");
  fc.assert(
    fc.property(
      fc.dictionary(
        fc.string().filter((key) => key !== "__proto__" && key !== "chainform_journal_seq"),
        fc.jsonValue(),
      ),
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      fc.constantFrom("", " ", "\n", " \n\t"),
      (object, generation, trailing) => {
        const text = JSON.stringify(object);
        writeFileSync(path, text + trailing);
        stampGeneration(path, generation);
        const stamped = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
        // What the file said, read back: JSON has no -0 (fc.jsonValue makes one; the file holds 0).
        expect(stamped).toEqual({ ...(JSON.parse(text) as object), chainform_journal_seq: generation });
        expect(stateGeneration(path)).toBe(generation);
      },
    ),
    { numRuns: 200 },
  );
});

test("at start: the states of missing vnets and every half-written dump go; live states and other files stay", () => {
  const gone = "5b1e7a0c-0000-4000-8000-000000000002";
  for (const name of [`${ID}.json`, `${gone}.json`, `${ID}.json.77-3.tmp`, "notes.txt"]) writeFileSync(join(dir, name), "{}");
  expect(removeOrphanedStates(dir, (vnetId) => vnetId === ID).sort()).toEqual([`${ID}.json.77-3.tmp`, `${gone}.json`]);
  expect(readdirSync(dir).sort()).toEqual([`${ID}.json`, "notes.txt"]);
});
