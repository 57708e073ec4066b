import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeCall } from "./describe";
import { Recordings, callKey, recordedBlocks, recordingsPath } from "./recordings";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "chainform-recordings-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("a call's key is its method and params, never its id", () => {
  expect(callKey("eth_getBalance", ["0xabc", "0x2"])).toBe('eth_getBalance ["0xabc","0x2"]');
  expect(callKey("eth_chainId", undefined)).toBe("eth_chainId []");
});

test("recordings are one file per network and block, merged with what another writer saved, with no temporary file left", () => {
  const path = recordingsPath(dir, "1", 42n);
  const first = new Recordings(path, "1", 42n);
  const second = new Recordings(path, "1", 42n);
  first.put("a []", { result: "0x1" });
  first.flush();
  second.put("b []", { result: "0x2" });
  second.flush();
  const saved = JSON.parse(readFileSync(path, "utf8"));
  expect(saved).toEqual({ network_id: "1", block_number: "42", answers: { "a []": { result: "0x1" }, "b []": { result: "0x2" } } });
  expect(readdirSync(join(dir, "1"))).toEqual(["42.json"]);
  expect(new Recordings(path, "1", 42n).get("b []")).toEqual({ result: "0x2" });
  new Recordings(recordingsPath(dir, "1", 7n), "1", 7n).put("c []", { result: "0x3" });
  expect(recordedBlocks(dir, "1")).toEqual([42n]); // nothing saved yet for block 7
  expect(recordedBlocks(dir, "8453")).toEqual([]);
});

test("a writer that saved before reads the file back only when another writer replaced it, and keeps what that one saved", () => {
  const path = recordingsPath(dir, "1", 42n);
  const first = new Recordings(path, "1", 42n);
  const second = new Recordings(path, "1", 42n);
  first.put("a []", { result: "0x1" });
  first.flush();
  second.put("b []", { result: "0x2" });
  second.flush(); // replaces the file first wrote
  first.put("c []", { result: "0x3" });
  first.flush(); // must merge b, though it wrote the file last time
  first.put("d []", { result: "0x4" });
  first.flush(); // the file is still its own: nothing to merge, nothing lost
  expect(Object.keys(JSON.parse(readFileSync(path, "utf8")).answers)).toEqual(["a []", "b []", "c []", "d []"]);
});

test("a call is described by method, account or slot, and block", () => {
  expect(describeCall("eth_getStorageAt", ["0xaa", "0x5", "0x2"], "1", 2n)).toBe(
    "eth_getStorageAt of account 0xaa slot 0x5 at block 2 of network 1",
  );
  expect(describeCall("eth_getCode", ["0xaa", "0x2"], "1", 2n)).toBe("eth_getCode of account 0xaa at block 2 of network 1");
  expect(describeCall("eth_getLogs", [{ address: "0xaa" }], "10", 9n)).toBe('eth_getLogs [{"address":"0xaa"}] at block 9 of network 10');
  // The block the call asked, not the fork point; a tag (latest) is the fork point.
  expect(describeCall("eth_call", [{ to: "0xaa" }, "0x5"], "1", 9n)).toBe('eth_call [{"to":"0xaa"},"0x5"] at block 5 of network 1');
  expect(describeCall("eth_getBalance", ["0xaa", "latest"], "1", 9n)).toBe("eth_getBalance of account 0xaa at block 9 of network 1");
});

test("a save that fails is logged and retried until it works; nothing recorded meanwhile is lost", async () => {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const log = {
    error: (fields: Record<string, unknown>, message: string) => lines.push({ level: "error", fields, message }),
    warn: (fields: Record<string, unknown>, message: string) => lines.push({ level: "warn", fields, message }),
    info: (fields: Record<string, unknown>, message: string) => lines.push({ level: "info", fields, message }),
  };
  // The network's directory is a file: every save fails (ENOTDIR/EEXIST) until it is moved away.
  writeFileSync(join(dir, "1"), "in the way");
  const recordings = new Recordings(recordingsPath(dir, "1", 42n), "1", 42n, log);
  recordings.put("a []", { result: "0x1" });
  await waitFor(() => lines.some((line) => line.level === "error"));
  expect(lines[0]!.message).toMatch(/could not be saved; they are kept in memory and the save is retried/);
  expect(recordings.get("a []")).toEqual({ result: "0x1" });
  rmSync(join(dir, "1"));
  await waitFor(() => lines.some((line) => line.level === "info"), 10_000);
  expect(JSON.parse(readFileSync(recordingsPath(dir, "1", 42n), "utf8")).answers).toEqual({ "a []": { result: "0x1" } });
});

async function waitFor(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
