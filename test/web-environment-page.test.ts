/**
 * What the dashboard's environment page and the explorer show of an environment, in a real browser (Chromium through
 * playwright-core) against the local service with anvil chains: prefunded accounts and deployed contracts, amounts in
 * ether with the wei on hover, a bridge relay listed as `bridge` (the API's record keeps kind `blockchain`, origin
 * `bridge`) and linked to its deposit, cheatcode writes among the explorer's latest transactions, and a token's name,
 * symbol and decimals on its explorer page, and the snapshots a chain holds.
 */
import type { Browser, Page } from "playwright-core";
import { loadArtifact } from "../lib/service/chains/evm/artifacts";
import { BRIDGE_ADDRESS } from "../lib/domain/bridge-contract";
import { launchBrowser } from "./helpers/browser";
import { call, rpc } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import { encodeDeployData, encodeFunctionData, type Hex } from "./helpers/viem";

jest.setTimeout(240_000);

const DEPLOYER = "0x00000000000000000000000000000000000a11ce";
const RECIPIENT = "0x000000000000000000000000000000000000beef";
const CHEATED = "0x000000000000000000000000000000000000c0de";
const GAS = "0x1e8480";

let service: TestService;
let browser: Browser;
let page: Page;
let environmentId: string;
const vnets: { id: string; adminRpc: string; chainId: string }[] = [];
let token: string;
let depositHash: string;

async function send(
  vnet: number,
  tx: { to?: string; data: string; value?: string },
): Promise<{ transactionHash: string; contractAddress: string | null }> {
  const hash = await rpc<string>(vnets[vnet].adminRpc, "eth_sendTransaction", [{ from: DEPLOYER, gas: GAS, ...tx }]);
  for (;;) {
    const receipt = await rpc<{ transactionHash: string; contractAddress: string | null } | null>(
      vnets[vnet].adminRpc,
      "eth_getTransactionReceipt",
      [hash],
    );
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  service = await startTestService();
  browser = await launchBrowser();
  const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
    as: "alice",
    body: {
      display_name: "Bridged",
      network_configs: [
        { network_id: "1", accounts: [{ address: DEPLOYER, balance: "0x56bc75e2d63100000" }], explorer_config: { enabled: true } },
        { network_id: "8453" },
      ],
      bridge_config: { enabled: true, relay_mode: "autoRelay" },
    },
  });
  expect(created.status).toBe(200);
  environmentId = created.body.id;
  for (const vnet of created.body.active_instance.vnets as { id: string; rpcs: { name: string; url: string }[] }[]) {
    vnets.push({ id: vnet.id, chainId: "", adminRpc: vnet.rpcs.find((r) => r.name === "Admin RPC")!.url });
  }
  vnets[1].chainId = await rpc<string>(vnets[1].adminRpc, "eth_chainId", []);

  const erc20 = await loadArtifact("ChainformToken");
  const bridge = await loadArtifact("ChainformBridge");
  token = (
    await send(0, {
      data: encodeDeployData({ abi: erc20.abi, bytecode: erc20.bytecode as Hex, args: ["Probe Dollar", "PUSD", 6, 1_000_000n] }),
    })
  ).contractAddress!.toLowerCase();
  const deposit = encodeFunctionData({ abi: bridge.abi, functionName: "deposit", args: [BigInt(vnets[1].chainId), RECIPIENT as Hex] });
  depositHash = (await send(0, { to: BRIDGE_ADDRESS, data: deposit, value: "0x1bc16d674ec80000" })).transactionHash; // 2 ETH
  await rpc(vnets[0].adminRpc, "tenderly_setBalance", [[CHEATED], "0xde0b6b3a7640000"]);
  page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
  await page.goto(service.dashboardLink("alice"));
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

