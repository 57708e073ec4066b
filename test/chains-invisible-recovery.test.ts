/**
 * Recovery is invisible to callers (docs/service.md "Running chains"): 20 `kill -9` of a vnet's anvil while three
 * clients at once (viem with signed transactions, cast with the chain's unlocked account, raw HTTP with Admin RPC
 * cheatcodes) read and write through the Admin RPC URL. No caller gets an error, no write runs twice (each write adds
 * to an address of its own: twice would show double), nothing acknowledged is lost, no message names a server path,
 * and nothing is logged at error level.
 */
import { rmSync } from "node:fs";
import { createAnvilEngine, type BackendChainEngine } from "../lib/service/chains";
import type { ChainLog } from "../lib/service/chains";
import { temporaryDataDir } from "./chains-host";
import { runCast } from "./helpers/cast";
import { adminRpc, call, rpc } from "./helpers/http";
import { ENVIRONMENTS, type CreatedEnvironment } from "./helpers/fixtures";
import { startTestService, type TestService } from "./helpers/service";
import { createPublicClient, createWalletClient, http, privateKeyToAccount, type Hex } from "./helpers/viem";

jest.setTimeout(300_000);

const KILLS = 20;
const SIGNER = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const UNLOCKED = "0x00000000000000000000000000000000000ca570";
const FUNDS = `0x${(10n ** 24n).toString(16)}`;

const dataDir = temporaryDataDir();
const errors: string[] = [];
const log: ChainLog = { error: (_fields, message) => errors.push(message), warn: () => undefined, info: () => undefined };
let service: TestService;
let environment: CreatedEnvironment;

beforeAll(async () => {
  service = await startTestService({
    dataDir,
    createChainEngine: (host) => createAnvilEngine(host, { log, saveAfterWrites: 40 }),
  });
  const created = await call(service, "POST", ENVIRONMENTS, {
    as: "alice",
    body: {
      display_name: "Killed",
      network_configs: [
        {
          network_id: "1",
          accounts: [
            { address: SIGNER.address, balance: FUNDS },
            { address: UNLOCKED, balance: FUNDS },
          ],
        },
      ],
    },
  });
  expect(created.status).toBe(200);
  environment = created.body as CreatedEnvironment;
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const engine = () => service.app.service.engine as BackendChainEngine;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const recipient = (client: number, n: number) => `0x${(0xc11e00000000n + BigInt(client * 100_000 + n)).toString(16).padStart(40, "0")}`;

/** Raw HTTP: a JSON-RPC call whose answer must have no error (it would name what went wrong). */
async function raw<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  const answer = (await response.json()) as { result?: T; error?: { message: string } };
  if (response.status !== 200 || answer.error) throw new Error(`raw ${method}: ${response.status} ${answer.error?.message}`);
  return answer.result as T;
}

test(`${KILLS} kill -9 under three clients' reads and writes: no caller error, no write twice, nothing acknowledged lost`, async () => {
  const url = adminRpc(environment);
  const chain = {
    id: 1,
    name: "killed",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  };
  const transport = http(url, { retryCount: 0, timeout: 60_000 });
  const wallet = createWalletClient({ account: SIGNER, chain, transport });
  const reader = createPublicClient({ chain, transport });
  const acknowledged = new Map<string, bigint>();
  const failures: string[] = [];
  const writesBy = [0, 0, 0];
  let killing = true;

  const client = async (index: number, write: (to: string, value: bigint) => Promise<void>, read: () => Promise<unknown>) => {
    for (let n = 0; killing; n++) {
      const to = recipient(index, n);
      const value = BigInt(index * 1_000_000 + n + 1);
      try {
        await read();
        await write(to, value);
        acknowledged.set(to, value);
        writesBy[index] += 1;
      } catch (error) {
        failures.push(String((error as Error).message).slice(0, 400));
      }
    }
  };
  const viemClient = client(
    0,
    async (to, value) => {
      const hash = await wallet.sendTransaction({ to: to as Hex, value });
      const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 60_000 });
      if (receipt.status !== "success") throw new Error(`viem: ${hash} ${receipt.status}`);
    },
    () => reader.getBalance({ address: SIGNER.address }),
  );
  const castClient = client(
    1,
    async (to, value) => {
      await runCast(["send", "--rpc-url", url, "--unlocked", "--from", UNLOCKED, "--value", value.toString(), to], 60_000);
    },
    () => runCast(["block-number", "--rpc-url", url], 60_000),
  );
  const rawClient = client(
    2,
    async (to, value) => {
      await raw(url, "tenderly_addBalance", [to, `0x${value.toString(16)}`]);
    },
    () => raw(url, "eth_getTransactionReceipt", ["0x" + "11".repeat(32)]),
  );

  let kills = 0;
  try {
    while (kills < KILLS) {
      await pause(700 + Math.random() * 900);
      const node = engine().runningNode(environment.active_instance.vnets[0].id);
      if (!node) continue; // starting again after the last kill
      process.kill(node.pids[1], "SIGKILL");
      await node.exited;
      kills += 1;
    }
  } finally {
    killing = false;
    await Promise.all([viemClient, castClient, rawClient]);
  }

  expect(failures).toEqual([]);
  expect(kills).toBe(KILLS);
  for (const count of writesBy) expect(count).toBeGreaterThan(3);
  for (const [address, value] of acknowledged)
    expect({ address, balance: BigInt(await rpc<string>(url, "eth_getBalance", [address, "latest"])) }).toEqual({
      address,
      balance: value,
    });
  expect(errors).toEqual([]);
});
