/**
 * An upstream that stands in for a real network in fork tests and benchmarks: an anvil with chain id 1 on which
 * contracts/ChainformToken.sol is deployed and balances change over several blocks through real transactions (anvil
 * keeps no per-block history for cheatcode writes), behind a small front that counts the methods it receives, can
 * add latency (as a hosted RPC would) and carries a fake API key in its URL (so tests can look for it in answers).
 *
 * @example
 * const upstream = await startForkUpstream();
 * const service = await startTestService({ forkUrls: { "1": upstream.url } });
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAnvilBackend } from "../../lib/service/chains";
import type { ChainNode } from "../../lib/service/chains";
import { encodeDeployData, encodeFunctionData } from "./viem";

/** The token's deployer: it mints 1000 tokens to itself. */
export const DEPLOYER = "0x00000000000000000000000000000000000de910";
export const ALICE = "0x00000000000000000000000000000000000a11ce";
export const BOB = "0x0000000000000000000000000000000000000b0b";
/** The fake API key in the upstream's URL: it must never show in an answer, an error or a log. */
export const UPSTREAM_SECRET = "sk-upstream-4d1f9c2e7b";

/** The ChainformToken artifact the build writes. */
export const TOKEN = JSON.parse(readFileSync(join(__dirname, "..", "..", "dist", "contracts", "ChainformToken.json"), "utf8")) as {
  abi: any[];
  bytecode: `0x${string}`;
};

/** What the upstream went through, block by block: balances are as of the end of each block. */
export interface UpstreamHistory {
  readonly token: `0x${string}`;
  /** The block of the deployment (DEPLOYER holds 1000). */
  readonly deployBlock: bigint;
  /** DEPLOYER → ALICE 100: at this block ALICE holds 100, BOB 0. */
  readonly aliceFunded: bigint;
  /** DEPLOYER → BOB 50, then DEPLOYER → ALICE 200 (ALICE 300, BOB 50), in later blocks. */
  readonly bobFunded: bigint;
  readonly aliceTopped: bigint;
  /** The head after a few empty blocks. */
  readonly head: bigint;
}

/** A running upstream. */
export interface ForkUpstream {
  /** The front's URL, with the fake API key in its path. */
  readonly url: string;
  readonly history: UpstreamHistory;
  /** Every method the upstream received through its front, in order. */
  readonly methods: string[];
  /** Latency added to every request, in ms (change it at any time). */
  delayMs: number;
  /** The chain behind the front. */
  readonly node: ChainNode;
  /**
   * Makes the front answer the next `times` calls of `method` with `answer` (a `{ result }` or an `{ error }`) in place
   * of the chain's: a lagging or broken node behind a balancer.
   */
  misanswer(method: string, answer: { result: unknown } | { error: { code: number; message: string } }, times?: number): void;
  /** Stops the front and the chain: the upstream is gone. */
  close(): Promise<void>;
}

/** Starts the upstream, deploys the token and changes balances over several blocks, then mines empty ones. */
export async function startForkUpstream(options: { delayMs?: number; emptyBlocks?: number } = {}): Promise<ForkUpstream> {
  const node = await createAnvilBackend().start({ chainId: 1n, statePath: null });
  const rpc = node.rpc;
  await rpc.request("anvil_setBalance", [DEPLOYER, "0x56bc75e2d63100000"]);
  const send = async (tx: Record<string, string>) => {
    const receipt = await rpc.request<{ status: string; blockNumber: string; contractAddress: string | null }>("eth_sendTransactionSync", [
      { from: DEPLOYER, gas: "0x300000", ...tx },
    ]);
    if (receipt.status !== "0x1") throw new Error(`upstream set-up transaction failed: ${JSON.stringify(tx)}`);
    return receipt;
  };
  const transfer = (to: string, amount: bigint) =>
    send({ to: token, data: encodeFunctionData({ abi: TOKEN.abi, functionName: "transfer", args: [to, amount] }) });
  const deployed = await send({
    data: encodeDeployData({ abi: TOKEN.abi, bytecode: TOKEN.bytecode, args: ["Upstream Token", "UPT", 18, 1000n] }),
  });
  const token = deployed.contractAddress as `0x${string}`;
  const aliceFunded = BigInt((await transfer(ALICE, 100n)).blockNumber);
  const bobFunded = BigInt((await transfer(BOB, 50n)).blockNumber);
  const aliceTopped = BigInt((await transfer(ALICE, 200n)).blockNumber);
  // Empty blocks at the end: 3 by default; a benchmark asks for a few hundred, as many as BLOCKHASH reaches.
  await rpc.request("anvil_mine", [`0x${(options.emptyBlocks ?? 3).toString(16)}`]);
  const head = BigInt(await rpc.request<string>("eth_blockNumber"));

  const methods: string[] = [];
  const upstream = { delayMs: options.delayMs ?? 0 };
  const misanswers: { method: string; answer: Record<string, unknown>; times: number }[] = [];
  /** The answer the front gives a call: a misanswer while one is due, else the chain's. */
  const answerOf = (call: { method: string; id?: unknown }, chains: unknown) => {
    const due = misanswers.find((m) => m.method === call.method && m.times > 0);
    if (!due) return chains;
    due.times -= 1;
    return { jsonrpc: "2.0", id: call.id ?? null, ...due.answer };
  };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.url !== `/v2/${UPSTREAM_SECRET}`) {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { method: string } | { method: string }[];
    for (const call of Array.isArray(body) ? body : [body]) methods.push(call.method);
    if (upstream.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, upstream.delayMs));
    let answer: string;
    try {
      const chains = await rpc.batch(Array.isArray(body) ? (body as never) : [body as never]);
      answer = JSON.stringify(
        Array.isArray(body) ? body.map((call, i) => answerOf(call, (chains as unknown[])[i])) : answerOf(body, (chains as unknown[])[0]),
      );
    } catch {
      response.destroy(); // the upstream is closing: a call in flight gets no answer, as from a node going down
      return;
    }
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
    response.end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(upstream, {
    url: `http://127.0.0.1:${port}/v2/${UPSTREAM_SECRET}`,
    history: { token, deployBlock: BigInt(deployed.blockNumber), aliceFunded, bobFunded, aliceTopped, head },
    methods,
    node,
    misanswer(method: string, answer: Record<string, unknown>, times = 1) {
      misanswers.push({ method, answer, times });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await node.kill();
    },
  });
}
