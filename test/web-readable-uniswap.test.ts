/**
 * Transactions a person can read, with nothing verified: Uniswap V2 deployed from the npm artifacts
 * (@uniswap/v2-core's factory, @uniswap/v2-periphery's WETH9 and router) with a token of ours, liquidity added, then
 * `swapExactETHForTokens` signed by a key and sent through the Public RPC URL. In Chromium, the swap's explorer page
 * names the method and its arguments, the `Deposit`, `Transfer`, `Sync` and `Swap` events, the token transfers with
 * symbols and amounts in units, and the block time; the token's page lists its transfers and holders; the pair the
 * factory created is a deployed contract. The page's balance changes are what the chain's balances say (the gas
 * included), its state changes name the storage written, and the pair's Swap and Sync amounts are in its tokens' units.
 * The swap's record and an instance simulation of the same call give the same events and asset and balance changes;
 * after an export and an import, the record's and page's balance changes and the created pair are still there (from
 * the kept trace). The explorer's address pages are per network and page past 50 rows. Prints page timings.
 * Takes docs/readable-swap.png when it is missing or CHAINFORM_SCREENSHOTS=1.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { formatUnits } from "../lib/domain/amounts";
import { launchBrowser } from "./helpers/browser";
import { exportFixture, importFixture } from "./helpers/fixtures";
import { rpc } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import { createWalletClient, encodeDeployData, encodeFunctionData, http, privateKeyToAccount, type Hex } from "./helpers/viem";
import { compileToken, deploy, send, type Artifact } from "./helpers/uniswap";

jest.setTimeout(300_000);

const DEPLOYER = "0x00000000000000000000000000000000000a11ce";
const TRADER_KEY = `0x${"5e".repeat(32)}` as Hex;
const TRADER = privateKeyToAccount(TRADER_KEY);
const FACTORY = require("@uniswap/v2-core/build/UniswapV2Factory.json") as Artifact;
const WETH9 = require("@uniswap/v2-periphery/build/WETH9.json") as Artifact;
const ROUTER = require("@uniswap/v2-periphery/build/UniswapV2Router02.json") as Artifact;
const BUSY = "0x000000000000000000000000000000000000beef";
/** Where the screenshots that are not in the docs go, to be looked at. */
const ARTIFACTS = mkdtempSync(join(tmpdir(), "chainform-readable-"));

let service: TestService;
let browser: Browser;
const vnets: { id: string; adminRpc: string; publicRpc: string }[] = [];
const at = {} as Record<"factory" | "weth" | "router" | "token" | "pair", string>;
let addLiquidityHash: string;
let environmentId: string;
let instanceId: string;
let swapHash: string;
/** How long each page took to load (ms), printed at the end: the closing note's page timings. */
const timings: Record<string, number> = {};

/** The median time (ms) of 7 loads of a page's HTML, after one: a steadier figure than one browser load. */
async function medianLoad(path: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 8; i++) {
    const started = performance.now();
    const response = await fetch(`${service.baseUrl}${path}`);
    await response.text();
    expect(response.status).toBe(200);
    if (i > 0) times.push(performance.now() - started);
  }
  return Math.round(times.sort((a, b) => a - b)[3]!);
}

async function open(path: string, timing?: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
  const started = performance.now();
  const response = await page.goto(`${service.baseUrl}${path}`);
  if (timing) timings[timing] = Math.round(performance.now() - started);
  expect(response!.status()).toBe(200);
  return page;
}

