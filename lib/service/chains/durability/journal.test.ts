/**
 * The write journal's rows (./journal.ts) and which answered calls go in it (./recovery.ts), on the service's own
 * database schema.
 */
import { openDatabase } from "../../store/database";
import { ChainJournal } from "./journal";
import { isJournaled, journalCall } from "./recovery";
import type { JsonRpcRequest, JsonRpcResponse } from "../types";

const call = (method: string, params: unknown[] = []): JsonRpcRequest => ({ jsonrpc: "2.0", id: 1, method, params });
const ok = (result: unknown): JsonRpcResponse => ({ jsonrpc: "2.0", id: 1, result });
const failed: JsonRpcResponse = { jsonrpc: "2.0", id: 1, error: { code: -32000, message: "no" } };

test("calls and blocks come back in order, per vnet; a clear forgets them; the genesis timestamp stays until forgotten", () => {
  const db = openDatabase(":memory:");
  const journal = new ChainJournal(db);
  journal.append("a", [{ method: "tenderly_setBalance", params: ["0x01", "0x2"] }], []);
  journal.append(
    "a",
    [{ method: "eth_sendTransaction", params: [{ from: "0x01" }], txHash: "0xaa", mined: true }],
    [{ number: 5n, timestamp: 1700000000, baseFee: "0x7", hash: "0xbb" }],
  );
  journal.append("b", [{ method: "evm_mine", params: [] }], [{ number: 1n, timestamp: 1, hash: "0xcc" }]);
  journal.keepGenesisTimestamp("a", 1600000000);
  journal.keepGenesisTimestamp("a", 1); // the first kept stays

  expect(journal.calls("a")).toEqual([
    { method: "tenderly_setBalance", params: ["0x01", "0x2"] },
    { method: "eth_sendTransaction", params: [{ from: "0x01" }], txHash: "0xaa", mined: true },
  ]);
  expect([...journal.blocks("a").values()]).toEqual([{ number: 5n, timestamp: 1700000000, baseFee: "0x7", hash: "0xbb" }]);
  expect(journal.count("a")).toBe(2);
  expect(journal.count("b")).toBe(1);

  expect(journal.vnetIds().sort()).toEqual(["a", "b"]);
  journal.clear("a");
  expect(journal.calls("a")).toEqual([]);
  expect(journal.blocks("a").size).toBe(0);
  expect(journal.calls("b")).toHaveLength(1);
  expect(journal.genesisTimestamp("a")).toBe(1600000000);
  journal.forget("a");
  expect(journal.genesisTimestamp("a")).toBeUndefined();
  db.close();
});

test("a generation names the last row a saved state holds: later rows come after it, and a clear through it keeps them", () => {
  const db = openDatabase(":memory:");
  const journal = new ChainJournal(db);
  expect(journal.generation("a")).toBe(0);
  journal.append("a", [{ method: "evm_mine", params: [] }], [{ number: 1n, timestamp: 1, hash: "0x01" }]);
  journal.append("b", [{ method: "evm_mine", params: [] }], []);
  journal.append("a", [{ method: "tenderly_addBalance", params: ["0x01", "0x1"] }], []);
  const saved = journal.generation("a");
  expect(saved).toBeGreaterThan(journal.generation("b"));
  // a write after the save: the replay from the saved state applies it alone
  journal.append("a", [{ method: "tenderly_addBalance", params: ["0x01", "0x2"] }], [{ number: 2n, timestamp: 2, hash: "0x02" }]);
  expect(journal.calls("a", saved)).toEqual([{ method: "tenderly_addBalance", params: ["0x01", "0x2"] }]);
  journal.clearThrough("a", saved);
  expect(journal.calls("a")).toEqual([{ method: "tenderly_addBalance", params: ["0x01", "0x2"] }]);
  expect(journal.blocks("a").size).toBe(2); // a row is left: its blocks are kept
  expect(journal.count("b")).toBe(1);
  // numbers are never handed out again, not even the greatest deleted one
  const last = journal.generation("a");
  journal.clearThrough("a", last);
  expect(journal.blocks("a").size).toBe(0);
  journal.append("a", [{ method: "evm_mine", params: [] }], []);
  expect(journal.generation("a")).toBeGreaterThan(last);
  db.close();
});

test("journaled: answered writes and cheatcodes; not reads, errors, or calls that change nothing", () => {
  expect(isJournaled(call("tenderly_setBalance"), ok(null))).toBe(true);
  expect(isJournaled(call("eth_sendRawTransaction"), ok("0xaa"))).toBe(true);
  expect(isJournaled(call("evm_snapshot"), ok("0x0"))).toBe(true);
  expect(isJournaled(call("anvil_impersonateAccount"), ok(null))).toBe(true);
  expect(isJournaled(call("tenderly_setBalance"), failed)).toBe(false);
  expect(isJournaled(call("eth_getBalance"), ok("0x1"))).toBe(false);
  expect(isJournaled(call("eth_call"), ok("0x"))).toBe(false);
  expect(isJournaled(call("anvil_dumpState"), ok("0x00"))).toBe(false);
  expect(isJournaled(call("eth_sign"), ok("0x00"))).toBe(false);
});

test("a send's entry keeps its hash (from a hash or a receipt) and whether it was mined", () => {
  expect(journalCall(call("eth_sendTransaction", [{ from: "0x01" }]), ok("0xAA"), new Set(["0xaa"]))).toEqual({
    method: "eth_sendTransaction",
    params: [{ from: "0x01" }],
    txHash: "0xAA",
    mined: true,
  });
  expect(journalCall(call("eth_sendRawTransaction", ["0x02"]), ok("0xbb"))).toEqual({
    method: "eth_sendRawTransaction",
    params: ["0x02"],
    txHash: "0xbb",
  });
  expect(journalCall(call("eth_sendTransactionSync", [{}]), ok({ transactionHash: "0xcc" }))).toMatchObject({ txHash: "0xcc" });
  expect(journalCall(call("evm_mine"), ok("0x0"))).toEqual({ method: "evm_mine", params: [] });
});
