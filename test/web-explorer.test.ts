/**
 * The public explorer in a real browser (Chromium through playwright-core) against the local service with anvil
 * chains, and its Etherscan-compatible API driven by `forge verify-contract` unchanged: a contract deployed with
 * `forge create`, verified, then its contract tab and getabi/getsourcecode under each verification_visibility;
 * a transaction page with decoded input and logs, the trace and a revert reason; a disabled explorer is a 404;
 * bad input (unknown hash, malformed address, wrong source, malformed or huge standard JSON input, another
 * compiler version) gets a clear message and a 4xx. Takes docs/transaction.png when it is missing or
 * CHAINFORM_SCREENSHOTS=1.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./helpers/browser";
import { forgeProject, type ForgeProject } from "./helpers/forge";
import { rpc } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import { encodeFunctionData } from "./helpers/viem";

jest.setTimeout(300_000);

const DEPLOYER = "0x00000000000000000000000000000000000a11ce";
const COUNTER_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A counter that refuses to count by zero.
contract Counter {
    uint256 public count;

    event Bumped(address indexed by, uint256 amount, uint256 total);

    function bump(uint256 amount) external returns (uint256) {
        require(amount > 0, "amount must be positive");
        count += amount;
        emit Bumped(msg.sender, amount, count);
        return count;
    }
}
`;
const COUNTER_ABI = [
  {
    type: "function",
    name: "bump",
    inputs: [{ name: "amount", type: "uint256" }],
    outputs: [{ name: "", type: "uint256" }],
    stateMutability: "nonpayable",
  },
] as const;

/** Network per explorer setting: source, abi, default (bytecode), and one with the explorer off. */
const NETWORKS = { source: "1", abi: "10", bytecode: "137", off: "100" } as const;
type Setting = keyof typeof NETWORKS;

let service: TestService;
let browser: Browser;
let project: ForgeProject;
const vnets = {} as Record<Setting, { id: string; adminRpc: string; explorerUrl?: string }>;
let counter: string;

function explorerConfig(setting: Setting) {
  if (setting === "off") return {};
  if (setting === "bytecode") return { explorer_config: { enabled: true } };
  return { explorer_config: { enabled: true, verification_visibility: setting } };
}

async function bump(amount: bigint): Promise<string> {
  const data = encodeFunctionData({ abi: COUNTER_ABI, functionName: "bump", args: [amount] });
  const hash = await rpc<string>(vnets.source.adminRpc, "eth_sendTransaction", [{ from: DEPLOYER, to: counter, data, gas: "0x100000" }]);
  while (!(await rpc(vnets.source.adminRpc, "eth_getTransactionReceipt", [hash]))) await new Promise((r) => setTimeout(r, 50));
  return hash;
}

/** POSTs a form to a vnet's verification API, as forge does. */
async function verificationApi(
  setting: Setting,
  form: Record<string, string>,
): Promise<{ status: number; body: { status: string; message: string; result: unknown } }> {
  const response = await fetch(`${vnets[setting].explorerUrl}/api`, { method: "POST", body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as { status: string; message: string; result: unknown } };
}

async function open(path: string): Promise<{ page: Page; status: number }> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const response = await page.goto(`${service.baseUrl}${path}`);
  return { page, status: response!.status() };
}

beforeAll(async () => {
  service = await startTestService();
  browser = await launchBrowser();
  project = await forgeProject({ "src/Counter.sol": COUNTER_SOURCE });
  const response = await fetch(`${service.baseUrl}/public/v1/account/acme/project/demo/environments`, {
    method: "POST",
    headers: { ...service.headersOf("alice"), "content-type": "application/json" },
    body: JSON.stringify({
      display_name: "Explorer",
      network_configs: (Object.keys(NETWORKS) as Setting[]).map((setting) => ({
        network_id: NETWORKS[setting],
        accounts: [{ address: DEPLOYER, balance: "0x56bc75e2d63100000" }],
        ...explorerConfig(setting),
      })),
    }),
  });
  expect(response.status).toBe(200);
  const environment = (await response.json()) as {
    active_instance: { vnets: { id: string; explorer_url?: string; rpcs: { name: string; url: string }[] }[] };
  };
  (Object.keys(NETWORKS) as Setting[]).forEach((setting, i) => {
    const vnet = environment.active_instance.vnets[i];
    vnets[setting] = { id: vnet.id, adminRpc: vnet.rpcs.find((r) => r.name === "Admin RPC")!.url, explorerUrl: vnet.explorer_url };
  });

  // The same deployer and nonce give the same address on every chain.
  for (const setting of ["source", "abi", "bytecode"] as const) {
    const created = await project.forge([
      "create",
      "src/Counter.sol:Counter",
      "--rpc-url",
      vnets[setting].adminRpc,
      "--unlocked",
      "--from",
      DEPLOYER,
      "--broadcast",
    ]);
    counter = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(created.stdout)![1].toLowerCase();
  }
});

