import fc from "fast-check";
import { readRpcBody } from "./body";
import { gatewayRefuses, readOnlyCalls } from "./hosted-hosts";

const METHODS = [
  "eth_chainId",
  "eth_call",
  "eth_getLogs",
  "eth_newFilter",
  "eth_subscribe",
  "net_version",
  "eth_sendRawTransaction",
  "eth_sendTransaction",
  "eth_sign",
  "anvil_setBalance",
  "evm_mine",
  "evm_revert",
  "tenderly_setBalance",
  "hardhat_setCode",
  "eth_sendUnsignedTransaction",
];

describe("gatewayRefuses", () => {
  test.each([
    ["eth_chainId", false],
    ["eth_getBalance", false],
    ["eth_newBlockFilter", false],
    ["debug_traceTransaction", false],
    ["eth_sendRawTransaction", true],
    ["eth_sendTransaction", true],
    ["anvil_impersonateAccount", true],
    ["evm_increaseTime", true],
    ["tenderly_setErc20Balance", true],
  ])("%s: %s", (method, refused) => expect(gatewayRefuses(method)).toBe(refused));
});

describe("readOnlyCalls", () => {
  test("a body of reads is left as it is, the same object", () => {
    const read = readRpcBody('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}');
    expect(readOnlyCalls(read)).toBe(read);
  });

  test("any batch: no refused method goes on, every entry with an id keeps its place and answer, nothing else changes", () => {
    const entry = fc.record(
      {
        jsonrpc: fc.constant("2.0"),
        id: fc.option(fc.nat(1000), { nil: undefined }),
        method: fc.constantFrom(...METHODS),
        params: fc.constant([]),
      },
      { requiredKeys: ["jsonrpc", "method", "params"] },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, fc.constant({ bad: true })), { minLength: 1, maxLength: 8 }), (entries) => {
        const read = readRpcBody(JSON.stringify(entries));
        const out = readOnlyCalls(read);
        if ("response" in out || "response" in read) return;
        expect(out.requests.every((r) => !gatewayRefuses(r.method))).toBe(true);
        expect(out.text).toBe(JSON.stringify(out.requests));
        expect(out.order.filter((e) => e === null)).toHaveLength(out.requests.length);
        // Entries that are answered: the invalid, every request with an id; a refused notification is dropped.
        const answered = entries.filter((e) => !("bad" in e) && (e.id !== undefined || !gatewayRefuses(e.method)));
        expect(out.order).toHaveLength(answered.length + read.invalid.length);
        for (const answer of out.order) {
          const error = answer && "error" in answer ? answer.error : undefined;
          if (error?.code === -32601)
            expect(error.message).toMatch(/^the method \w+ does not exist\/is not available: a node gateway here is read-only/);
        }
      }),
      { numRuns: 200 },
    );
  });
});
