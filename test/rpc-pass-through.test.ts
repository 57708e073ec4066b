/**
 * Which calls the RPC proxy passes to the chain as bytes (no recording, no refusal, an id the chain echoes), and the
 * `serve --rpc-rate-limit` setting.
 */
import { passesThrough } from "../lib/service/chains/calls/rpc-proxy";
import serve, { rpcRateLimit } from "../lib/cli/commands/serve";
import { DEFAULT_RATE_LIMITS, RPC_LIMIT_OFF } from "../lib/service/rate-limit";
import type { JsonRpcRequest } from "../lib/service/chains";

const call = (method: string, extra: Partial<JsonRpcRequest> = {}): JsonRpcRequest => ({
  jsonrpc: "2.0",
  id: 1,
  method,
  params: [],
  ...extra,
});

test("reads the chain answers alone pass through; writes, cheatcodes, refusals and odd ids do not", () => {
  for (const method of ["eth_blockNumber", "eth_getBalance", "eth_call", "eth_getStorageAt", "eth_chainId", "net_version"]) {
    expect(passesThrough(call(method), "public")).toBe(true);
    expect(passesThrough(call(method), "admin")).toBe(true);
  }
  expect(passesThrough(call("eth_getBalance", { id: "abc" }), "public")).toBe(true);
  expect(passesThrough(call("eth_blockNumber", { params: undefined }), "public")).toBe(true);
  // Recorded, chainform's own, or answered by the proxy itself.
  for (const method of [
    "eth_sendRawTransaction",
    "eth_sendTransaction",
    "anvil_setBalance",
    "tenderly_setBalance",
    "evm_snapshot",
    "eth_sign",
  ]) {
    expect(passesThrough(call(method), "admin")).toBe(false);
  }
  expect(passesThrough(call("eth_accounts"), "public")).toBe(false);
  expect(passesThrough(call("debug_traceTransaction"), "public")).toBe(false);
  // Ids the chain might not echo byte for byte, notifications, and named params take the parsed path.
  for (const id of [null, undefined, -1, 1.5, 2 ** 60]) expect(passesThrough(call("eth_blockNumber", { id }), "public")).toBe(false);
  expect(passesThrough(call("eth_getBalance", { params: { address: "0x0" } as never }), "public")).toBe(false);
  expect(passesThrough({ ...call("eth_blockNumber"), extra: true } as JsonRpcRequest, "public")).toBe(false);
});

test("a method's verdict is the same on every call, and past the methods remembered, by access", () => {
  // Many distinct method names (callers choose them) fill what is remembered; verdicts stay right after that.
  for (let i = 0; i < 3000; i += 1) {
    expect(passesThrough(call(`eth_get${i}`), "public")).toBe(true);
    expect(passesThrough(call(`anvil_x${i}`), "public")).toBe(false);
  }
  for (let round = 0; round < 2; round += 1) {
    expect(passesThrough(call("eth_getBalance"), "public")).toBe(true);
    expect(passesThrough(call("eth_sendRawTransaction"), "public")).toBe(false);
    expect(passesThrough(call("eth_accounts"), "public")).toBe(false);
    expect(passesThrough(call("eth_accounts"), "admin")).toBe(true);
    expect(passesThrough(call("debug_traceTransaction"), "public")).toBe(false);
    expect(passesThrough(call("debug_traceTransaction"), "admin")).toBe(true);
    expect(passesThrough(call("evm_snapshot"), "admin")).toBe(false);
    expect(passesThrough(call("eth_new9999"), "public")).toBe(false);
  }
});

test("--rpc-rate-limit takes a count or off; the default is far above what a chain answers", () => {
  expect(rpcRateLimit("500")).toBe(500);
  expect(rpcRateLimit("off")).toBe(RPC_LIMIT_OFF);
  expect(() => rpcRateLimit("0")).toThrow(/--rpc-rate-limit/);
  expect(() => rpcRateLimit("many")).toThrow(/a count, or off/);
  expect(DEFAULT_RATE_LIMITS.rpcLimit).toBeGreaterThanOrEqual(60 * 100_000);
  expect(serve.usage).toMatch(/^  --rpc-rate-limit N /m);
});