afterAll(async () => {
  await browser?.close();
  await project?.close();
  await service?.close();
});

test("vnets carry explorer_url only when the explorer is enabled; a disabled explorer is a 404 page", async () => {
  expect(vnets.source.explorerUrl).toBe(`${service.baseUrl}/explorer/${vnets.source.id}`);
  expect(vnets.off.explorerUrl).toBeUndefined();
  for (const path of [
    `/explorer/${vnets.off.id}`,
    `/explorer/${vnets.off.id}/address/${counter}`,
    "/explorer/00000000-0000-4000-8000-000000000000",
  ]) {
    const { page, status } = await open(path);
    expect(status).toBe(404);
    await expect(page.locator("body").textContent()).resolves.toContain("explorer is not enabled");
    await page.close();
  }
  const api = await fetch(`${service.baseUrl}/explorer/${vnets.off.id}/api?module=contract&action=getabi&address=${counter}`);
  expect(api.status).toBe(404);
});

test("forge verify-contract verifies through the API; the contract tab obeys verification_visibility", async () => {
  for (const setting of ["source", "abi", "bytecode"] as const) {
    const verified = await project.forge([
      "verify-contract",
      counter,
      "src/Counter.sol:Counter",
      "--verifier",
      "etherscan",
      "--verifier-url",
      `${vnets[setting].explorerUrl}/api`,
      "--etherscan-api-key",
      "local",
      "--chain",
      NETWORKS[setting],
      "--watch",
    ]);
    expect(verified.stdout).toContain("Pass - Verified");
  }
  const again = await project.forge([
    "verify-contract",
    counter,
    "src/Counter.sol:Counter",
    "--verifier",
    "etherscan",
    "--verifier-url",
    `${vnets.source.explorerUrl}/api`,
    "--etherscan-api-key",
    "local",
    "--chain",
    "1",
  ]);
  expect(again.stdout).toContain("already verified");

  const shows = async (setting: Setting) => {
    const { page } = await open(`/explorer/${vnets[setting].id}/address/${counter}?tab=contract`);
    const result = {
      abi: await page.locator("#abi").count(),
      source: await page.locator("#source").count(),
      bytecode: await page.locator("#bytecode").count(),
    };
    if (result.source) expect(await page.locator("#source").textContent()).toContain("refuses to count by zero");
    await page.close();
    return result;
  };
  await expect(shows("source")).resolves.toEqual({ abi: 1, source: 1, bytecode: 1 });
  await expect(shows("abi")).resolves.toEqual({ abi: 1, source: 0, bytecode: 1 });
  await expect(shows("bytecode")).resolves.toEqual({ abi: 0, source: 0, bytecode: 1 });

  const get = async (setting: Setting, action: string) =>
    (await (await fetch(`${vnets[setting].explorerUrl}/api?module=contract&action=${action}&address=${counter}`)).json()) as {
      status: string;
      result: unknown;
    };
  expect(JSON.parse((await get("abi", "getabi")).result as string)).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: "bump" })]),
  );
  expect(await get("bytecode", "getabi")).toMatchObject({ status: "0", result: expect.stringContaining("not public") });
  const sourceOf = async (setting: Setting) => ((await get(setting, "getsourcecode")).result as { SourceCode: string; ABI: string }[])[0];
  expect((await sourceOf("source")).SourceCode).toContain("refuses to count by zero");
  expect(await sourceOf("abi")).toMatchObject({ SourceCode: "", ABI: expect.stringContaining("bump") });
  expect(await sourceOf("bytecode")).toMatchObject({ SourceCode: "", ABI: "Contract source code not verified" });
});

test("a transaction page decodes input and logs with the verified ABI, shows the trace and the revert reason", async () => {
  const ok = await bump(7n);
  const reverted = await bump(0n);
  const { page } = await open(`/explorer/${vnets.source.id}/tx/${ok}`);
  const details = await page.locator("dl").first().textContent();
  expect(details).toContain("success");
  expect(details).toContain("bump(amount: 7)");
  await expect(page.locator("body").textContent()).resolves.toMatch(/Bumped\(by: 0x00000000…0a11ce, amount: 7, total: 7\)/);
  await expect(page.locator("details.frame > summary").first().textContent()).resolves.toMatch(/CALL[\s\S]*bump\(amount: 7\)/);
  if (process.env.CHAINFORM_SCREENSHOTS === "1" || !existsSync(join(__dirname, "..", "docs", "transaction.png"))) {
    await page.screenshot({ path: join(__dirname, "..", "docs", "transaction.png") });
  }
  await page.setViewportSize({ width: 375, height: 700 });
  expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
  await page.close();

  const failed = await open(`/explorer/${vnets.source.id}/tx/${reverted}`);
  await expect(failed.page.locator("dl").first().textContent()).resolves.toMatch(/reverted[\s\S]*amount must be positive/);
  await failed.page.close();

  const address = await open(`/explorer/${vnets.source.id}/address/${DEPLOYER}`);
  await expect(address.page.locator("table").textContent()).resolves.toContain(ok.slice(0, 10));
  await address.page.fill("input[name=q]", reverted);
  await address.page.click("text=Search");
  expect(address.page.url()).toContain(`/tx/${reverted}`);
  await address.page.close();
});

