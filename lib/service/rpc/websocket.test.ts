/**
 * The WebSocket RPC URLs with real anvil chains and viem's webSocket transport: new blocks and logs through the
 * Public websocket RPC, admin methods refused there as over HTTP, and unknown URLs refused with the spec's body.
 */
import { startTestService, type TestService } from "../../../test/helpers/service";
import { call } from "../../../test/helpers/http";
import { artifact } from "../../../test/chains-host";
import { createPublicClient, encodeFunctionData, http, type Hex } from "../../../test/helpers/viem";
import WebSocket from "ws";
import { NoChainEngine } from "../no-chain-engine";
const { webSocket } = require("viem") as typeof import("viem", { with: { "resolution-mode": "import" } });

let service: TestService;
let rpcs: Record<string, string>;
const RICH = "0x00000000000000000000000000000000000a11ce";
const token = artifact("ProbeToken");

beforeAll(async () => {
  service = await startTestService();
  const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
    as: "alice",
    body: {
      display_name: "websockets",
      network_configs: [{ network_id: "1", accounts: [{ address: RICH, balance: "0xde0b6b3a7640000" }] }],
    },
  });
  rpcs = Object.fromEntries(created.body.active_instance.vnets[0].rpcs.map((r: { name: string; url: string }) => [r.name, r.url]));
});
afterAll(() => service.close());

/** A call over the Admin RPC (HTTP), where cheatcodes and impersonated sends are allowed. */
async function admin<T>(method: string, params: unknown[] = []): Promise<T> {
  const answer = (await (
    await fetch(rpcs["Admin RPC"], { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })
  ).json()) as { result: T };
  return answer.result;
}

/** Sends one JSON-RPC request on a raw WebSocket and waits for its answer. */
function once(url: string, request: object): Promise<any> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on("open", () => socket.send(JSON.stringify(request)));
    socket.on("message", (data) => {
      resolve(JSON.parse(data.toString()));
      socket.close();
    });
    socket.on("error", reject);
  });
}

test("every vnet lists its WebSocket RPCs: the HTTP URLs with ws://", () => {
  expect(rpcs["Public websocket RPC"]).toBe(rpcs["Public RPC"].replace(/^http/, "ws"));
  expect(rpcs["Admin websocket RPC"]).toBe(rpcs["Admin RPC"].replace(/^http/, "ws"));
});

test("viem's webSocket transport watches new blocks through the Public websocket RPC", async () => {
  const client = createPublicClient({ transport: webSocket(rpcs["Public websocket RPC"]) });
  expect(await client.getChainId()).toBe(1);
  const seen: bigint[] = [];
  const arrived = new Promise<void>((resolve) => {
    const unwatch = client.watchBlocks({
      onBlock: (block) => {
        seen.push(block.number!);
        unwatch();
        resolve();
      },
    });
  });
  // The subscription is open once eth_subscribe answered; mine until a block arrives.
  const start = BigInt(await admin<string>("eth_blockNumber"));
  while (seen.length === 0) {
    await admin("evm_mine");
    await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 200))]);
  }
  expect(seen[0]).toBeGreaterThan(start);
  await client.transport.getRpcClient().then((rpc: { close(): void }) => rpc.close());
}, 60_000);

test("viem's watchContractEvent gets logs through the Public websocket RPC", async () => {
  const hash = await admin<Hex>("eth_sendTransaction", [{ from: RICH, data: token.bytecode }]);
  const receipt = await createPublicClient({ transport: http(rpcs["Public RPC"]) }).waitForTransactionReceipt({ hash });
  const address = receipt.contractAddress!;
  const client = createPublicClient({ transport: webSocket(rpcs["Public websocket RPC"]) });
  const logs: { args: { to?: string; value?: bigint } }[] = [];
  const arrived = new Promise<void>((resolve) => {
    const unwatch = client.watchContractEvent({
      address,
      abi: token.abi,
      eventName: "Transfer",
      onLogs: (found) => {
        logs.push(...(found as never[]));
        unwatch();
        resolve();
      },
    });
  });
  const mint = encodeFunctionData({ abi: token.abi, functionName: "mint", args: [RICH, 7n] });
  while (logs.length === 0) {
    await admin("eth_sendTransaction", [{ from: RICH, to: address, data: mint }]);
    await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 300))]);
  }
  expect(logs[0].args.to?.toLowerCase()).toBe(RICH);
  expect(logs[0].args.value).toBe(7n);
  await client.transport.getRpcClient().then((rpc: { close(): void }) => rpc.close());
}, 60_000);

test("the Public websocket RPC refuses admin methods and unknown subscriptions; the Admin one runs them", async () => {
  const refused = await once(rpcs["Public websocket RPC"], { jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: [RICH, "0x1"] });
  expect(refused).toMatchObject({ id: 1, error: { code: -32601 } });
  expect(await once(rpcs["Public websocket RPC"], { jsonrpc: "2.0", id: 2, method: "eth_accounts" })).toEqual({
    jsonrpc: "2.0",
    id: 2,
    result: [],
  });
  const odd = await once(rpcs["Public websocket RPC"], { jsonrpc: "2.0", id: 3, method: "eth_subscribe", params: ["syncing"] });
  expect(odd).toMatchObject({ id: 3, error: { code: -32602 } });
  expect(
    await once(rpcs["Admin websocket RPC"], { jsonrpc: "2.0", id: 4, method: "anvil_setBalance", params: [RICH, "0x2"] }),
  ).toMatchObject({ id: 4, result: null });
});

test("an unknown WebSocket RPC URL is refused with the spec's 404 body", async () => {
  const status = await new Promise<number>((resolve) => {
    const socket = new WebSocket(`${rpcs["Public websocket RPC"].replace(/[^/]+$/, "")}00000000-0000-4000-8000-000000000000`);
    socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
    socket.on("error", () => undefined);
  });
  expect(status).toBe(404);
});

test("calls on a WebSocket RPC URL count against that URL's rate limit, as over HTTP", async () => {
  const limited = await startTestService({ createChainEngine: () => new NoChainEngine(), rateLimits: { rpcLimit: 3 } });
  try {
    const created = await call(limited, "POST", "/public/v1/account/acme/project/demo/environments", {
      as: "alice",
      body: { display_name: "limited", network_configs: [{ network_id: "1" }] },
    });
    const url = created.body.active_instance.vnets[0].rpcs.find((r: { name: string }) => r.name === "Public websocket RPC").url;
    const answers = await new Promise<any[]>((resolve, reject) => {
      const socket = new WebSocket(url); // the upgrade counts once
      const got: any[] = [];
      socket.on("open", () => {
        for (let id = 1; id <= 3; id++) socket.send(JSON.stringify({ jsonrpc: "2.0", id, method: "eth_chainId" }));
      });
      socket.on("message", (data) => {
        got.push(JSON.parse(data.toString()));
        if (got.length === 3) {
          socket.close();
          resolve(got.sort((a, b) => a.id - b.id));
        }
      });
      socket.on("error", reject);
    });
    expect(answers.map((a) => a.error.code)).toEqual([-32000, -32000, -32005]);
    // Over HTTP the same URL is now out of calls too.
    const http = await fetch(url.replace(/^ws/, "http"), {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
    });
    expect(http.status).toBe(429);
  } finally {
    await limited.close();
  }
});
