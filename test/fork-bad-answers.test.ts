/**
 * Issue 47.10: one bad upstream answer is never recorded. The fork upstream answers badly (a `null`, a wrongly typed
 * result, a "method not found") once or twice, as a lagging node behind a balancer does; the fork's proxy asks again,
 * answers the caller the upstream's good answer or a named error, and keeps only well-formed answers, so that the next
 * read (live, and offline from the recordings) gets the upstream's value. A "method not found" the upstream confirms
 * is kept, as before: it is its lasting answer.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ForkProxy, callKey } from "../lib/service/chains/fork";
import { Recordings, recordingsPath } from "../lib/service/chains/fork/recordings";
import { Upstream } from "../lib/service/chains/fork/upstream";
import { DEPLOYER, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";

jest.setTimeout(120_000);

let upstream: ForkUpstream;
let root: string;
let block: bigint;
let at: string;
const proxies: ForkProxy[] = [];

beforeAll(async () => {
  upstream = await startForkUpstream();
  root = mkdtempSync(join(tmpdir(), "chainform-fork-bad-answers-"));
  block = upstream.history.head;
  at = `0x${block.toString(16)}`;
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.close().catch(() => undefined);
  await upstream?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A proxy over the upstream (or, with `live` false, over the recordings alone) on a cache dir of its own. */
async function proxyOn(dir: string, live = true): Promise<{ proxy: ForkProxy; recordings: Recordings }> {
  const recordings = new Recordings(recordingsPath(dir, "1", block), "1", block);
  const proxy = await ForkProxy.start({
    networkId: "1",
    block,
    recordings,
    upstream: live ? new Upstream("1", upstream.url, 30_000) : null,
  });
  proxies.push(proxy);
  return { proxy, recordings };
}

/** One call to a proxy: its result or its error. */
async function ask(
  proxy: ForkProxy,
  method: string,
  params: unknown[],
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(proxy.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

/** What the upstream's chain itself answers. */
const truth = (method: string, params: unknown[]) => upstream.node.rpc.request(method, params);

const BAD_ONCE: [string, string, (at: string) => unknown[], unknown][] = [
  ["a null balance", "eth_getBalance", (b) => [DEPLOYER, b], null],
  ["a balance that is not a hex quantity", "eth_getBalance", (b) => [DEPLOYER, b], "0xzz"],
  ["a nonce given as a number", "eth_getTransactionCount", (b) => [DEPLOYER, b], 5],
  ["code that is not hex data", "eth_getCode", (b) => [DEPLOYER, b], "0x123"],
  ["a storage word of 1 byte", "eth_getStorageAt", (b) => [DEPLOYER, "0x0", b], "0x1"],
  ["a null block (the node has not seen it yet)", "eth_getBlockByNumber", (b) => [b, false], null],
  ["a block without its hash", "eth_getBlockByNumber", (b) => [b, false], { number: "0x1" }],
];

test.each(BAD_ONCE)(
  "%s, once: asked again, the caller gets the upstream's answer and only it is kept",
  async (_name, method, params, bad) => {
    const { proxy, recordings } = await proxyOn(join(root, `once-${method}-${JSON.stringify(bad)}`));
    const args = params(at);
    upstream.misanswer(method, { result: bad }, 1);
    const answer = await ask(proxy, method, args);
    expect(answer.error).toBeUndefined();
    expect(answer.result).toEqual(await truth(method, args));
    expect(recordings.get(callKey(method, args))).toEqual({ result: answer.result });
  },
);

test.each(BAD_ONCE)(
  "%s, twice: not kept; the next read gets the upstream's answer, live and offline",
  async (_name, method, params, bad) => {
    const dir = join(root, `twice-${method}-${JSON.stringify(bad)}`);
    const { proxy, recordings } = await proxyOn(dir);
    const args = params(at);
    upstream.misanswer(method, { result: bad }, 2);
    const first = await ask(proxy, method, args);
    // A block's null means "not yet": answered as the upstream said it, never kept. Anything else is a named error.
    if (method === "eth_getBlockByNumber" && bad === null) expect(first.result).toBeNull();
    else {
      const named = `^${method} .*: the upstream of network 1 answered ${method} with (null|something that is not .*); nothing was recorded$`;
      expect(first.error?.message).toMatch(new RegExp(named));
    }
    expect(recordings.has(callKey(method, args))).toBe(false);
    const second = await ask(proxy, method, args);
    expect(second.result).toEqual(await truth(method, args));
    recordings.flush();
    const offline = await proxyOn(dir, false);
    expect((await ask(offline.proxy, method, args)).result).toEqual(await truth(method, args));
  },
);

test("a -32601 from one node is not kept; one the upstream confirms is, as its lasting answer", async () => {
  const { proxy, recordings } = await proxyOn(join(root, "not-found"));
  const args = [DEPLOYER, at];
  const notFound = { error: { code: -32601, message: "the method eth_getAccountInfo does not exist/is not available" } };
  upstream.misanswer("eth_getAccountInfo", notFound, 1);
  const once = await ask(proxy, "eth_getAccountInfo", args);
  expect(once.result).toEqual(await truth("eth_getAccountInfo", args));
  expect(recordings.get(callKey("eth_getAccountInfo", args))).toEqual({ result: once.result });

  const slot = [DEPLOYER, "0x1", at];
  upstream.misanswer("eth_getStorageAt", notFound, 2);
  const confirmed = await ask(proxy, "eth_getStorageAt", slot);
  expect(confirmed.error?.code).toBe(-32601);
  expect(recordings.get(callKey("eth_getStorageAt", slot))).toEqual({ error: notFound.error });
});

test("an upstream error other than -32601 (a revert) is answered, asked once, and never kept", async () => {
  const { proxy, recordings } = await proxyOn(join(root, "revert"));
  const before = upstream.methods.length;
  const call = [{ to: upstream.history.token, data: "0xdeadbeef" }, at];
  const answer = await ask(proxy, "eth_call", call);
  expect(answer.error).toBeDefined();
  expect(upstream.methods.length - before).toBe(1);
  expect(recordings.has(callKey("eth_call", call))).toBe(false);
});