beforeAll(async () => {
  service = await startTestService();
  browser = await launchBrowser();
  const response = await fetch(`${service.baseUrl}/public/v1/account/acme/project/demo/environments`, {
    method: "POST",
    headers: { ...service.headersOf("alice"), "content-type": "application/json" },
    body: JSON.stringify({
      display_name: "Uniswap",
      network_configs: ["1", "10"].map((network_id) => ({
        network_id,
        accounts: [
          { address: DEPLOYER, balance: "0x56bc75e2d63100000" },
          { address: TRADER.address, balance: "0x56bc75e2d63100000" },
        ],
        explorer_config: { enabled: true },
      })),
    }),
  });
  expect(response.status).toBe(200);
  const environment = (await response.json()) as {
    id: string;
    active_instance: { id: string; vnets: { id: string; rpcs: { name: string; url: string }[] }[] };
  };
  environmentId = environment.id;
  instanceId = environment.active_instance.id;
  for (const vnet of environment.active_instance.vnets) {
    const url = (name: string) => vnet.rpcs.find((r) => r.name === name)!.url;
    vnets.push({ id: vnet.id, adminRpc: url("Admin RPC"), publicRpc: url("Public RPC") });
  }
  const admin = vnets[0]!.adminRpc;
  at.factory = await deploy(admin, DEPLOYER, encodeDeployData({ abi: FACTORY.abi, bytecode: `0x${FACTORY.bytecode}`, args: [DEPLOYER] }));
  at.weth = await deploy(admin, DEPLOYER, `0x${WETH9.bytecode}`);
  at.router = await deploy(
    admin,
    DEPLOYER,
    encodeDeployData({ abi: ROUTER.abi, bytecode: `0x${ROUTER.bytecode}`, args: [at.factory, at.weth] }),
  );
  const token = compileToken();
  at.token = await deploy(admin, DEPLOYER, encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: [10n ** 24n] }));
  await send(admin, DEPLOYER, at.token, encodeFunctionData({ abi: token.abi, functionName: "approve", args: [at.router, 10n ** 24n] }));
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
  const addLiquidity = encodeFunctionData({
    abi: ROUTER.abi,
    functionName: "addLiquidityETH",
    args: [at.token, 10n ** 22n, 0n, 0n, DEPLOYER, deadline],
  });
  addLiquidityHash = (await send(admin, DEPLOYER, at.router, addLiquidity, 10n ** 19n)).hash;
  at.pair = (
    await rpc<string>(admin, "eth_call", [
      { to: at.factory, data: encodeFunctionData({ abi: FACTORY.abi, functionName: "getPair", args: [at.token, at.weth] }) },
      "latest",
    ])
  ).replace(/^0x0{24}/, "0x");

  // The pair adds to its price accumulators only when its last update is at least a second old: a swap mined in the
  // same second as the liquidity would use less gas than a simulation of it run later. A minute between them makes
  // the swap's block what any later simulation's is.
  await rpc(admin, "evm_increaseTime", [60]);

  // The swap, signed by the trader and sent through the Public RPC URL.
  const wallet = createWalletClient({ account: TRADER, transport: http(vnets[0]!.publicRpc) });
  const chainId = Number(await rpc<string>(vnets[0]!.publicRpc, "eth_chainId", []));
  swapHash = await wallet.sendTransaction({
    to: at.router as Hex,
    data: encodeFunctionData({
      abi: ROUTER.abi,
      functionName: "swapExactETHForTokens",
      args: [1n, [at.weth, at.token], TRADER.address, deadline],
    }),
    value: 10n ** 17n,
    chain: {
      id: chainId,
      name: "local",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [] } },
    },
  });
  let receipt: { status: string } | null = null;
  while (!(receipt = await rpc(vnets[0]!.publicRpc, "eth_getTransactionReceipt", [swapHash]))) await new Promise((r) => setTimeout(r, 50));
  if (receipt.status !== "0x1") {
    // Say why (it reverted once on a loaded machine): the trace's revert reason, and the chain's time against the deadline.
    const trace = await rpc<{ error?: string; revertReason?: string }>(vnets[0]!.adminRpc, "debug_traceTransaction", [
      swapHash,
      { tracer: "callTracer" },
    ]);
    const block = await rpc<{ timestamp: string }>(vnets[0]!.adminRpc, "eth_getBlockByNumber", ["latest", false]);
    throw new Error(`the swap reverted: ${trace.revertReason ?? trace.error}; block time ${BigInt(block.timestamp)}, deadline ${deadline}`);
  }
});

afterAll(async () => {
  console.log(`page timings (ms): ${JSON.stringify(timings)}; screenshots in ${ARTIFACTS}`);
  await browser?.close();
  await service?.close();
});

