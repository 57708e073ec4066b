/**
 * Verification with the compiler a project has: a contract compiled with solc 0.5.16 (installed from npm under the
 * alias `solc-0.5.16`) is unreadable on the explorer until verified (its selector and event are in no table), verifies
 * through the Etherscan-compatible API with `compilerversion=v0.5.16+commit.9c3226ce`, then its transaction page names
 * the call and the event with their arguments, in Chromium.
 */
import type { Browser } from "playwright-core";
import { launchBrowser } from "./helpers/browser";
import { call } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import { deploy, send } from "./helpers/uniswap";
import { encodeFunctionData } from "./helpers/viem";

jest.setTimeout(300_000);

const DEPLOYER = "0x00000000000000000000000000000000000a11ce";
const SOURCE = `pragma solidity 0.5.16;

contract Greeter {
    uint256 public times;

    event Greeted(address indexed by, string who, uint256 times);

    function greetSomeone(string calldata who) external returns (uint256) {
        times += 1;
        emit Greeted(msg.sender, who, times);
        return times;
    }
}
`;
const STANDARD_JSON = JSON.stringify({
  language: "Solidity",
  sources: { "Greeter.sol": { content: SOURCE } },
  settings: { optimizer: { enabled: true, runs: 200 } },
});

let service: TestService;
let browser: Browser;
let explorerUrl: string;
let greeter: string;
let greetHash: string;

beforeAll(async () => {
  service = await startTestService();
  browser = await launchBrowser();
  const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
    as: "alice",
    body: {
      display_name: "Old compiler",
      network_configs: [
        {
          network_id: "1",
          accounts: [{ address: DEPLOYER, balance: "0x56bc75e2d63100000" }],
          explorer_config: { enabled: true, verification_visibility: "abi" },
        },
      ],
    },
  });
  expect(created.status).toBe(200);
  const vnet = created.body.active_instance.vnets[0] as { explorer_url: string; rpcs: { name: string; url: string }[] };
  explorerUrl = vnet.explorer_url;
  const admin = vnet.rpcs.find((r) => r.name === "Admin RPC")!.url;
  const solc = require("solc-0.5.16") as { compile(input: string): string };
  const settings = { ...JSON.parse(STANDARD_JSON).settings, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } };
  const output = JSON.parse(solc.compile(JSON.stringify({ ...JSON.parse(STANDARD_JSON), settings }))) as {
    contracts: Record<string, Record<string, { abi: Record<string, unknown>[]; evm: { bytecode: { object: string } } }>>;
  };
  const contract = output.contracts["Greeter.sol"]!.Greeter!;
  greeter = await deploy(admin, DEPLOYER, `0x${contract.evm.bytecode.object}`);
  const data = encodeFunctionData({ abi: contract.abi, functionName: "greetSomeone", args: ["world"] });
  greetHash = (await send(admin, DEPLOYER, greeter, data)).hash;
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

async function pageText(): Promise<{ method: string; events: string }> {
  const page = await browser.newPage();
  const response = await page.goto(`${explorerUrl}/tx/${greetHash}`);
  expect(response!.status()).toBe(200);
  const text = { method: (await page.locator("#method").textContent()) ?? "", events: (await page.locator("#events").textContent()) ?? "" };
  await page.close();
  return text;
}

test("a contract compiled with solc 0.5.16 verifies, then its calls and events decode", async () => {
  const before = await pageText();
  expect(before.method).toMatch(/^0x[0-9a-f]{8}\(\)$/);
  expect(before.events).toContain("unknown event");

  const response = await fetch(`${explorerUrl}/api`, {
    method: "POST",
    body: new URLSearchParams({
      module: "contract",
      action: "verifysourcecode",
      contractaddress: greeter,
      codeformat: "solidity-standard-json-input",
      contractname: "Greeter.sol:Greeter",
      compilerversion: "v0.5.16+commit.9c3226ce",
      sourceCode: STANDARD_JSON,
    }),
  });
  const answer = (await response.json()) as { status: string; result: string };
  expect([response.status, answer.status]).toEqual([200, "1"]);
  const status = await fetch(`${explorerUrl}/api?module=contract&action=checkverifystatus&guid=${answer.result}`);
  expect(((await status.json()) as { result: string }).result).toContain("Pass - Verified");

  const after = await pageText();
  expect(after.method).toBe("greetSomeone(who: world)");
  expect(after.events).toMatch(/Greeted\(by: 0x0{8}…0a11ce, who: world, times: 1\)/);
  const abi = await fetch(`${explorerUrl}/api?module=contract&action=getsourcecode&address=${greeter}`);
  expect(((await abi.json()) as { result: { CompilerVersion: string }[] }).result[0]!.CompilerVersion).toBe("v0.5.16+commit.9c3226ce");
});
