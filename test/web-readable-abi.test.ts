/**
 * ABIs added by users for contracts nobody verified: `chainform abi add ENV ADDRESS FILE` with a Foundry artifact, and
 * `POST .../vnet/{vnetId}/abis` with a Hardhat artifact, against the local service. Before, the explorer shows a bare
 * selector and "unknown event"; after, it names the call, its arguments and the event, and an EIP-1967 proxy in front
 * of the contract decodes with its implementation's ABI. Bad ABIs are a 400 naming the field (and the entry at fault)
 * or a CLI error naming the file, and leave what was added before in place.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertCliBuilt, runCli, serviceEnv } from "./helpers/cli";
import { call } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import { deploy, send } from "./helpers/uniswap";
import { encodeDeployData, encodeFunctionData } from "./helpers/viem";

jest.setTimeout(300_000);

const DEPLOYER = "0x00000000000000000000000000000000000a11ce";
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Vault {
    mapping(address => uint256) public stashed;
    event Stashed(address indexed who, uint256 amount, string note);
    function stashFor(address who, uint256 amount, string calldata note) external {
        stashed[who] += amount;
        emit Stashed(who, amount, note);
    }
}
/// The smallest EIP-1967 proxy: the implementation in the standard slot, every call delegated to it.
contract Proxy1967 {
    constructor(address implementation) {
        assembly { sstore(0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc, implementation) }
    }
    fallback() external payable {
        assembly {
            let target := sload(0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}
`;

type Compiled = Record<string, { abi: Record<string, unknown>[]; evm: { bytecode: { object: string } } }>;

let service: TestService;
let dir: string;
let explorerUrl: string;
let abisPath: string;
let vault: string;
let proxy: string;
let directHash: string;
let proxiedHash: string;
let compiled: Compiled;

beforeAll(async () => {
  assertCliBuilt();
  service = await startTestService();
  dir = mkdtempSync(join(tmpdir(), "chainform-abi-"));
  const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
    as: "alice",
    body: {
      display_name: "Unverified",
      slug: "unverified",
      network_configs: [
        { network_id: "1", accounts: [{ address: DEPLOYER, balance: "0x56bc75e2d63100000" }], explorer_config: { enabled: true } },
      ],
    },
  });
  expect(created.status).toBe(200);
  const environment = created.body as {
    id: string;
    active_instance: { id: string; vnets: { id: string; explorer_url: string; rpcs: { name: string; url: string }[] }[] };
  };
  const vnet = environment.active_instance.vnets[0]!;
  explorerUrl = vnet.explorer_url;
  abisPath = `/public/v1/account/acme/project/demo/environments/${environment.id}/instance/${environment.active_instance.id}/vnet/${vnet.id}/abis`;
  const admin = vnet.rpcs.find((r) => r.name === "Admin RPC")!.url;
  const solc = require("solc") as { compile(input: string): string };
  compiled = (
    JSON.parse(
      solc.compile(
        JSON.stringify({
          language: "Solidity",
          sources: { "Vault.sol": { content: SOURCE } },
          settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
        }),
      ),
    ) as { contracts: Record<string, Compiled> }
  ).contracts["Vault.sol"]!;
  vault = await deploy(admin, DEPLOYER, `0x${compiled.Vault!.evm.bytecode.object}`);
  proxy = await deploy(
    admin,
    DEPLOYER,
    encodeDeployData({ abi: compiled.Proxy1967!.abi, bytecode: `0x${compiled.Proxy1967!.evm.bytecode.object}`, args: [vault] }),
  );
  const stash = (note: string) => encodeFunctionData({ abi: compiled.Vault!.abi, functionName: "stashFor", args: [DEPLOYER, 42n, note] });
  directHash = (await send(admin, DEPLOYER, vault, stash("direct"))).hash;
  proxiedHash = (await send(admin, DEPLOYER, proxy, stash("through the proxy"))).hash;
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await service?.close();
});

async function decoded(hash: string): Promise<string> {
  const response = await fetch(`${explorerUrl}/tx/${hash}`);
  expect(response.status).toBe(200);
  return response.text();
}

test("before any ABI, the call is a bare selector and the event unknown", async () => {
  const page = await decoded(directHash);
  expect(page).toMatch(/<code id="method">0x[0-9a-f]{8}\(\)<\/code>/);
  expect(page).toContain("unknown event");
});

test("chainform abi add with a Foundry artifact names the call and the event, on the contract and behind its proxy", async () => {
  const artifact = join(dir, "Vault.json");
  writeFileSync(artifact, JSON.stringify({ abi: compiled.Vault!.abi, bytecode: { object: "0x" }, metadata: {} }));
  const added = await runCli(["abi", "add", "unverified", vault, artifact], { env: serviceEnv(service) });
  expect([added.code, added.stderr]).toEqual([0, ""]);
  expect(added.stdout).toContain(`added Vault at ${vault} on network 1 (2 functions, 1 events)`);
  for (const [hash, note] of [
    [directHash, "direct"],
    [proxiedHash, "through the proxy"],
  ] as const) {
    const page = await decoded(hash);
    expect(page).toMatch(/<code id="method">stashFor\(who: .*, amount: 42, note: .*<\/code>/);
    expect(page).toContain(`<strong>Stashed</strong>`);
    expect(page).toContain(note);
    expect(page).not.toContain("unknown event");
  }
  const proxyPage = await (await fetch(`${explorerUrl}/address/${proxy}`)).text();
  expect(proxyPage).toContain("EIP-1967, implementation");
  expect(proxyPage).toContain("Vault");
});

test("the API takes a Hardhat artifact and lists what was added; bad ABIs are refused and change nothing", async () => {
  const hardhat = { _format: "hh-sol-artifact-1", contractName: "Vault", abi: compiled.Vault!.abi, bytecode: "0x" };
  const ok = await call(service, "POST", abisPath, { as: "alice", body: { address: vault, abi: JSON.stringify(hardhat) } });
  expect([ok.status, ok.body.name, ok.body.functions, ok.body.events]).toEqual([200, "Vault", 2, 1]);
  for (const [abi, says] of [
    ["not json", "not JSON"],
    ["{}", "must be a JSON array"],
    ['[{"type":"function","name":"x","inputs":[{"type":"uint7"}]}]', "abi[0]: inputs[0]: type uint7 has no such size"],
    ['[{"type":"sandwich"}]', "abi[0]: type must be one of"],
    ['[{"type":"event","name":"<script>"}]', "abi[0]: name must be a Solidity identifier"],
  ]) {
    const refused = await call(service, "POST", abisPath, { as: "alice", body: { address: vault, abi } });
    expect([refused.status, JSON.stringify(refused.body)]).toEqual([400, expect.stringContaining(says)]);
    expect(JSON.stringify(refused.body)).not.toContain("<script>");
  }
  const badAddress = await call(service, "POST", abisPath, { as: "alice", body: { address: "0x1234", abi: "[]" } });
  expect(badAddress.status).toBe(400);
  const readOnly = await call(service, "POST", abisPath, { as: "bob", body: { address: vault, abi: "[]" } });
  expect(readOnly.status).toBe(403);
  const listed = await call(service, "GET", abisPath, { as: "alice" });
  expect(listed.body).toEqual([expect.objectContaining({ address: vault, name: "Vault", functions: 2, events: 1 })]);
  expect(await decoded(directHash)).toContain("stashFor(");

  const badFile = join(dir, "bad.json");
  writeFileSync(badFile, '{"abi": [{"type": "function", "name": "1x"}]}');
  const cli = await runCli(["abi", "add", "unverified", vault, badFile], { env: serviceEnv(service) });
  expect(cli.code).not.toBe(0);
  expect(cli.stderr).toContain(`${badFile}: abi[0]: name must be a Solidity identifier`);
});