test("the swap's page names the method, its arguments, the events and the token amounts, unverified", async () => {
  const received = BigInt(
    await rpc<string>(vnets[0]!.adminRpc, "eth_call", [
      { to: at.token, data: `0x70a08231${TRADER.address.slice(2).toLowerCase().padStart(64, "0")}` },
      "latest",
    ]),
  );
  expect(received).toBeGreaterThan(0n);
  timings["swap, median of 7"] = await medianLoad(`/explorer/${vnets[0]!.id}/tx/${swapHash}`);
  timings["token, median of 7"] = await medianLoad(`/explorer/${vnets[0]!.id}/address/${at.token}`);
  const page = await open(`/explorer/${vnets[0]!.id}/tx/${swapHash}`, "swap");
  const method = (await page.locator("#method").textContent())!;
  // Addresses are named where a name is known (the tokens' symbols), shortened where not.
  expect(method).toMatch(
    /^swapExactETHForTokens\(amountOutMin: 1, path: \[WETH 0x[0-9a-f]{8}…[0-9a-f]{6}, TT 0x[0-9a-f]{8}…[0-9a-f]{6}\], to: 0x[0-9a-f]{8}…[0-9a-f]{6}, deadline: \d+\)$/,
  );
  const events = (await page.locator("#events").textContent())!;
  for (const name of ["Deposit(", "Transfer(", "Sync(", "Swap("]) expect(events).toContain(name);
  expect(events).not.toContain("unknown event");
  const transfers = (await page.locator("#transfers").textContent())!;
  expect(transfers).toContain("0.1 WETH");
  expect(transfers).toContain(`${formatUnits(received, 18)} TT`);
  expect(events).toContain(`${formatUnits(received, 18)} TT`);
  const time = (await page.locator("#block-time").textContent())!;
  expect(Math.abs(Date.parse(time) - Date.now())).toBeLessThan(3_600_000);
  if (process.env.CHAINFORM_SCREENSHOTS === "1" || !existsSync(join(__dirname, "..", "docs", "readable-swap.png"))) {
    await page.screenshot({ path: join(__dirname, "..", "docs", "readable-swap.png"), fullPage: true });
  }
  // The pair's amounts are in its two tokens' units: the swap paid out what the trader received, in TT.
  expect(events).toMatch(new RegExp(`Swap\\(.*amount[01]Out: ${formatUnits(received, 18).replace(".", "\\.")} TT`));
  expect(events).toMatch(/Sync\(reserve0: [\d.]+ (TT|WETH), reserve1: [\d.]+ (TT|WETH)\)/);
  // Balance changes: what the chain's balances say moved, the trader's ether with the gas it paid.
  const [tx, swapReceipt] = await Promise.all([
    rpc<{ blockNumber: string }>(vnets[0]!.adminRpc, "eth_getTransactionByHash", [swapHash]),
    rpc<{ gasUsed: string; effectiveGasPrice: string }>(vnets[0]!.adminRpc, "eth_getTransactionReceipt", [swapHash]),
  ]);
  const before = `0x${(BigInt(tx.blockNumber) - 1n).toString(16)}`;
  const etherOf = async (tag: string) => BigInt(await rpc<string>(vnets[0]!.adminRpc, "eth_getBalance", [TRADER.address, tag]));
  const spent = (await etherOf(before)) - (await etherOf(tx.blockNumber));
  expect(spent).toBe(10n ** 17n + BigInt(swapReceipt.gasUsed) * BigInt(swapReceipt.effectiveGasPrice));
  const balances = page.locator("#balance-changes");
  const traderRow = (await balances
    .locator("tr", { has: page.locator(`a[href$="/address/${TRADER.address.toLowerCase()}"]`) })
    .textContent())!;
  expect(traderRow).toContain(`-${formatUnits(spent, 18)} ETH`);
  expect(traderRow).toContain(`+${formatUnits(received, 18)} TT`);
  const pairRow = (await balances.locator("tr", { has: page.locator(`a[href$="/address/${at.pair}"]`) }).textContent())!;
  expect(pairRow).toContain("+0.1 WETH");
  expect(pairRow).toContain(`-${formatUnits(received, 18)} TT`);
  // State changes: the trader's nonce, the pair's reserves and the tokens' balances in storage.
  const state = page.locator("#state-changes");
  const traderState = (
    await state.locator("tr", { has: page.locator(`a[href$="/address/${TRADER.address.toLowerCase()}"]`) }).allTextContents()
  ).join(" ");
  expect(traderState).toMatch(/nonce\s*0\s*1/);
  expect(await state.locator("tr", { hasText: "storage", has: page.locator(`a[href$="/address/${at.pair}"]`) }).count()).toBeGreaterThan(0);
  await page.screenshot({ path: join(ARTIFACTS, "readable-swap.png"), fullPage: true });
  await page.close();
});

