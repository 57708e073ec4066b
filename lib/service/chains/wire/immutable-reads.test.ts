import fc from "fast-check";
import { ImmutableReads, mayChangeState } from "./immutable-reads";

const ADDRESS = "0x000000000000000000000000000000000000beef";
const answerOf = (id: string, rest: string) => Buffer.from(`{"jsonrpc":"2.0","id":${id}${rest}`);

test("a kept answer comes back with each caller's id, the chain's bytes after it", () => {
  const reads = new ImmutableReads();
  const key = reads.keyOf({ id: 1, method: "eth_getBalance", params: [ADDRESS, "0x1f"] })!;
  reads.keep(key, 1, reads.generation, answerOf("1", ',"result":"0x10"}'));
  expect(reads.answer(key, 42)?.toString()).toBe('{"jsonrpc":"2.0","id":42,"result":"0x10"}');
  expect(reads.answer(key, "abc")?.toString()).toBe('{"jsonrpc":"2.0","id":"abc","result":"0x10"}');
});

test("nothing is kept from an error, a null, another id's answer, or across a change", () => {
  const reads = new ImmutableReads();
  const key = reads.keyOf({ id: 1, method: "eth_getStorageAt", params: [ADDRESS, "0x0", "0x2"] })!;
  reads.keep(key, 1, reads.generation, answerOf("1", ',"error":{"code":-32602,"message":"BlockOutOfRangeError"}}'));
  reads.keep(key, 1, reads.generation, answerOf("1", ',"result":null}'));
  reads.keep(key, 1, reads.generation, answerOf("2", ',"result":"0x1"}'));
  const asked = reads.generation;
  reads.changed();
  reads.keep(key, 1, asked, answerOf("1", ',"result":"0x1"}'));
  expect(reads.answer(key, 1)).toBeUndefined();
  reads.keep(key, 1, reads.generation, answerOf("1", ',"result":"0x1"}'));
  expect(reads.answer(key, 1)).toBeDefined();
  reads.changed();
  expect(reads.answer(key, 1)).toBeUndefined();
});

test("only reads pinned to a block number, with ids the chain writes as JSON.stringify does, have a key", () => {
  const reads = new ImmutableReads();
  for (const block of ["latest", "pending", "0x01", "0X1", `0x${"ab".repeat(32)}`, { blockNumber: "0x1" }, 1]) {
    expect(reads.keyOf({ id: 1, method: "eth_getBalance", params: [ADDRESS, block] })).toBeNull();
  }
  expect(reads.keyOf({ id: 1, method: "eth_getBalance", params: [ADDRESS] })).toBeNull();
  expect(reads.keyOf({ id: 1, method: "eth_call", params: [{ to: ADDRESS }, "0x1"] })).toBeNull();
  for (const id of [-1, 1.5, null, 'a"b', "a\\b", "é", true]) {
    expect(reads.keyOf({ id, method: "eth_getBalance", params: [ADDRESS, "0x1"] })).toBeNull();
  }
  expect(reads.keyOf({ id: 0, method: "eth_getTransactionReceipt", params: ["0x12"] })).toBeNull();
});

test("what may change state: anything but plain reads, traces and the service's own dumps", () => {
  for (const method of ["eth_getBalance", "eth_call", "debug_traceTransaction", "anvil_dumpState", "anvil_getAutomine", "net_version"]) {
    expect(mayChangeState(method)).toBe(false);
  }
  for (const method of [
    "eth_sendRawTransaction",
    "anvil_setBalance",
    "evm_revert",
    "evm_mine",
    "anvil_reset",
    "anvil_loadState",
    "anvil_setStorageAt",
    5,
  ]) {
    expect(mayChangeState(method)).toBe(true);
  }
});

test("any call and any answer: no throw, and a kept answer is only ever a result with the asked id", () => {
  fc.assert(
    fc.property(
      fc.record({
        id: fc.jsonValue(),
        method: fc.constantFrom("eth_getBalance", "eth_getStorageAt", "eth_getTransactionReceipt", "x"),
        params: fc.jsonValue(),
      }),
      fc.oneof(
        fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
        fc.tuple(fc.jsonValue(), fc.jsonValue()).map(([id, result]) => Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, result }))),
      ),
      (call, answer) => {
        const reads = new ImmutableReads();
        const key = reads.keyOf(call);
        if (key === null) return;
        reads.keep(key, call.id, reads.generation, answer);
        const kept = reads.answer(key, call.id);
        if (kept !== undefined)
          expect(kept.toString("latin1").startsWith(`{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},"result":`)).toBe(true);
      },
    ),
    { numRuns: 300 },
  );
});
