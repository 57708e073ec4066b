/**
 * The RPC URLs as a proxy that passes read-only calls through as bytes: callers' ids and batches come back as sent,
 * every state-changing call is still recorded (signed and unsigned transactions, cheatcodes, bridge relays), the
 * Public RPC still refuses what it refused, a configured per-URL limit still answers 429, the default limit lets a
 * suite's sequential calls through, and a deleted environment's remembered URLs answer 404.
 */
import { createWalletClient, encodeFunctionData, http, privateKeyToAccount, type Hex } from "./helpers/viem";
import { BRIDGE_ADDRESS } from "../lib/domain/bridge-contract";
import type { Environment, Transaction } from "../lib/api";
import { artifact, waitFor } from "./chains-host";
import { startTestService, type TestService } from "./helpers/service";
import { startServer, type RunningService } from "../lib/service/listen";
import WebSocket from "ws";

const signer = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const ALICE = "0x00000000000000000000000000000000000a11ce";
const RECIPIENT = "0x000000000000000000000000000000000000beef";
const bridge = artifact("ChainformBridge");
let service: TestService;
let environment: Environment;

type Service = Pick<RunningService, "baseUrl" | "accountSlug" | "projectSlug" | "accessKey">;
const api = (s: Service, path: string) => `${s.baseUrl}/public/v1/account/${s.accountSlug}/project/${s.projectSlug}${path}`;
async function apiCall<T>(s: Service, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(api(s, path), {
    method,
    headers: { "X-Access-Key": s.accessKey, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
const createEnvironment = (s: Service, body: unknown) => apiCall<Environment>(s, "POST", "/environments", body);
const urlOf = (e: Environment, name: "Admin RPC" | "Public RPC", index = 0) =>
  e.active_instance.vnets[index].rpcs.find((r) => r.name === name)!.url;
async function post(url: string, body: unknown): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}
const transactionsOf = (e: Environment, kind: string) =>
  apiCall<Transaction[]>(service, "GET", `/environments/${e.id}/instance/${e.active_instance.id}/transactions?kind=${kind}`);

describe("the RPC URLs", () => {
  beforeAll(async () => {
    service = await startTestService();
    environment = await createEnvironment(service, {
      display_name: "rpc proxy",
      network_configs: [
        {
          network_id: "1",
          chain_config_overrides: { chain_id: "7001" },
          accounts: [
            { address: signer.address, balance: "0x56bc75e2d63100000" },
            { address: ALICE, balance: "0x56bc75e2d63100000" },
          ],
        },
        { network_id: "8453", chain_config_overrides: { chain_id: "7002" } },
      ],
      bridge_config: { enabled: true, relay_mode: "autoRelay" },
    });
  });
  afterAll(() => service?.close());

  test("read-only calls come back with the caller's ids, single or batched, over both URLs", async () => {
    for (const url of [urlOf(environment, "Public RPC"), urlOf(environment, "Admin RPC")]) {
      const single = await post(url, { jsonrpc: "2.0", id: "my-id", method: "eth_chainId", params: [] });
      expect(single.json).toEqual({ jsonrpc: "2.0", id: "my-id", result: "0x1b59" });
      expect(single.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(Number(single.headers.get("x-svc-limit"))).toBeGreaterThan(0);
      const batch = await post(url, [
        { jsonrpc: "2.0", id: 41, method: "eth_getBalance", params: [ALICE, "latest"] },
        { jsonrpc: "2.0", id: "b", method: "eth_blockNumber" },
        { jsonrpc: "2.0", id: 41, method: "eth_chainId", params: [] },
      ]);
      expect(batch.json).toHaveLength(3);
      expect(batch.json.map((a: { id: unknown }) => a.id)).toEqual([41, "b", 41]);
      expect(batch.json[0].result).toBe("0x56bc75e2d63100000");
      expect(batch.json[2].result).toBe("0x1b59");
      // A member of the caller's own is refused, as anvil's HTTP port refuses it.
      const extra = await post(url, { jsonrpc: "2.0", id: 9, method: "eth_chainId", params: [], trace: "abc" });
      expect(extra.json).toEqual({ jsonrpc: "2.0", id: 9, error: { code: -32600, message: "Invalid request" } });
    }
  });

  test("many callers at once (their calls share writes to the chain, with ids of the service's own): each gets its own answer and id", async () => {
    const url = urlOf(environment, "Public RPC");
    const addresses = [signer.address, ALICE, RECIPIENT, "0x0000000000000000000000000000000000000001"];
    const expected = await Promise.all(
      addresses.map(
        async (address) => (await post(url, { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [address, "latest"] })).json.result,
      ),
    );
    // The same ids from different callers, string and number ids, calls with spaces and in another member order.
    const calls = Array.from({ length: 200 }, (_, i) => {
      const id = i % 3 === 0 ? i % 7 : i % 3 === 1 ? `caller-${i % 5}` : 0;
      const address = addresses[i % addresses.length];
      const text =
        i % 2 === 0
          ? JSON.stringify({ jsonrpc: "2.0", id, method: "eth_getBalance", params: [address, "latest"] })
          : `{ "params": [ "${address}", "latest" ], "method": "eth_getBalance", "id":${JSON.stringify(id)}, "jsonrpc": "2.0" }`;
      return { id, expected: expected[i % addresses.length], text };
    });
    const answers = await Promise.all(calls.map((c) => post(url, c.text)));
    expect(answers.map((a) => a.json)).toEqual(calls.map((c) => ({ jsonrpc: "2.0", id: c.id, result: c.expected })));
  });

  test("over WebSocket: reads come back as text frames with the caller's ids; a cheatcode is recorded", async () => {
    const socket = new WebSocket(urlOf(environment, "Admin RPC").replace(/^http/, "ws"));
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    const ask = (body: unknown) =>
      new Promise<{ text: string; binary: boolean }>((resolve) => {
        socket.once("message", (data, binary) => resolve({ text: data.toString(), binary }));
        socket.send(JSON.stringify(body));
      });
    try {
      const read = await ask({ jsonrpc: "2.0", id: "ws-1", method: "eth_chainId", params: [] });
      expect(read.binary).toBe(false);
      expect(JSON.parse(read.text)).toEqual({ jsonrpc: "2.0", id: "ws-1", result: "0x1b59" });
      const batch = JSON.parse(
        (
          await ask([
            { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" },
            { jsonrpc: "2.0", id: 2, method: "eth_chainId" },
          ])
        ).text,
      );
      expect(batch.map((a: { id: number }) => a.id)).toEqual([1, 2]);
      const before = (await transactionsOf(environment, "cheatcode")).length;
      const set = JSON.parse(
        (await ask({ jsonrpc: "2.0", id: 3, method: "anvil_setBalance", params: ["0x000000000000000000000000000000000000c0de", "0x7"] }))
          .text,
      );
      expect(set).toMatchObject({ id: 3, result: null });
      const after = await transactionsOf(environment, "cheatcode");
      expect(after).toHaveLength(before + 1);
      expect(after.map((t) => t.rpc_method)).toContain("anvil_setBalance");
    } finally {
      socket.close();
    }
  });

  test("over WebSocket, many calls at once on several connections (they share writes to the chain): each answer has its caller's id and result; the Public one still refuses a cheatcode", async () => {
    const url = urlOf(environment, "Public RPC").replace(/^http/, "ws");
    const addresses = [signer.address, ALICE, RECIPIENT, "0x0000000000000000000000000000000000000001"];
    const expected = await Promise.all(
      addresses.map(
        async (address) =>
          (await post(urlOf(environment, "Public RPC"), { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [address, "latest"] }))
            .json.result,
      ),
    );
    const sockets = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<WebSocket>((resolve, reject) => {
            const socket = new WebSocket(url);
            socket.once("open", () => resolve(socket)).once("error", reject);
          }),
      ),
    );
    try {
      // Each connection sends 50 calls without waiting, with the same ids as the others (string and number ids, and
      // calls written in another member order); the 20th is a cheatcode the Public RPC refuses.
      const results = await Promise.all(
        sockets.map((socket, s) => {
          const calls = Array.from({ length: 50 }, (_, i) => {
            const id = i % 2 === 0 ? i : `call-${i}`;
            const address = addresses[(i + s) % addresses.length];
            const text =
              i === 20
                ? JSON.stringify({ jsonrpc: "2.0", id, method: "anvil_setBalance", params: [address, "0x1"] })
                : i % 3 === 0
                  ? `{ "params": [ "${address}", "latest" ], "method": "eth_getBalance", "id":${JSON.stringify(id)}, "jsonrpc": "2.0" }`
                  : JSON.stringify({ jsonrpc: "2.0", id, method: "eth_getBalance", params: [address, "latest"] });
            return { id, text, expected: expected[(i + s) % addresses.length] };
          });
          return new Promise<{ calls: typeof calls; answers: Map<unknown, any> }>((resolve) => {
            const answers = new Map<unknown, any>();
            socket.on("message", (data) => {
              const answer = JSON.parse(data.toString());
              answers.set(answer.id, answer);
              if (answers.size === calls.length) resolve({ calls, answers });
            });
            for (const c of calls) socket.send(c.text);
          });
        }),
      );
      for (const { calls, answers } of results) {
        for (const [i, c] of calls.entries()) {
          if (i === 20) expect(answers.get(c.id)).toMatchObject({ id: c.id, error: { code: -32601 } });
          else expect(answers.get(c.id)).toEqual({ jsonrpc: "2.0", id: c.id, result: c.expected });
        }
      }
    } finally {
      for (const socket of sockets) socket.close();
    }
    // The refused cheatcode changed nothing.
    expect(
      (await post(urlOf(environment, "Public RPC"), { jsonrpc: "2.0", id: 2, method: "eth_getBalance", params: [ALICE, "latest"] })).json
        .result,
    ).toBe(expected[1]);
  });

  test("the Public RPC refuses what it refused, alone or inside a batch of reads", async () => {
    const url = urlOf(environment, "Public RPC");
    expect((await post(url, { jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: [ALICE, "0x1"] })).json.error.code).toBe(-32601);
    expect((await post(url, { jsonrpc: "2.0", id: 2, method: "tenderly_setBalance", params: [[ALICE], "0x1"] })).json.error.code).toBe(
      -32601,
    );
    expect((await post(url, { jsonrpc: "2.0", id: 3, method: "eth_accounts", params: [] })).json).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: [],
    });
    const send = await post(url, {
      jsonrpc: "2.0",
      id: 4,
      method: "eth_sendTransaction",
      params: [{ from: ALICE, to: RECIPIENT, value: "0x1" }],
    });
    expect(send.json.error).toMatchObject({ code: -32000, message: expect.stringContaining("unknown account") });
    const batch = await post(url, [
      { jsonrpc: "2.0", id: 5, method: "eth_getBalance", params: [ALICE, "latest"] },
      { jsonrpc: "2.0", id: 6, method: "evm_mine", params: [] },
      { jsonrpc: "2.0", id: 7, method: "eth_accounts" },
    ]);
    expect(batch.json[0]).toEqual({ jsonrpc: "2.0", id: 5, result: "0x56bc75e2d63100000" });
    expect(batch.json[1]).toMatchObject({ id: 6, error: { code: -32601 } });
    expect(batch.json[2]).toEqual({ jsonrpc: "2.0", id: 7, result: [] });
    // The Admin RPC asks the chain instead.
    expect(
      Array.isArray((await post(urlOf(environment, "Admin RPC"), { jsonrpc: "2.0", id: 8, method: "eth_accounts" })).json.result),
    ).toBe(true);
  });

  test("every state-changing call is recorded: signed and unsigned transactions, cheatcodes inside batches of reads", async () => {
    const wallet = createWalletClient({ account: signer, transport: http(urlOf(environment, "Public RPC")), chain: undefined });
    const signedHash = await wallet.sendTransaction({ to: RECIPIENT as Hex, value: 1n, chain: null });
    const admin = urlOf(environment, "Admin RPC");
    const unsigned = await post(admin, {
      jsonrpc: "2.0",
      id: 1,
      method: "eth_sendTransaction",
      params: [{ from: ALICE, to: RECIPIENT, value: "0x2" }],
    });
    const batch = await post(admin, [
      { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [RECIPIENT, "latest"] },
      { jsonrpc: "2.0", id: 2, method: "tenderly_setBalance", params: [[RECIPIENT], "0x64"] },
      { jsonrpc: "2.0", id: 3, method: "eth_getBalance", params: [RECIPIENT, "latest"] },
      { jsonrpc: "2.0", id: 4, method: "anvil_setNonce", params: [RECIPIENT, "0x5"] },
    ]);
    expect(batch.json.map((a: { id: number }) => a.id)).toEqual([1, 2, 3, 4]);
    expect(batch.json[0].result).toBe("0x3");
    expect(batch.json[2].result).toBe("0x64");
    const mined = await transactionsOf(environment, "blockchain");
    expect(mined.map((t) => t.tx_hash)).toEqual(expect.arrayContaining([signedHash, unsigned.json.result]));
    expect(mined.find((t) => t.tx_hash === signedHash)).toMatchObject({ origin: "rpc", rpc_method: "eth_sendRawTransaction" });
    const cheatcodes = await transactionsOf(environment, "cheatcode");
    expect(cheatcodes.map((t) => t.rpc_method)).toEqual(expect.arrayContaining(["tenderly_setBalance", "anvil_setNonce"]));
  });

  test("a bridge deposit sent through the Admin RPC is relayed and recorded", async () => {
    const data = encodeFunctionData({ abi: bridge.abi, functionName: "deposit", args: [7002n, RECIPIENT as Hex] });
    const sent = await post(urlOf(environment, "Admin RPC"), {
      jsonrpc: "2.0",
      id: 1,
      method: "eth_sendTransaction",
      params: [{ from: ALICE, to: BRIDGE_ADDRESS, value: "0xde0b6b3a7640000", data }],
    });
    expect(sent.json.result).toMatch(/^0x[0-9a-f]{64}$/);
    const balance = await post(urlOf(environment, "Public RPC", 1), {
      jsonrpc: "2.0",
      id: 2,
      method: "eth_getBalance",
      params: [RECIPIENT, "latest"],
    });
    expect(BigInt(balance.json.result)).toBe(10n ** 18n);
    const relays = (await transactionsOf(environment, "blockchain")).filter((t) => t.origin === "bridge");
    expect(relays).toHaveLength(1);
  });

  test("a configured per-URL limit still answers 429 with the spec's body; other URLs keep their own count", async () => {
    const limited = await startTestService({ rateLimits: { rpcLimit: 3 } });
    try {
      const e = await createEnvironment(limited, { display_name: "limited", network_configs: [{ network_id: "1" }] });
      const url = urlOf(e, "Public RPC");
      const answers = [];
      for (let i = 0; i < 4; i += 1) answers.push(await post(url, { jsonrpc: "2.0", id: i, method: "eth_blockNumber" }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(answers.map((a) => Number(a.headers.get("x-svc-remaining")))).toEqual([2, 1, 0, 0]);
      expect(answers[3].json.error).toMatchObject({ slug: "too_many_requests" });
      expect((await post(urlOf(e, "Admin RPC"), { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  test("the default per-URL limit lets more sequential calls through than the old 6,000 a minute", async () => {
    const defaults = await startServer({ dataDir: null, port: 0 });
    try {
      const e = await createEnvironment(defaults, { display_name: "defaults", network_configs: [{ network_id: "1" }] });
      const url = urlOf(e, "Public RPC");
      const statuses = new Map<number, number>();
      for (let i = 0; i < 6_100; i += 1) {
        const { status } = await post(url, { jsonrpc: "2.0", id: i, method: "eth_blockNumber" });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      expect([...statuses]).toEqual([[200, 6_100]]);
    } finally {
      await defaults.close();
    }
  });

  test("a deleted environment's URLs, seen before, answer 404 at once", async () => {
    const e = await createEnvironment(service, { display_name: "to delete", network_configs: [{ network_id: "1" }] });
    const urls = [urlOf(e, "Admin RPC"), urlOf(e, "Public RPC")];
    for (const url of urls) expect((await post(url, { jsonrpc: "2.0", id: 1, method: "eth_chainId" })).status).toBe(200);
    await apiCall(service, "DELETE", `/environments/${e.id}`);
    for (const url of urls) {
      const gone = await post(url, { jsonrpc: "2.0", id: 1, method: "eth_chainId" });
      expect(gone.status).toBe(404);
      expect(gone.json.error.data.rid).toBe("rid:vnet");
      expect(gone.text).not.toContain(urls[0].split("/").pop()!);
      expect((await post(url, "{not json")).status).toBe(404);
    }
    await waitFor(async () => (await post(urls[1], [{ jsonrpc: "2.0", id: 1, method: "eth_chainId" }])).status === 404, 5_000, "404");
  });
});