test("bad input gets a clear message and a 4xx, never a 5xx", async () => {
  const explorer = `/explorer/${vnets.source.id}`;
  for (const [path, status, message] of [
    [`${explorer}/tx/0x${"ab".repeat(32)}`, 404, "No transaction"],
    [`${explorer}/tx/0x1234`, 400, "not a transaction hash"],
    [`${explorer}/address/0xnot-an-address`, 400, "not an address"],
    [`${explorer}/block/99999999`, 404, "does not exist"],
    [`${explorer}/block/-1`, 400, "not a block number"],
    [`${explorer}/search?q=hello`, 400, "none of these"],
  ] as const) {
    const { page, status: got } = await open(path);
    expect([path, got]).toEqual([path, status]);
    await expect(page.locator(".error").textContent()).resolves.toContain(message);
    await page.close();
  }

  const input = {
    language: "Solidity",
    sources: { "src/Counter.sol": { content: COUNTER_SOURCE } },
    settings: { optimizer: { enabled: false, runs: 200 }, evmVersion: "cancun" },
  };
  const submit = (overrides: Record<string, string>) =>
    verificationApi("abi", {
      module: "contract",
      action: "verifysourcecode",
      contractaddress: counter,
      codeformat: "solidity-standard-json-input",
      contractname: "src/Counter.sol:Counter",
      compilerversion: "v0.8.37+commit.f401782d",
      sourceCode: JSON.stringify(input),
      ...overrides,
    });
  const wrongSource = JSON.stringify({
    ...input,
    sources: { "src/Counter.sol": { content: COUNTER_SOURCE.replace("amount must be positive", "amount must be > 0") } },
  });
  // The abi vnet's contract is verified already: use a fresh address for the refusals.
  const fresh = await project.forge([
    "create",
    "src/Counter.sol:Counter",
    "--rpc-url",
    vnets.abi.adminRpc,
    "--unlocked",
    "--from",
    DEPLOYER,
    "--broadcast",
  ]);
  const freshAddress = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(fresh.stdout)![1];
  for (const [overrides, status, message] of [
    [{ contractaddress: freshAddress, sourceCode: wrongSource }, 400, "differs from the code deployed"],
    [{ contractaddress: freshAddress, sourceCode: "{not json" }, 400, "not a standard JSON input"],
    [{ contractaddress: freshAddress, sourceCode: JSON.stringify({ language: "Vyper", sources: {} }) }, 400, 'language must be "Solidity"'],
    [{ contractaddress: freshAddress, compilerversion: "v0.8.20+commit.a1b79de6" }, 400, "npm install -D solc-0.8.20@npm:solc@0.8.20"],
    [{ contractaddress: freshAddress, contractname: "Counter" }, 400, "contractname must be path:Name"],
    [{ contractaddress: freshAddress, sourceCode: "x".repeat(5 * 1024 * 1024) }, 400, "larger than"],
    [{ contractaddress: "0x1234" }, 400, "contractaddress must be 0x followed by 40 hex digits"],
    [{ contractaddress: `0x${"00".repeat(19)}99` }, 400, "Unable to locate ContractCode"],
  ] as const) {
    const { status: got, body } = await submit(overrides);
    expect([overrides.compilerversion ?? overrides.contractname ?? "", got, body.status]).toEqual([
      overrides.compilerversion ?? overrides.contractname ?? "",
      status,
      "0",
    ]);
    expect(body.result).toContain(message);
  }
  const huge = await fetch(`${vnets.abi.explorerUrl}/api`, {
    method: "POST",
    body: new URLSearchParams({ module: "contract", action: "verifysourcecode", sourceCode: "x".repeat(13 * 1024 * 1024) }),
  });
  expect(huge.status).toBe(413);
  expect(((await huge.json()) as { result: string }).result).toContain("larger than");
  const unknownGuid = await verificationApi("abi", { module: "contract", action: "checkverifystatus", guid: "nope" });
  expect(unknownGuid).toMatchObject({ status: 400, body: { status: "0", result: expect.stringContaining("Unknown GUID") } });
  const badAction = await verificationApi("abi", { module: "contract", action: "dance" });
  expect(badAction.status).toBe(400);
  // The right source still verifies the fresh contract afterwards: the refusals kept nothing.
  await expect(submit({ contractaddress: freshAddress })).resolves.toMatchObject({ status: 200, body: { status: "1" } });
});