test("the environment page lists prefunded accounts and deployed contracts, amounts in ether with wei on hover", async () => {
  await page.goto(`${service.baseUrl}/dashboard/acme/demo/environments/${environmentId}`);
  const prefunded = page.locator("table.prefunded").first();
  await expect(prefunded.textContent()).resolves.toContain("100 ETH");
  await expect(prefunded.locator(".amount").getAttribute("title")).resolves.toBe("100000000000000000000 wei");
  await expect(prefunded.locator("a").getAttribute("href")).resolves.toBe(`/explorer/${vnets[0].id}/address/${DEPLOYER}`);
  const contracts = page.locator("#contracts tbody tr");
  await expect(contracts.count()).resolves.toBe(1);
  await expect(contracts.locator("a").first().getAttribute("href")).resolves.toBe(`/explorer/${vnets[0].id}/address/${token}`);
  const depositRow = page.locator("tr", { has: page.locator(`a[href$="/tx/${depositHash}"]`) }).last();
  await expect(depositRow.locator(".amount").textContent()).resolves.toBe("2 ETH");
  await expect(depositRow.locator(".amount").getAttribute("title")).resolves.toBe("2000000000000000000 wei");
});

test("a bridge relay is listed as bridge and links to its deposit; the API keeps the record's kind", async () => {
  await page.goto(`${service.baseUrl}/dashboard/acme/demo/environments/${environmentId}`);
  const relay = page.locator("a.deposit");
  await expect(relay.count()).resolves.toBe(1);
  await expect(page.locator("tr", { has: relay }).textContent()).resolves.toContain("bridge");
  await Promise.all([page.waitForNavigation(), relay.click()]);
  expect(page.url()).toContain(`/tx/${depositHash}`);

  const instance = (await call(service, "GET", `/public/v1/account/acme/project/demo/environments/${environmentId}`, { as: "alice" })).body
    .active_instance.id as string;
  const records = (
    await call(
      service,
      "GET",
      `/public/v1/account/acme/project/demo/environments/${environmentId}/instance/${instance}/transactions?perPage=100`,
      { as: "alice" },
    )
  ).body as { origin: string; kind: string; tx_hash: string }[];
  const relays = records.filter((r) => r.origin === "bridge");
  expect(relays.map((r) => r.kind)).toEqual(["blockchain"]);
  await page.goto(`${service.baseUrl}/dashboard/acme/demo/environments/${environmentId}/tx/${relays[0].tx_hash}`);
  await expect(page.locator("a.deposit").getAttribute("href")).resolves.toBe(
    `/dashboard/acme/demo/environments/${environmentId}/tx/${depositHash}`,
  );
});

test("the explorer's latest transactions include cheatcode writes; a token page shows name, symbol and decimals", async () => {
  await page.goto(`${service.baseUrl}/explorer/${vnets[0].id}`);
  const latest = await page.locator("#latest").textContent();
  expect(latest).toContain("cheatcode tenderly_setBalance");
  expect(latest).toContain("2 ETH");
  await page.goto(`${service.baseUrl}/explorer/${vnets[0].id}/address/${token}`);
  await expect(page.locator("#token").textContent()).resolves.toBe("Probe Dollar (PUSD), 6 decimals");
  await page.goto(`${service.baseUrl}/explorer/${vnets[0].id}/address/${BRIDGE_ADDRESS.toLowerCase()}`);
  await expect(page.locator("#token").count()).resolves.toBe(0);
});

test("the environment page lists the snapshots each chain holds, with the block they were taken at", async () => {
  // GIVEN a snapshot taken through the Admin RPC, as chainform_snapshot and test suites take them
  const head = BigInt(await rpc<string>(vnets[1].adminRpc, "eth_blockNumber", []));
  const id = await rpc<string>(vnets[1].adminRpc, "evm_snapshot", []);
  // WHEN the environment page is shown
  await page.goto(`${service.baseUrl}/dashboard/acme/demo/environments/${environmentId}`);
  const tables = page.locator("table.snapshots");
  // THEN the second network's card lists it, and the first network (no snapshot) says none
  await expect(tables.count()).resolves.toBe(1);
  const row = await tables.locator("tr").first().textContent();
  expect(row).toContain(id);
  expect(row).toContain(`block ${head}`);
  await expect(page.locator(".card", { hasText: "none taken since the service started" }).count()).resolves.toBe(1);
});
