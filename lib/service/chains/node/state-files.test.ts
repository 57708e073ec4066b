/** Saved chain state: a dump replaces it only when complete; orphans and half-written dumps are removed at start. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitDump, removeOrphanedStates, statePathOf, temporaryStatePath } from "./state-files";

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
  expect(commitDump(temporary, statePath)).toMatch(reason);
  expect(readFileSync(statePath, "utf8")).toBe('{"previous":true}');
  expect(existsSync(temporary)).toBe(false);
});

test("a complete dump replaces the previous state", () => {
  const statePath = statePathOf(dir, ID);
  writeFileSync(statePath, '{"previous":true}');
  const temporary = temporaryStatePath(statePath);
  writeFileSync(temporary, '{"next":true}');
  expect(commitDump(temporary, statePath)).toBeUndefined();
  expect(readFileSync(statePath, "utf8")).toBe('{"next":true}');
  expect(readdirSync(dir)).toEqual([`${ID}.json`]);
});

test("at start: the states of missing vnets and every half-written dump go; live states and other files stay", () => {
  const gone = "5b1e7a0c-0000-4000-8000-000000000002";
  for (const name of [`${ID}.json`, `${gone}.json`, `${ID}.json.77-3.tmp`, "notes.txt"]) writeFileSync(join(dir, name), "{}");
  expect(removeOrphanedStates(dir, (vnetId) => vnetId === ID).sort()).toEqual([`${ID}.json.77-3.tmp`, `${gone}.json`]);
  expect(readdirSync(dir).sort()).toEqual([`${ID}.json`, "notes.txt"]);
});