test("the swap's record and a simulation of the same call say the same events and balance changes", async () => {
  const base = `${service.baseUrl}/public/v1/account/acme/project/demo/environments/${environmentId}/instance/${instanceId}`;
  const headers = { ...service.headersOf("alice"), "content-type": "application/json" };
  const recordAnswer = await fetch(`${base}/transactions/${swapHash}`, { headers });
  expect(recordAnswer.status).toBe(200);
  const record = (await recordAnswer.json()) as Record<string, unknown> & { logs: { name: string }[]; block_number: string };
  expect(record.logs.map((log) => log.name)).toEqual(expect.arrayContaining(["Deposit", "Transfer", "Sync", "Swap"]));
  const tx = await rpc<{ from: string; to: string; input: string; value: string; gas: string }>(
    vnets[0]!.adminRpc,
    "eth_getTransactionByHash",
    [swapHash],
  );
  const receipt = await rpc<{ effectiveGasPrice: string }>(vnets[0]!.adminRpc, "eth_getTransactionReceipt", [swapHash]);
  const simulated = await fetch(`${base}/vnet/${vnets[0]!.id}/transactions/simulate`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      callArgs: { from: tx.from, to: tx.to, data: tx.input, value: tx.value, gas: tx.gas, gasPrice: receipt.effectiveGasPrice },
      blockNumber: `0x${(BigInt(record.block_number) - 1n).toString(16)}`,
    }),
  });
  expect(simulated.status).toBe(200);
  const simulation = (await simulated.json()) as Record<string, unknown>;
  expect(simulation.status).toBe(true);
  expect(simulation.logs).toEqual(record.logs);
  expect(simulation.assetChanges).toEqual(record.asset_changes);
  expect(simulation.balanceChanges).toEqual(record.balance_changes);
  // The storage it wrote is the same too (balances and nonces differ: a simulation charges no gas, as eth_call).
  const written = record.state_changes as { address: string; field: string; previous: string; next: string }[];
  expect(written).toContainEqual({ address: TRADER.address.toLowerCase(), field: "nonce", previous: "0x0", next: "0x1" });
  const storage = (changes: unknown) => (changes as { field: string }[]).filter((change) => change.field === "storage");
  expect(storage(written).length).toBeGreaterThan(0);
  expect(storage(simulation.stateChanges)).toEqual(storage(written));
  const assets = record.asset_changes as { token_info: { standard: string; symbol?: string }; type: string; amount?: string }[];
  expect(assets.map((a) => `${a.type} ${a.token_info.standard} ${a.token_info.symbol}`)).toEqual([
    "Transfer NativeCurrency ETH", // trader → router
    "Transfer NativeCurrency ETH", // router → WETH (deposit)
    "Mint ERC20 WETH",
    "Transfer ERC20 WETH", // router → pair
    "Transfer ERC20 TT", // pair → trader
  ]);
  expect(assets[0]!.amount).toBe("0.1");
});

test("an export and an import keep the swap's balance changes: they come from the trace kept with its record", async () => {
  const base = (environment: string, instance: string) =>
    `${service.baseUrl}/public/v1/account/acme/project/demo/environments/${environment}/instance/${instance}/transactions/${swapHash}`;
  const headers = service.headersOf("alice");
  const original = (await (await fetch(base(environmentId, instanceId), { headers })).json()) as Record<string, unknown>;
  const imported = await importFixture(service, await exportFixture(service, environmentId), { slug: "uniswap-imported" });
  expect([imported.status, imported.body?.error?.message]).toEqual([201, undefined]);
  const copy = imported.body as { id: string; active_instance: { id: string; vnets: { id: string }[] } };
  const answer = await fetch(base(copy.id, copy.active_instance.id), { headers });
  expect(answer.status).toBe(200);
  const record = (await answer.json()) as Record<string, unknown>;
  expect(record.asset_changes).toEqual(original.asset_changes);
  expect(record.balance_changes).toEqual(original.balance_changes);
  // State changes are not kept: the reloaded chain cannot say them, and the record and page say nothing wrong.
  expect(record.state_changes).toBeUndefined();
  const vnet = copy.active_instance.vnets.find((v) => v.id !== undefined)!;
  const page = await open(`/explorer/${vnet.id}/tx/${swapHash}`, "swap after import");
  const balances = (await page.locator("#balance-changes").textContent())!;
  expect(balances).toContain("+0.1 WETH");
  expect(balances).not.toContain("no trace available");
  expect(await page.locator("#state-changes").textContent()).toContain("not available");
  await page.screenshot({ path: join(ARTIFACTS, "readable-swap-imported.png"), fullPage: true });
  // The pair the factory created is read from the kept trace too: the reloaded chain can no longer trace its creation.
  await page.goto(service.dashboardLink("alice"));
  await page.goto(`${service.baseUrl}/dashboard/acme/demo/environments/${copy.id}`);
  const pairRow = page.locator("#contracts tr", { has: page.locator(`td:first-child a[href$="/address/${at.pair}"]`) });
  expect(await pairRow.count()).toBe(1);
  expect(await pairRow.locator(`a[href$="/address/${at.factory}"]`).count()).toBe(1);
  await page.close();
});

