/**
 * Sends through an RPC URL that the chain does not mine at once: with automine off, or behind a nonce gap. The sender
 * hears at once, as from anvil: the service does not wait for a block that only a mining call or a lower nonce can
 * make (it once waited up to its receipt timeout, 2 s, on every such send). The transaction's record is made when
 * the transaction is mined.
 *
 * The service here waits up to ten minutes for a receipt it expects, so a send that waits for one it should not
 * expect fails the test by its timeout rather than by a clock.
 */
import type { Environment, Transaction } from "../lib/api";
import { createAnvilEngine } from "../lib/service/chains";
import { createWalletClient, http, privateKeyToAccount, type Hex } from "./helpers/viem";
import { rpc } from "./helpers/http";
import { environmentsPath, startTestService, type TestService } from "./helpers/service";

const signer = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const RECIPIENT = "0x000000000000000000000000000000000000beef";
let service: TestService;

async function apiCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${service.baseUrl}${environmentsPath(service)}${path}`, {
    method,
    headers: { ...service.headersOf("alice"), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

const urlOf = (e: Environment, name: "Admin RPC" | "Public RPC") => e.active_instance.vnets[0].rpcs.find((r) => r.name === name)!.url;
const minedRecords = (e: Environment) =>
  apiCall<Transaction[]>("GET", `/${e.id}/instance/${e.active_instance.id}/transactions?kind=blockchain`);
const receiptOf = async (e: Environment, hash: Hex) =>
  (await rpc(urlOf(e, "Public RPC"), "eth_getTransactionReceipt", [hash])) as { blockNumber: string } | null;

async function newEnvironment(name: string): Promise<Environment> {
  return apiCall<Environment>("POST", "", {
    display_name: name,
    network_configs: [{ network_id: "1", accounts: [{ address: signer.address, balance: "0x56bc75e2d63100000" }] }],
  });
}

describe("sends through an RPC URL that the chain does not mine at once", () => {
  beforeAll(async () => {
    service = await startTestService({ createChainEngine: (host) => createAnvilEngine(host, { receiptTimeoutMs: 10 * 60_000 }) });
  });
  afterAll(() => service?.close());

  test("with automine off, each send is answered before it is mined; a mining call mines them and their records are made", async () => {
    const environment = await newEnvironment("automine off");
    await rpc(urlOf(environment, "Admin RPC"), "evm_setAutomine", [false]);
    const wallet = createWalletClient({ account: signer, transport: http(urlOf(environment, "Public RPC"), { retryCount: 0 }) });
    const hashes: Hex[] = [];
    for (let i = 0; i < 3; i += 1) hashes.push(await wallet.sendTransaction({ chain: null, to: RECIPIENT, value: 1n }));

    for (const hash of hashes) expect(await receiptOf(environment, hash)).toBeNull();
    expect((await minedRecords(environment)).map((t) => t.tx_hash)).not.toEqual(expect.arrayContaining([hashes[0]]));

    await rpc(urlOf(environment, "Admin RPC"), "evm_mine", []);
    const blocks = await Promise.all(hashes.map(async (hash) => (await receiptOf(environment, hash))?.blockNumber));
    expect(new Set(blocks).size).toBe(1); // one block holds all three
    expect(blocks[0]).toMatch(/^0x[0-9a-f]+$/);
    const records = await minedRecords(environment);
    expect(records.map((t) => t.tx_hash)).toEqual(expect.arrayContaining(hashes));
    for (const hash of hashes)
      expect(records.find((t) => t.tx_hash === hash)).toMatchObject({ origin: "rpc", rpc_method: "eth_sendRawTransaction" });
  }, 60_000);

  test("with automine on, a send behind a nonce gap is answered before it is mined; the send that fills the gap mines both, and both are recorded", async () => {
    const environment = await newEnvironment("nonce gap");
    const publicUrl = urlOf(environment, "Public RPC");
    const wallet = createWalletClient({ account: signer, transport: http(publicUrl, { retryCount: 0 }) });
    const nonce = Number(BigInt((await rpc(publicUrl, "eth_getTransactionCount", [signer.address, "latest"])) as string));

    const behindGap = await wallet.sendTransaction({ chain: null, to: RECIPIENT, value: 2n, nonce: nonce + 1, gas: 21_000n });
    expect(await receiptOf(environment, behindGap)).toBeNull();

    const fillsGap = await wallet.sendTransaction({ chain: null, to: RECIPIENT, value: 1n, nonce, gas: 21_000n });
    expect(await receiptOf(environment, fillsGap)).not.toBeNull();
    expect(await receiptOf(environment, behindGap)).not.toBeNull();
    const recorded = (await minedRecords(environment)).map((t) => t.tx_hash);
    expect(recorded).toEqual(expect.arrayContaining([behindGap, fillsGap]));
  }, 60_000);
});