test("the factory's pair shows as created by the liquidity transaction, and on the environment page", async () => {
  const page = await open(`/explorer/${vnets[0]!.id}/tx/${addLiquidityHash}`, "add liquidity");
  expect(await page.locator("body").textContent()).toContain(`Contracts created`);
  await page.screenshot({ path: join(ARTIFACTS, "readable-add-liquidity.png"), fullPage: true });
  expect(await page.locator(`a[href$="/address/${at.pair}"]`).count()).toBeGreaterThan(0);
  await page.goto(service.dashboardLink("alice"));
  const started = performance.now();
  await page.goto(`${service.baseUrl}/dashboard/acme/demo/environments/${environmentId}`);
  timings.environment = Math.round(performance.now() - started);
  const contracts = page.locator("#contracts");
  for (const address of [at.factory, at.weth, at.router, at.token, at.pair]) {
    expect(await contracts.locator(`td:first-child a[href$="/address/${address}"]`).count()).toBe(1);
  }
  const pairRow = contracts.locator("tr", { has: page.locator(`a[href$="/address/${at.pair}"]`) });
  expect(await pairRow.locator(`a[href$="/address/${at.factory}"]`).count()).toBe(1);
  expect(await pairRow.locator(`a[href$="/tx/${addLiquidityHash}"]`).count()).toBe(1);
  await page.screenshot({ path: join(ARTIFACTS, "readable-environment.png"), fullPage: true });
  await page.close();
});

test("the token's page lists its transfers and holders", async () => {
  const page = await open(`/explorer/${vnets[0]!.id}/address/${at.token}`, "token");
  const transfers = (await page.locator("#token-transfers").textContent())!;
  expect(transfers).toContain("TT");
  expect(await page.locator(`#token-transfers a[href$="/tx/${swapHash}"]`).count()).toBe(1);
  const holders = (await page.locator("#holders").textContent())!;
  for (const holder of [DEPLOYER, at.pair, TRADER.address.toLowerCase()]) {
    expect(await page.locator(`#holders a[href$="/address/${holder}"]`).count()).toBe(1);
  }
  expect(holders).toMatch(/\d TT/);
  await page.screenshot({ path: join(ARTIFACTS, "readable-token.png"), fullPage: true });
  await page.close();
});

test("address pages are per network and page past 50 rows", async () => {
  await send(vnets[0]!.adminRpc, DEPLOYER, BUSY, "0x", 1n);
  for (let i = 0; i < 55; i++) await send(vnets[1]!.adminRpc, DEPLOYER, BUSY, "0x", 1n);
  const rows = async (vnet: number, query = "") => {
    const page = await open(`/explorer/${vnets[vnet]!.id}/address/${BUSY}${query}`);
    const count = await page.locator("#transactions tbody tr").count();
    await page.close();
    return count;
  };
  expect(await rows(0)).toBe(1);
  expect(await rows(1)).toBe(50);
  // The records are written as the chain reports them: wait for the last one.
  const deadline = Date.now() + 60_000;
  while ((await rows(1, "?page=2")) < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(await rows(1, "?page=2")).toBe(5);
  const bad = await fetch(`${service.baseUrl}/explorer/${vnets[1]!.id}/address/${BUSY}?page=0`);
  expect(bad.status).toBe(400);
});
